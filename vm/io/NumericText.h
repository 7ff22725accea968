// Numeric data in tables (docs/LANGUAGE.md, "Numeric data in tables"): a row of a table holds
// numeric fields, each a run of columns read most significant bit first. A layout such as
// "u8 i16 f32 f64" names the fields from left to right: u<k> unsigned and i<k> two's complement
// (1 <= k <= 64), f32 and f64 IEEE-754 with the sign bit first. LOADNUM and SAVENUM move such a
// table to and from a text file of one record (row) per line; SVAL/SBIN/FVAL/FBIN/StrToReal use
// the number conversions.
#pragma once

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vm/io/TableText.h"

namespace star {

enum class FieldKind : std::uint8_t { Unsigned, Signed, F32, F64 };

struct NumField {
  FieldKind kind = FieldKind::Unsigned;
  unsigned width = 0;  // bits: 1..64, 32 for f32, 64 for f64
};

struct NumLayout {
  std::vector<NumField> fields;
  std::uint64_t width = 0;  // the sum of the field widths: the table's number of columns
};

// "u8", "i16", "f64" as written in a layout.
std::string fieldName(const NumField& f);

// Parses a layout string. Inline (header only) so that the checker can validate a constant
// layout at compile time without linking the VM. On failure returns nullopt and sets `error`.
inline std::optional<NumLayout> parseLayout(std::string_view text, std::string& error) {
  NumLayout layout;
  std::size_t pos = 0;
  auto bad = [&](std::string_view token) {
    error = "bad layout '" + std::string(text) + "': field " +
            std::to_string(layout.fields.size() + 1) + " '" + std::string(token) +
            "' is not u1..u64, i1..i64, f32 or f64";
    return std::nullopt;
  };
  while (true) {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos == text.size()) break;
    std::size_t end = pos;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
    std::string_view token = text.substr(pos, end - pos);
    pos = end;
    char kind = static_cast<char>(std::tolower(static_cast<unsigned char>(token[0])));
    std::string_view digits = token.substr(1);
    unsigned width = 0;
    bool digitsOk = !digits.empty() && digits.size() <= 2 && digits[0] != '0';
    for (char c : digits) {
      digitsOk = digitsOk && c >= '0' && c <= '9';
      width = width * 10 + static_cast<unsigned>(c - '0');
    }
    if (!digitsOk) return bad(token);
    NumField f;
    f.width = width;
    if (kind == 'u' && width <= 64) f.kind = FieldKind::Unsigned;
    else if (kind == 'i' && width <= 64) f.kind = FieldKind::Signed;
    else if (kind == 'f' && (width == 32 || width == 64)) f.kind = width == 32 ? FieldKind::F32 : FieldKind::F64;
    else return bad(token);
    layout.fields.push_back(f);
    layout.width += width;
  }
  if (layout.fields.empty()) {
    error = "bad layout '" + std::string(text) + "': it names no fields (e.g. 'u8 i16 f32 f64')";
    return std::nullopt;
  }
  return layout;
}

// Throws TableFileError("bad layout ...") when the layout is invalid.
NumLayout parseLayoutOrThrow(std::string_view text);

// ---- two's complement

// The k-bit pattern `pattern` (its low k bits) as a signed number.
std::int64_t signExtend(std::uint64_t pattern, unsigned k);
// Whether n has a k-bit two's complement form (-2^(k-1) <= n < 2^(k-1)).
bool fitsSigned(std::int64_t n, unsigned k);
// The low k bits of n.
std::uint64_t lowBits(std::uint64_t n, unsigned k);

// ---- reals as text

enum class RealParse : std::uint8_t { Ok, NotANumber, OutOfRange };
// The whole of `s` as a decimal real (an optional sign, digits with an optional point and
// exponent, or inf/infinity/nan): rounded to the nearest double (ParseDouble) or float
// (parseFloat). OutOfRange when it overflows; values too small round to a subnormal or zero.
RealParse parseDouble(std::string_view s, double& out);
RealParse parseFloat(std::string_view s, float& out);
// The shortest text that reads back to the same value ("0.1", "-0", "1e+21", "inf", "-nan").
std::string shortestText(double x);
std::string shortestText(float x);

// ---- numeric table files

// One record per line, numbers separated by blanks or one comma; blank lines and lines whose
// first non-blank character is '#' are skipped. Errors: TableFileError("name:line:col: ...").
TableData parseNumericText(const std::string& text, const NumLayout& layout,
                           const std::string& nameForErrors);
TableData readNumericFile(const std::string& path, const NumLayout& layout);
// Needs t.cols == layout.width (the caller checks): integers in decimal, floats shortest.
std::string formatNumericText(const TableData& t, const NumLayout& layout);
void writeNumericFile(const std::string& path, const TableData& t, const NumLayout& layout);

}  // namespace star
