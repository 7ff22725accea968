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

#include "core/CheckedMath.h"
#include "core/NumericLayout.h"
#include "vm/io/TableText.h"

namespace star {

// Throws TableFileError("bad layout ...") when the layout is invalid.
NumLayout parseLayoutOrThrow(std::string_view text);

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
