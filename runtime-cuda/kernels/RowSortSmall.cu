// The short path of SORT and SEGSORT (RowSortSmall.h).
//
// Plan (one block of 1024 threads, two rows each): every row's key is read from the key columns
// (staged in shared memory) and turned into its order (SortBits.h); a block scan numbers the
// marked rows and the groups. Then the O(N) rank sort of docs/PAPERS.md §3 with N threads
// (here N / 2 threads of two rows): each thread counts, in one pass over the block's shared
// (group, key) array, the marked rows that come before each of its rows -- smaller group, or same
// group and smaller key, or same group and key and a smaller row number. Ties broken by the row
// number make duplicates correct and the sort stable. Unmarked rows carry a group after every
// other, so they are never counted. The row of rank k goes to the k-th marked row:
// source[position[k]] := row; an unmarked row keeps its bits.
//
// Move (one warp per column): a column of <= 2048 rows is <= 32 elements, one per lane, so each
// lane builds its new element by fetching the source bits of its 64 rows from the other lanes
// with shuffles. A column is read whole before it is written, by the same warp, so the move is
// in place.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cub/block/block_scan.cuh>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/kernels/RowSortSmall.h"
#include "runtime-cuda/kernels/SortScratch.h"
#include "runtime-cuda/kernels/Tuning.h"
#include "runtime-cuda/kernels/Warp.h"

