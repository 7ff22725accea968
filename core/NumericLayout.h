// Numeric fields of table rows (docs/LANGUAGE.md, "Numeric data in tables"): a layout such as
// "u8 i16 f32 f64" names the fields of a row from left to right, each a run of columns read most
// significant bit first: u<k> unsigned and i<k> two's complement (1 <= k <= 64), f32 and f64
// IEEE-754 with the sign bit first. The checker validates constant layouts with it; the VM reads
// and writes numeric files with it (vm/io/NumericText.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// Parses a layout string. On failure returns nullopt and sets `error`.
std::optional<NumLayout> parseLayout(std::string_view text, std::string& error);

}  // namespace star
