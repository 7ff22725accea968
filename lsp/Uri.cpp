#include "lsp/Uri.h"

#include <cctype>
#include <filesystem>

namespace star::lsp {
namespace {

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percentDecode(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hexValue(s[i + 1]) >= 0 && hexValue(s[i + 2]) >= 0) {
      out += static_cast<char>(hexValue(s[i + 1]) * 16 + hexValue(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

bool keptInUri(unsigned char c) {
  return std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~';
}

}  // namespace

std::optional<std::string> uriToPath(const std::string& uri) {
  constexpr std::string_view kScheme = "file://";
  if (uri.size() < kScheme.size()) return std::nullopt;
  for (std::size_t i = 0; i < kScheme.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(uri[i])) != kScheme[i]) return std::nullopt;
  std::string rest = uri.substr(kScheme.size());
  std::size_t slash = rest.find('/');  // after the authority (empty or a host name)
  if (slash == std::string::npos) return std::nullopt;
  std::string path = percentDecode(rest.substr(slash));
  if (path.find('\0') != std::string::npos) return std::nullopt;
  return path;
}

std::string pathToUri(const std::string& path) {
  std::string absolute = path;
  std::error_code ec;
  if (!path.empty() && path[0] != '/') {
    auto full = std::filesystem::absolute(path, ec);
    if (!ec) absolute = full.string();
  }
  absolute = std::filesystem::path(absolute).lexically_normal().string();
  static const char kHex[] = "0123456789ABCDEF";
  std::string out = "file://";
  for (unsigned char c : absolute) {
    if (keptInUri(c)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string documentPath(const std::string& uri) {
  if (auto path = uriToPath(uri)) return std::filesystem::path(*path).lexically_normal().string();
  return uri;
}

}  // namespace star::lsp
