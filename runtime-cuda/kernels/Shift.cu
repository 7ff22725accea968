#include <cstdint>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/BitMath.h"
#include "runtime-cuda/kernels/DeviceLoops.cuh"
#include "runtime-cuda/kernels/Shift.h"
#include "runtime-cuda/kernels/Tuning.h"

namespace star::cuda {
namespace {

constexpr std::uint64_t kElementsPerThread = ElementwisePolicy::kShiftElementsPerThread;

// Each thread assembles whole destination elements from (at most) two source elements.
__global__ void trimKernel(std::uint64_t* __restrict__ dst, const std::uint64_t* __restrict__ w,
                            std::uint64_t w_words, std::uint64_t from, std::uint64_t len) {
  const std::uint64_t n = wordsForBits(len);
  for (std::uint64_t k = globalThread(); k < n; k += gridThreads()) {
    std::uint64_t r = window64(w, w_words, static_cast<std::int64_t>(from + 64 * k));
    if (k == n - 1) r &= tailMask(len);
    dst[k] = r;
  }
}

// Threads own the destination elements that the range touches; the two end elements keep the
// bits outside the range.
__global__ void replaceKernel(std::uint64_t* __restrict__ w, std::uint64_t from,
                               const std::uint64_t* __restrict__ v, std::uint64_t v_len) {
  const std::uint64_t first = from / 64;
  const std::uint64_t last = (from + v_len - 1) / 64;
  const std::uint64_t v_words = wordsForBits(v_len);
  for (std::uint64_t k = globalThread(); k <= last - first; k += gridThreads()) {
    const std::uint64_t e = first + k;
    const std::uint64_t begin = 64 * e;  // first bit of element e
    const unsigned lo = static_cast<unsigned>((from > begin ? from : begin) - begin);
    const std::uint64_t end = from + v_len < begin + 64 ? from + v_len : begin + 64;
    const std::uint64_t mask = rangeMask(lo, static_cast<unsigned>(end - begin));
    // Source bit (b - from) lands on bit b; the window starts at begin - from, which is
    // negative (> -64) only for the first element.
    const std::uint64_t src =
        window64(v, v_words, static_cast<std::int64_t>(begin) - static_cast<std::int64_t>(from));
    w[e] = (w[e] & ~mask) | (src & mask);
  }
}

}  // namespace

void launchTrim(const Launch& launch, std::uint64_t* dst, const std::uint64_t* w,
                 std::uint64_t w_words, std::uint64_t from, std::uint64_t len) {
  if (len == 0) return;
  const unsigned grid = gridFor(launch, wordsForBits(len), kElementsPerThread);
  trimKernel<<<grid, kBlockThreads, 0, launch.stream>>>(dst, w, w_words, from, len);
  checkLaunch("trim kernel");
}

void launchReplace(const Launch& launch, std::uint64_t* w, std::uint64_t from,
                    const std::uint64_t* v, std::uint64_t v_len) {
  if (v_len == 0) return;
  const std::uint64_t touched = (from + v_len - 1) / 64 - from / 64 + 1;
  const unsigned grid = gridFor(launch, touched, kElementsPerThread);
  replaceKernel<<<grid, kBlockThreads, 0, launch.stream>>>(w, from, v, v_len);
  checkLaunch("replace kernel");
}

}  // namespace star::cuda
