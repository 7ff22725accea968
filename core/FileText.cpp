#include "core/FileText.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace star {

std::optional<std::string> readBoundedFile(const std::string& path, std::uint64_t maxBytes,
                                           std::string& error) {
  std::error_code ec;
  if (path != "-" && std::filesystem::is_directory(path, ec)) {
    error = "is a directory";
    return std::nullopt;
  }
  FILE* raw = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!raw) {
    error = std::string("cannot read: ") + std::strerror(errno);
    return std::nullopt;
  }
  struct Closer {
    bool owned;
    void operator()(FILE* f) const {
      if (owned) std::fclose(f);
    }
  };
  std::unique_ptr<FILE, Closer> file(raw, Closer{path != "-"});
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    std::size_t n = std::fread(buffer, 1, sizeof buffer, raw);
    if (n > 0) {
      if (text.size() + n > maxBytes) {
        error = "is larger than " + describeBytes(maxBytes);
        return std::nullopt;
      }
      text.append(buffer, n);
    }
    if (n < sizeof buffer) {
      if (std::ferror(raw)) {
        error = std::string("cannot read: ") + std::strerror(errno);
        return std::nullopt;
      }
      if (std::feof(raw)) break;
    }
  }
  return text;
}

std::string fileErrorMessage(const std::string& path, const std::string& error) {
  const std::string prefix = "cannot read: ";
  if (error.rfind(prefix, 0) == 0) return "cannot read " + path + ": " + error.substr(prefix.size());
  return path + " " + error;
}

std::string describeBytes(std::uint64_t bytes) {
  const char* units[] = {"bytes", "KB", "MB", "GB", "TB", "PB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 5) {
    v /= 1024;
    ++u;
  }
  char buf[48];
  if (u == 0) std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
  else if (v == static_cast<double>(static_cast<std::uint64_t>(v)))
    std::snprintf(buf, sizeof buf, "%.0f %s", v, units[u]);
  else std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

}  // namespace star