namespace star::cuda {
namespace {

using Policy = SortPolicy::Small;  // the plan and move blocks (Tuning.h)
constexpr unsigned kPlanPerThread = 2;
static_assert(Policy::kPlanThreads * kPlanPerThread == kSmallSortRows);
constexpr unsigned kMaxWords = kSmallSortRows / 64;  // elements of a column
constexpr unsigned kMoveWarps = Policy::kMoveThreads / kWarp;

// Group numbers are < kSmallSortRows; the unmarked rows' group is kSmallSortRows, after all.
constexpr std::uint16_t kUnmarkedGroup = kSmallSortRows;

using PlanScan = cub::BlockScan<std::uint32_t, Policy::kPlanThreads>;

__device__ __forceinline__ bool bitAt(const std::uint64_t* v, std::uint64_t i) {
  return (v[i / 64] >> (i % 64)) & 1;
}

// source[r] := the row whose bits row r receives, for r < rows.
__global__ void __launch_bounds__(Policy::kPlanThreads)
    smallPlanKernel(const std::uint64_t* __restrict__ table, std::uint64_t rows,
                      std::uint64_t words, const std::uint64_t* __restrict__ x,
                      const std::uint64_t* __restrict__ heads, std::uint64_t first,
                      std::uint64_t len, KeyOrder order, std::uint16_t* __restrict__ source) {
  __shared__ union {
    PlanScan::TempStorage scan;
    std::uint64_t key_words[64 * kMaxWords];  // the key field's columns, len x words
  } tmp;
  __shared__ std::uint64_t order_of[kSmallSortRows];  // a row's key order
  __shared__ std::uint16_t group_of[kSmallSortRows];  // a row's group
  __shared__ std::uint16_t position[kSmallSortRows];  // the k-th marked row

  for (std::uint64_t e = threadIdx.x; e < len * words; e += Policy::kPlanThreads) {
    tmp.key_words[e] = table[(first + e / words) * words + e % words];
  }
  __syncthreads();

  std::uint64_t key[kPlanPerThread];
  std::uint32_t packed[kPlanPerThread];  // marked (bit 0) and head (bit 16): scanned together
  bool marked[kPlanPerThread];
  bool head[kPlanPerThread];
  for (unsigned i = 0; i < kPlanPerThread; ++i) {
    const std::uint64_t r = threadIdx.x * kPlanPerThread + i;
    const bool inside = r < rows;
    marked[i] = inside && bitAt(x, r);
    head[i] = inside && (r == 0 || (heads != nullptr && bitAt(heads, r)));
    std::uint64_t field = 0;
    if (marked[i]) {
      for (std::uint64_t j = 0; j < len; ++j) {
        field = (field << 1) | ((tmp.key_words[j * words + r / 64] >> (r % 64)) & 1);
      }
    }
    key[i] = toOrder(field, order);
    packed[i] = (marked[i] ? 1u : 0u) | (head[i] ? 1u << 16 : 0u);
  }
  __syncthreads();  // key_words is dead: the scan reuses its storage

  std::uint32_t before[kPlanPerThread];
  PlanScan(tmp.scan).ExclusiveSum(packed, before);
  std::uint16_t group[kPlanPerThread];
  for (unsigned i = 0; i < kPlanPerThread; ++i) {
    const unsigned r = threadIdx.x * kPlanPerThread + i;
    // Row 0 is a head, so a row's group is the number of heads up to it, minus 1.
    group[i] = marked[i] ? static_cast<std::uint16_t>((before[i] >> 16) + head[i] - 1)
                         : kUnmarkedGroup;
    group_of[r] = group[i];
    order_of[r] = key[i];
    if (marked[i]) position[before[i] & 0xFFFF] = static_cast<std::uint16_t>(r);
  }
  __syncthreads();

  // The rank sort: one pass over all rows, every thread reading the same row (a broadcast).
  std::uint32_t rank[kPlanPerThread] = {};
  for (unsigned t = 0; t < rows; ++t) {
    const std::uint16_t g = group_of[t];
    const std::uint64_t k = order_of[t];
    for (unsigned i = 0; i < kPlanPerThread; ++i) {
      const unsigned r = threadIdx.x * kPlanPerThread + i;
      rank[i] += g < group[i] || (g == group[i] && (k < key[i] || (k == key[i] && t < r)));
    }
  }
  for (unsigned i = 0; i < kPlanPerThread; ++i) {
    const std::uint64_t r = threadIdx.x * kPlanPerThread + i;
    if (r >= rows) continue;
    source[marked[i] ? position[rank[i]] : r] = static_cast<std::uint16_t>(r);
  }
}

__device__ __forceinline__ std::uint64_t shfl(std::uint64_t v, unsigned lane) {
  return __shfl_sync(kFullMask, static_cast<unsigned long long>(v), static_cast<int>(lane));
}

// Column c := for every row r, bit source[r] of column c. One warp per column, lane l holding
// element l (rows 64 l .. 64 l + 63).
__global__ void __launch_bounds__(Policy::kMoveThreads)
    smallMoveKernel(std::uint64_t* __restrict__ table, std::uint64_t rows, std::uint64_t cols,
                      std::uint64_t words, const std::uint16_t* __restrict__ source) {
  __shared__ std::uint16_t src[kSmallSortRows];
  for (std::uint64_t r = threadIdx.x; r < rows; r += Policy::kMoveThreads) src[r] = source[r];
  __syncthreads();
  const unsigned lane = threadIdx.x % kWarp;
  const unsigned warp = threadIdx.x / kWarp;
  for (std::uint64_t c = std::uint64_t{blockIdx.x} * kMoveWarps + warp; c < cols;
       c += std::uint64_t{gridDim.x} * kMoveWarps) {
    std::uint64_t* column = table + c * words;
    const std::uint64_t v = lane < words ? column[lane] : 0;
    std::uint64_t out = 0;
    for (unsigned i = 0; i < 64; ++i) {
      const std::uint64_t r = std::uint64_t{lane} * 64 + i;
      const unsigned s = r < rows ? src[r] : 0;
      const std::uint64_t w = shfl(v, s / 64);
      if (r < rows) out |= ((w >> (s % 64)) & 1) << i;
    }
    if (lane < words) column[lane] = out;
  }
}

}  // namespace

void smallSortTableRows(DeviceContext& ctx, std::uint64_t* table, std::uint64_t rows,
                           std::uint64_t cols, const std::uint64_t* x, const std::uint64_t* heads,
                           std::uint64_t first, std::uint64_t len, const KeyOrder& order) {
  const std::uint64_t words = (rows + 63) / 64;
  SortScratch source(ctx, rows * sizeof(std::uint16_t));
  smallPlanKernel<<<1, Policy::kPlanThreads, 0, ctx.stream()>>>(
      table, rows, words, x, heads, first, len, order, source.as<std::uint16_t>());
  checkLaunch("small_plan_kernel");
  const std::uint64_t blocks = (cols + kMoveWarps - 1) / kMoveWarps;
  const unsigned grid = static_cast<unsigned>(
      std::clamp<std::uint64_t>(blocks, 1, std::max(ctx.launch().max_blocks, 1u)));
  smallMoveKernel<<<grid, Policy::kMoveThreads, 0, ctx.stream()>>>(table, rows, cols, words,
                                                                     source.as<std::uint16_t>());
  checkLaunch("small_move_kernel");
}

}  // namespace star::cuda
