#include "core/DiskCache.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

namespace star {

namespace {

constexpr std::string_view kMagic = "STARCACHE1\n";

}  // namespace

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string cacheEntryName(std::string_view prefix, std::uint64_t key, std::string_view suffix) {
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(key));
  return std::string(prefix) + "-" + digits + std::string(suffix);
}

std::string cacheDirectory() {
  if (const char* d = std::getenv("STAR_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/star";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/star";
  return "";
}

std::optional<std::string> DiskCache::read(const std::string& key) const {
  if (dir_.empty()) return std::nullopt;
  std::ifstream in(dir_ + "/" + key, std::ios::binary);
  if (!in) return std::nullopt;
  std::string magic(kMagic.size(), '\0');
  if (!in.read(magic.data(), static_cast<std::streamsize>(magic.size())) || magic != kMagic)
    return std::nullopt;
  std::uint64_t length = 0, sum = 0;
  if (!(in >> length >> sum) || in.get() != '\n') return std::nullopt;
  if (length > (std::uint64_t{1} << 30)) return std::nullopt;
  std::string payload(length, '\0');
  if (!in.read(payload.data(), static_cast<std::streamsize>(length))) return std::nullopt;
  if (in.peek() != std::char_traits<char>::eof()) return std::nullopt;  // longer than it says
  if (fnv1a(payload) != sum) return std::nullopt;
  return payload;
}

bool DiskCache::write(const std::string& key, std::string_view payload) const {
  if (dir_.empty()) return false;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return false;
  std::random_device rd;
  const std::string temp =
      dir_ + "/." + key + "." + std::to_string(::getpid()) + "." + std::to_string(rd());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out << kMagic << payload.size() << ' ' << fnv1a(payload) << '\n';
    out.write(payload.data(), static_cast<std::streamsize>(payload.size()));
    if (!out.flush()) {
      out.close();
      ::unlink(temp.c_str());
      return false;
    }
  }
  if (::rename(temp.c_str(), (dir_ + "/" + key).c_str()) != 0) {
    ::unlink(temp.c_str());
    return false;
  }
  return true;
}

}  // namespace star
