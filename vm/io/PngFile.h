// SAVEPNG: the bits of a table, slice or word as a PNG picture (docs/LANGUAGE.md, section 6.3).
#pragma once

#include <cstdint>
#include <string>

#include "vm/io/TableText.h"

namespace star {

// The largest picture SAVEPNG writes, in pixels per side.
inline constexpr std::uint64_t kPngMaxSide = 4096;

// Writes t as an 8-bit grayscale PNG file. Up to maxSide rows and columns: one pixel per bit,
// row i of the table is pixel row i, 1 is black (0) and 0 is white (255). Larger: the smallest
// whole factor f that brings both sides within maxSide shrinks the picture, each pixel showing a
// block of f x f bits (smaller at the right and bottom edges) by its density of 1s, from white
// (no 1) to black (all 1s): gray = round(255 * (1 - ones / bits)).
// Throws TableFileError: "PATH: cannot write: REASON"; "cannot draw an empty table as a PNG
// picture" for a table without rows or columns.
void writePngFile(const std::string& path, const TableData& t, std::uint64_t maxSide = kPngMaxSide);

}  // namespace star
