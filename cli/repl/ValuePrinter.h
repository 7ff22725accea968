// How the REPL shows values: scalars as `write` prints them, slices and words as bit strings with
// their type and length, tables as numbered rows under a `table R x C` header. Large values are
// cut short with a summary.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "frontend/ast/Ast.h"
#include "vm/backend/Backend.h"
#include "vm/interp/Interpreter.h"

namespace star::repl {

inline constexpr std::uint64_t kMaxShownRows = 32;
inline constexpr std::uint64_t kMaxShownCols = 128;
inline constexpr std::uint64_t kMaxShownBits = 1024;

// A scalar (integer, boolean, string, real) as `write` prints it.
std::string scalarText(Type type, Interpreter::Value value);

// A whole value, ending with a newline: `2`, `101 (word, 3 bits)`, a table's rows.
void printValue(std::ostream& out, Backend& backend, Type type, Interpreter::Value value);

// :show: a slice, word or table drawn with block characters for a terminal `width` columns
// wide (cli/repl/BitPicture.h), under a title such as `table 3 x 5` or `word, 12 bits`.
void drawValue(std::ostream& out, Backend& backend, Type type, Interpreter::Value value, int width);

// One line for :vars: scalars in full, short slices and words as bits, otherwise the size.
std::string valueSummary(Backend& backend, Type type, Interpreter::Value value);

// A type as a declaration writes it, with the size where it is known: `word(3)`,
// `table(3, 3)`, `slice`.
std::string typeText(Type type, const Shape& shape);

}  // namespace star::repl
