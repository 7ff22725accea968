// Word-level pieces of the CPU backend's tables (column-major packed bits, vm/backend/Backend.h):
// a row gathered into a bit vector, and one vector OR'ed into another.
#pragma once

#include <algorithm>
#include <cstdint>

namespace star::cpu {

// out[0, ceil(cols / 64)) := row `row` of a table whose columns lie `wpc` words apart (bit j of
// the result is column j's bit `row`); branch-free.
inline void gatherRow(const std::uint64_t* table, std::uint64_t wpc, std::uint64_t cols,
                      std::uint64_t row, std::uint64_t* out) {
  const unsigned shift = row % 64;
  const std::uint64_t* col = table + row / 64;  // word row / 64 of column j is col[j * wpc]
  for (std::uint64_t j0 = 0; j0 < cols; j0 += 64) {
    const std::uint64_t n = std::min<std::uint64_t>(64, cols - j0);
    std::uint64_t w = 0;
    for (std::uint64_t b = 0; b < n; ++b, col += wpc) w |= ((*col >> shift) & 1) << b;
    out[j0 / 64] = w;
  }
}

// dst[0, n) |= src[0, n); they never overlap.
inline void orInto(std::uint64_t* __restrict dst, const std::uint64_t* __restrict src,
                   std::uint64_t n) {
  for (std::uint64_t e = 0; e < n; ++e) dst[e] |= src[e];
}

}  // namespace star::cpu
