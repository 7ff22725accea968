// Text from untrusted places (names and paths inside module files, file contents echoed in
// messages) made safe for a terminal: control characters are written as \xNN.
#pragma once

#include <string>
#include <string_view>

namespace star {

inline std::string printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace star
