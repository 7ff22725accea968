// How deeply JSON text nests arrays and objects, found before it is parsed. nlohmann::json builds
// a heap node for each `[` or `{` it opens, about 75 bytes of memory per byte of `[[[[...`: a
// server that parses what it is sent (star run-server, star lsp) first refuses text nested deeper
// than it has use for, so that what it parses costs at most a small multiple of its size.
#pragma once

#include <cstddef>
#include <string_view>

namespace star {

// The nesting the servers accept: far more than any request or message they understand.
inline constexpr std::size_t kMaxJsonNesting = 64;

// True when `text` opens more than `limit` arrays and objects inside one another. Brackets inside
// strings do not count (escapes are followed). On text that is not JSON the count may be wrong,
// but only after the point where a parser stops with an error, so it is never below the depth a
// parser would reach.
inline bool jsonNestedDeeperThan(std::string_view text, std::size_t limit) {
  std::size_t depth = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;  // the escaped character cannot end the string
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

}  // namespace star
