// SAVEPNG: the bits of a table, slice or word as a PNG picture (docs/LANGUAGE.md, section 7.5).
#pragma once

#include <cstdint>
#include <string>

#include "vm/io/TableText.h"

namespace star {

// The largest picture SAVEPNG writes, in pixels per side.
inline constexpr std::uint64_t kPngMaxSide = 4096;
// The smallest longer side SAVEPNG gives a picture, in pixels: a smaller value is enlarged.
inline constexpr std::uint64_t kPngMinSide = 256;
// The smallest cell, in pixels per side, that gets grid lines.
inline constexpr std::uint64_t kPngGridCell = 8;
// The gray level of the grid lines (0 black, 255 white): light, so that it shows between white
// cells and between black ones without being taken for a bit.
inline constexpr unsigned kPngGridGray = 176;

// How a table of rows x cols bits becomes pixels (rows, cols >= 1). L = max(rows, cols):
//  * L > maxSide: shrunk. step is the smallest whole factor that brings L within maxSide, each
//    pixel a block of step x step bits shaded by its density of 1s; scale 1, no grid.
//  * minSide <= L <= maxSide: one pixel per bit (step 1, scale 1).
//  * L < minSide: enlarged. Each bit is a square of scale x scale pixels, scale = ceil(minSide /
//    L), so the longer side is at least minSide pixels (and at most minSide + L). From
//    scale >= kPngGridCell on, a grid line of one pixel (gray kPngGridGray) runs between the
//    cells and around the picture: cell (i, j) (from 0) covers pixels 1 + i * scale .. (i + 1) *
//    scale - 1 down and likewise across, rows 0, scale, 2 * scale, ... and the same columns are
//    grid lines, and the picture is cols * scale + 1 wide and rows * scale + 1 high. scale is
//    lowered where the picture would pass maxSide (not with the default sides).
struct PngLayout {
  std::uint64_t step = 1;   // bits per pixel side (> 1 only when shrunk)
  std::uint64_t scale = 1;  // pixels per bit side (> 1 only when enlarged)
  bool grid = false;
  std::uint64_t width = 0, height = 0;  // the picture, in pixels
};
PngLayout pngLayout(std::uint64_t rows, std::uint64_t cols, std::uint64_t maxSide = kPngMaxSide,
                    std::uint64_t minSide = kPngMinSide);

// Writes t as an 8-bit grayscale PNG file laid out by pngLayout: row i of the table is drawn at
// the i-th row of cells from the top, column j at the j-th from the left; a 1 is black (0), a 0
// white (255); a shrunk pixel is gray = round(255 * (1 - ones / bits)) of its block.
// minSide 1 turns enlarging off (one pixel per bit up to maxSide).
// Throws TableFileError: "PATH: cannot write: REASON"; "cannot draw an empty table (R x C) as a
// PNG picture" for a table without rows or columns.
void writePngFile(const std::string& path, const TableData& t, std::uint64_t maxSide = kPngMaxSide,
                  std::uint64_t minSide = kPngMinSide);

}  // namespace star
