#include <cstdint>
#include <cub/block/block_reduce.cuh>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/DeviceLoops.cuh"
#include "runtime-cuda/kernels/Search.h"

namespace star::cuda {
namespace {

using Index = unsigned long long;  // the type atomicMin/atomicAdd take
static_assert(sizeof(Index) == sizeof(std::uint64_t));

// Elements per thread when the grid is not capped.
constexpr std::uint64_t kElementsPerThread = 8;

struct Min {
  __device__ Index operator()(Index x, Index y) const { return y < x ? y : x; }
};

struct LoadBits {
  const std::uint64_t* a;
  __device__ std::uint64_t operator()(std::uint64_t e) const { return a[e]; }
};
struct LoadDifference {
  const std::uint64_t* a;
  const std::uint64_t* b;
  __device__ std::uint64_t operator()(std::uint64_t e) const { return a[e] ^ b[e]; }
};

// Minimum index of a set bit: each thread scans its grid-stride elements in increasing order and
// stops at its first non-zero one; the block reduces the minima and one atomicMin per block
// publishes it. *found must hold kNotFound beforehand.
template <class Load>
__global__ void find_first_kernel(Load load, std::uint64_t n, Index* found) {
  using Reduce = cub::BlockReduce<Index, kBlockThreads>;
  __shared__ typename Reduce::TempStorage temp;
  Index best = kNotFound;
  for (std::uint64_t e = global_thread(); e < n; e += grid_threads()) {
    const std::uint64_t v = load(e);
    if (v != 0) {
      best = e * 64 + static_cast<unsigned>(__ffsll(static_cast<long long>(v)) - 1);
      break;
    }
  }
  const Index block_best = Reduce(temp).Reduce(best, Min{});
  if (threadIdx.x == 0 && block_best != kNotFound) atomicMin(found, block_best);
}

// popc per thread, block sum, one atomicAdd per block. *count must hold 0 beforehand.
__global__ void count_kernel(const std::uint64_t* a, std::uint64_t n, Index* count) {
  using Reduce = cub::BlockReduce<Index, kBlockThreads>;
  __shared__ typename Reduce::TempStorage temp;
  Index ones = 0;
  for (std::uint64_t e = global_thread(); e < n; e += grid_threads()) {
    ones += static_cast<Index>(__popcll(a[e]));
  }
  const Index block_ones = Reduce(temp).Sum(ones);
  if (threadIdx.x == 0 && block_ones != 0) atomicAdd(count, block_ones);
}

__global__ void clear_found_kernel(std::uint64_t* v, const std::uint64_t* found) {
  const std::uint64_t i = *found;
  if (i != kNotFound) v[i / 64] &= ~(std::uint64_t{1} << (i % 64));
}

// The found bit is a 1 of the searched vector, so the result does not need to read it again.
__global__ void keep_found_kernel(std::uint64_t* dst, std::uint64_t n, const std::uint64_t* found) {
  const std::uint64_t i = *found;
  const std::uint64_t keep = i == kNotFound ? n : i / 64;
  const std::uint64_t bit = std::uint64_t{1} << (i % 64);
  for (std::uint64_t e = global_thread(); e < n; e += grid_threads()) {
    dst[e] = e == keep ? bit : 0;
  }
}

// Bit 0 is the most significant, so the first difference decides: a > b where a has the 1.
__global__ void decide_compare_kernel(const std::uint64_t* a, const std::uint64_t* found,
                                      std::uint64_t* result) {
  const std::uint64_t i = *found;
  std::int64_t r = 0;
  if (i != kNotFound) r = (a[i / 64] >> (i % 64)) & 1 ? 1 : -1;
  *result = static_cast<std::uint64_t>(r);
}

template <class Load>
void find_first(const Launch& launch, Load load, std::uint64_t n, std::uint64_t* found) {
  check(cudaMemsetAsync(found, 0xff, sizeof(std::uint64_t), launch.stream), "find_first reset");
  if (n == 0) return;
  const unsigned grid = grid_for(launch, n, kElementsPerThread);
  find_first_kernel<<<grid, kBlockThreads, 0, launch.stream>>>(load, n,
                                                               reinterpret_cast<Index*>(found));
  check_launch("find_first kernel");
}

}  // namespace

void launch_find_first(const Launch& launch, const std::uint64_t* a, std::uint64_t n,
                       std::uint64_t* found) {
  find_first(launch, LoadBits{a}, n, found);
}

void launch_find_first_difference(const Launch& launch, const std::uint64_t* a,
                                  const std::uint64_t* b, std::uint64_t n, std::uint64_t* found) {
  find_first(launch, LoadDifference{a, b}, n, found);
}

void launch_count(const Launch& launch, const std::uint64_t* a, std::uint64_t n,
                  std::uint64_t* count) {
  check(cudaMemsetAsync(count, 0, sizeof(std::uint64_t), launch.stream), "count reset");
  if (n == 0) return;
  const unsigned grid = grid_for(launch, n, kElementsPerThread);
  count_kernel<<<grid, kBlockThreads, 0, launch.stream>>>(a, n, reinterpret_cast<Index*>(count));
  check_launch("count kernel");
}

void launch_clear_found(const Launch& launch, std::uint64_t* v, const std::uint64_t* found) {
  clear_found_kernel<<<1, 1, 0, launch.stream>>>(v, found);
  check_launch("step kernel");
}

void launch_keep_found(const Launch& launch, std::uint64_t* dst, std::uint64_t n,
                       const std::uint64_t* found) {
  if (n == 0) return;
  const unsigned grid = grid_for(launch, n, kElementsPerThread);
  keep_found_kernel<<<grid, kBlockThreads, 0, launch.stream>>>(dst, n, found);
  check_launch("first_only kernel");
}

void launch_decide_compare(const Launch& launch, const std::uint64_t* a, const std::uint64_t* found,
                           std::uint64_t* result) {
  decide_compare_kernel<<<1, 1, 0, launch.stream>>>(a, found, result);
  check_launch("compare kernel");
}

}  // namespace star::cuda
