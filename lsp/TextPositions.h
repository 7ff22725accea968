// Columns: the front end counts code points from 1 (ANTLR's columns); the protocol counts from 0
// in the units of the negotiated position encoding (UTF-16 by default). Conversions work on the
// UTF-8 text of one line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace star::lsp {

enum class PositionEncoding { Utf8, Utf16, Utf32 };

const char* encodingName(PositionEncoding encoding);

// The protocol's character offset of the front end's 1-based code-point column on `line`.
std::uint32_t lspCharacter(std::string_view line, std::uint32_t codePointColumn,
                           PositionEncoding encoding);

// lspCharacter for the increasing columns of one line, in one pass over it (semantic tokens of a
// long line).
class LineCursor {
 public:
  LineCursor(std::string_view line, PositionEncoding encoding) : line_(line), encoding_(encoding) {}
  // Columns must not decrease from one call to the next.
  std::uint32_t lspCharacter(std::uint32_t codePointColumn);

 private:
  std::string_view line_;
  PositionEncoding encoding_;
  std::size_t byte_ = 0;
  std::uint32_t column_ = 1;
  std::uint32_t units_ = 0;
};

// The front end's 1-based code-point column of the protocol's character offset on `line`
// (an offset past the end of the line gives the column just after it).
std::uint32_t codePointColumn(std::string_view line, std::uint32_t character,
                              PositionEncoding encoding);

// The byte offset in `text` of the protocol's position (0-based line and character), clamped to
// the end of its line and of the text (incremental edits).
std::size_t byteOffset(std::string_view text, std::uint32_t line, std::uint32_t character,
                       PositionEncoding encoding);

// Letters, digits and '_': the characters of a Star identifier.
inline bool isIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace star::lsp
