#include <cstdint>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/BitMath.h"
#include "runtime-cuda/kernels/DeviceLoops.cuh"
#include "runtime-cuda/kernels/Rows.h"

namespace star::cuda {
namespace {

constexpr std::uint64_t kColumnsPerThread = 4;
constexpr unsigned kWarp = 32;

// Thread j reads bit i of column j; a warp's 32 bits become one 32-bit half of an output element
// through __ballot_sync (two warps per element). Threads run over all 64 * elements positions so
// that the halves past the last column are written as 0. Block size and grid stride are
// multiples of 32 and the bound is a multiple of 64, so whole warps stay in the loop together.
__global__ void get_row_kernel(std::uint32_t* __restrict__ dst_halves,
                               const std::uint64_t* __restrict__ table, std::uint64_t col_words,
                               std::uint64_t cols, std::uint64_t i) {
  const std::uint64_t positions = 64 * elements_for(cols);
  const std::uint64_t element = i / 64;
  const unsigned shift = static_cast<unsigned>(i % 64);
  for (std::uint64_t j = global_thread(); j < positions; j += grid_threads()) {
    const bool bit = j < cols && ((table[j * col_words + element] >> shift) & 1) != 0;
    const unsigned half = __ballot_sync(0xffffffffu, bit);
    // Little-endian: the low half of element k is 32-bit word 2k.
    if (threadIdx.x % kWarp == 0) dst_halves[j / kWarp] = half;
  }
}

// Each thread owns one column, so the read-modify-writes never collide.
__global__ void set_row_kernel(std::uint64_t* __restrict__ table, std::uint64_t col_words,
                               std::uint64_t cols, std::uint64_t i,
                               const std::uint64_t* __restrict__ src) {
  const std::uint64_t element = i / 64;
  const std::uint64_t mask = std::uint64_t{1} << (i % 64);
  for (std::uint64_t j = global_thread(); j < cols; j += grid_threads()) {
    const bool bit = ((src[j / 64] >> (j % 64)) & 1) != 0;
    std::uint64_t& word = table[j * col_words + element];
    word = bit ? (word | mask) : (word & ~mask);
  }
}

__global__ void set_bit_kernel(std::uint64_t* v, std::uint64_t i, bool bit) {
  const std::uint64_t mask = std::uint64_t{1} << (i % 64);
  std::uint64_t& word = v[i / 64];
  word = bit ? (word | mask) : (word & ~mask);
}

}  // namespace

void launch_get_row(const Launch& launch, std::uint64_t* dst, const std::uint64_t* table,
                    std::uint64_t col_words, std::uint64_t cols, std::uint64_t i) {
  if (cols == 0) return;
  const unsigned grid = grid_for(launch, 64 * elements_for(cols), kColumnsPerThread);
  get_row_kernel<<<grid, kBlockThreads, 0, launch.stream>>>(reinterpret_cast<std::uint32_t*>(dst),
                                                            table, col_words, cols, i);
  check_launch("get_row kernel");
}

void launch_set_row(const Launch& launch, std::uint64_t* table, std::uint64_t col_words,
                    std::uint64_t cols, std::uint64_t i, const std::uint64_t* src) {
  if (cols == 0) return;
  const unsigned grid = grid_for(launch, cols, kColumnsPerThread);
  set_row_kernel<<<grid, kBlockThreads, 0, launch.stream>>>(table, col_words, cols, i, src);
  check_launch("set_row kernel");
}

void launch_set_bit(const Launch& launch, std::uint64_t* v, std::uint64_t i, bool bit) {
  set_bit_kernel<<<1, 1, 0, launch.stream>>>(v, i, bit);
  check_launch("set_bit kernel");
}

}  // namespace star::cuda
