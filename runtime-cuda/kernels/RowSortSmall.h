// SORT and SEGSORT of a table of at most kSmallSortRows rows (RowSort.cu's short path): one block
// plans the permutation with the O(N) rank sort (ties by row number), then one warp per column
// moves the bits. Two launches, whatever the keys.
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/SortBits.h"

namespace star::cuda {

class DeviceContext;

inline constexpr std::uint64_t kSmallSortRows = 2048;

// As sortTableRows (RowSort.h), for 1 <= rows <= kSmallSortRows; order from makeKeyOrder.
void smallSortTableRows(DeviceContext& ctx, std::uint64_t* table, std::uint64_t rows,
                           std::uint64_t cols, const std::uint64_t* x, const std::uint64_t* heads,
                           std::uint64_t first, std::uint64_t len, const KeyOrder& order);

}  // namespace star::cuda
