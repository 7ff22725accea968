#include <cstdint>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/BitMath.h"
#include "runtime-cuda/kernels/DeviceLoops.cuh"
#include "runtime-cuda/kernels/Rows.h"
#include "runtime-cuda/kernels/Tuning.h"
#include "runtime-cuda/kernels/Warp.h"

namespace star::cuda {
namespace {

constexpr std::uint64_t kColumnsPerThread = ElementwisePolicy::kColumnsPerThread;

// Thread j reads bit i of column j; a warp's 32 bits become one 32-bit half of an output element
// through __ballot_sync (two warps per element). Threads run over all 64 * elements positions so
// that the halves past the last column are written as 0. Block size and grid stride are
// multiples of 32 and the bound is a multiple of 64, so whole warps stay in the loop together.
__global__ void getRowKernel(std::uint32_t* __restrict__ dst_halves,
                               const std::uint64_t* __restrict__ table, std::uint64_t colWords,
                               std::uint64_t cols, std::uint64_t i) {
  const std::uint64_t positions = 64 * wordsForBits(cols);
  const std::uint64_t element = i / 64;
  const unsigned shift = static_cast<unsigned>(i % 64);
  for (std::uint64_t j = globalThread(); j < positions; j += gridThreads()) {
    const bool bit = j < cols && ((table[j * colWords + element] >> shift) & 1) != 0;
    const unsigned half = __ballot_sync(kFullMask, bit);
    // Little-endian: the low half of element k is 32-bit word 2k.
    if (threadIdx.x % kWarp == 0) dst_halves[j / kWarp] = half;
  }
}

// Each thread owns one column, so the read-modify-writes never collide.
__global__ void setRowKernel(std::uint64_t* __restrict__ table, std::uint64_t colWords,
                               std::uint64_t cols, std::uint64_t i,
                               const std::uint64_t* __restrict__ src) {
  const std::uint64_t element = i / 64;
  const std::uint64_t mask = std::uint64_t{1} << (i % 64);
  for (std::uint64_t j = globalThread(); j < cols; j += gridThreads()) {
    const bool bit = ((src[j / 64] >> (j % 64)) & 1) != 0;
    std::uint64_t& word = table[j * colWords + element];
    word = bit ? (word | mask) : (word & ~mask);
  }
}

__global__ void setBitKernel(std::uint64_t* v, std::uint64_t i, bool bit) {
  const std::uint64_t mask = std::uint64_t{1} << (i % 64);
  std::uint64_t& word = v[i / 64];
  word = bit ? (word | mask) : (word & ~mask);
}

}  // namespace

void launchGetRow(const Launch& launch, std::uint64_t* dst, const std::uint64_t* table,
                    std::uint64_t colWords, std::uint64_t cols, std::uint64_t i) {
  if (cols == 0) return;
  const unsigned grid = gridFor(launch, 64 * wordsForBits(cols), kColumnsPerThread);
  getRowKernel<<<grid, kBlockThreads, 0, launch.stream>>>(reinterpret_cast<std::uint32_t*>(dst),
                                                            table, colWords, cols, i);
  checkLaunch("get_row kernel");
}

void launchSetRow(const Launch& launch, std::uint64_t* table, std::uint64_t colWords,
                    std::uint64_t cols, std::uint64_t i, const std::uint64_t* src) {
  if (cols == 0) return;
  const unsigned grid = gridFor(launch, cols, kColumnsPerThread);
  setRowKernel<<<grid, kBlockThreads, 0, launch.stream>>>(table, colWords, cols, i, src);
  checkLaunch("set_row kernel");
}

void launchSetBit(const Launch& launch, std::uint64_t* v, std::uint64_t i, bool bit) {
  setBitKernel<<<1, 1, 0, launch.stream>>>(v, i, bit);
  checkLaunch("set_bit kernel");
}

}  // namespace star::cuda
