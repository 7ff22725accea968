// The REPL's :show: a table, slice or word drawn in a terminal with Unicode block characters,
// under a title and a column ruler, each line after its first row's number.
//
// One character is one column by two rows: ▀ (upper row 1), ▄ (lower row 1), █ (both), blank
// (neither). When the bits do not fit (wider than the terminal, or more rows than
// 2 * maxLines), every character stands for a block of f columns by 2f rows, for the smallest
// whole f that fits, shaded by the share of 1s in it: blank (none), ░ (below 1/3), ▒ (below 2/3),
// ▓ (below all), █ (all).
#pragma once

#include <cstdint>
#include <string>

#include "vm/io/TableText.h"

namespace star::repl {

inline constexpr int kDefaultTerminalColumns = 80;
inline constexpr int kMaxPictureLines = 128;

// The picture, every line ending in '\n': the title (with the scale, when shrunk), the column
// ruler, then the rows. `width` is the terminal's width in columns.
std::string drawBits(const TableData& bits, const std::string& title, int width,
                     int maxLines = kMaxPictureLines);

// The shade of a block with this share of 1s (0 to 1).
const char* shadeOf(double density);

}  // namespace star::repl
