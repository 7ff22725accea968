#include "lsp/TextPositions.h"

namespace star::lsp {
namespace {

// The byte length of the UTF-8 sequence starting with `lead` (1 for a stray byte).
std::size_t sequenceLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead >> 5) == 0x6) return 2;
  if ((lead >> 4) == 0xE) return 3;
  if ((lead >> 3) == 0x1E) return 4;
  return 1;
}

// How many units of `encoding` the code point of this byte length takes.
std::uint32_t unitsOf(std::size_t bytes, PositionEncoding encoding) {
  switch (encoding) {
    case PositionEncoding::Utf8:
      return static_cast<std::uint32_t>(bytes);
    case PositionEncoding::Utf16:
      return bytes == 4 ? 2 : 1;
    case PositionEncoding::Utf32:
      return 1;
  }
  return 1;
}

// The byte offset, within `line`, of the protocol's character offset (clamped to its end).
std::size_t byteInLine(std::string_view line, std::uint32_t character, PositionEncoding encoding) {
  std::size_t byte = 0;
  std::uint32_t units = 0;
  while (byte < line.size() && units < character) {
    std::size_t len = sequenceLength(static_cast<unsigned char>(line[byte]));
    if (byte + len > line.size()) len = 1;
    units += unitsOf(len, encoding);
    byte += len;
  }
  return byte;
}

}  // namespace

const char* encodingName(PositionEncoding encoding) {
  switch (encoding) {
    case PositionEncoding::Utf8:
      return "utf-8";
    case PositionEncoding::Utf16:
      return "utf-16";
    case PositionEncoding::Utf32:
      return "utf-32";
  }
  return "utf-16";
}

std::uint32_t LineCursor::lspCharacter(std::uint32_t codePointColumn) {
  for (; column_ < codePointColumn; ++column_) {
    if (byte_ >= line_.size()) {
      units_ += codePointColumn - column_;  // past the end: one unit per column
      column_ = codePointColumn;
      break;
    }
    std::size_t len = sequenceLength(static_cast<unsigned char>(line_[byte_]));
    if (byte_ + len > line_.size()) len = 1;
    units_ += unitsOf(len, encoding_);
    byte_ += len;
  }
  return units_;
}

std::uint32_t lspCharacter(std::string_view line, std::uint32_t codePointColumn,
                           PositionEncoding encoding) {
  return LineCursor(line, encoding).lspCharacter(codePointColumn);
}

std::uint32_t codePointColumn(std::string_view line, std::uint32_t character,
                              PositionEncoding encoding) {
  std::uint32_t column = 1;
  std::size_t end = byteInLine(line, character, encoding);
  for (std::size_t byte = 0; byte < end;) {
    std::size_t len = sequenceLength(static_cast<unsigned char>(line[byte]));
    byte += byte + len > line.size() ? 1 : len;
    ++column;
  }
  return column;
}

std::size_t byteOffset(std::string_view text, std::uint32_t line, std::uint32_t character,
                       PositionEncoding encoding) {
  std::size_t start = 0;
  for (std::uint32_t l = 0; l < line; ++l) {
    std::size_t newline = text.find('\n', start);
    if (newline == std::string_view::npos) return text.size();
    start = newline + 1;
  }
  std::size_t end = text.find('\n', start);
  std::string_view lineText = text.substr(start, end == std::string_view::npos ? end : end - start);
  if (!lineText.empty() && lineText.back() == '\r') lineText.remove_suffix(1);
  return start + byteInLine(lineText, character, encoding);
}

}  // namespace star::lsp
