#include <cstdint>
#include <cub/block/block_scan.cuh>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/Arith.h"
#include "runtime-cuda/kernels/BitMath.h"
#include "runtime-cuda/kernels/Tuning.h"

namespace star::cuda {
namespace {

// Words are short in practice, so one block does the whole word: a carry-lookahead scan over
// 64-bit limbs, Policy::kThreads limbs at a time, from the least significant end (the highest
// element index) with the carry handed from chunk to chunk.
using Policy = ArithPolicy;

struct CombineCarry {
  __device__ unsigned operator()(unsigned lo, unsigned hi) const { return combineCarry(lo, hi); }
};

template <bool kSubtract>
__global__ void __launch_bounds__(Policy::kThreads)
    addSubKernel(std::uint64_t* dst, const std::uint64_t* a, const std::uint64_t* b,
                   std::uint64_t n) {
  using Scan = cub::BlockScan<unsigned, Policy::kThreads>;
  __shared__ typename Scan::TempStorage temp;
  __shared__ unsigned chunk_carry;  // into the least significant limb of the current chunk
  if (threadIdx.x == 0) chunk_carry = 0;
  __syncthreads();
  for (std::uint64_t end = n; end > 0; end = end > Policy::kThreads ? end - Policy::kThreads : 0) {
    // Thread t holds limb end - 1 - t: scan order is increasing significance. Threads past the
    // start of the word hold the identity, which only sits above every real limb.
    const bool active = threadIdx.x < end;
    const std::uint64_t e = active ? end - 1 - threadIdx.x : 0;
    std::uint64_t x = 0;
    std::uint64_t y = 0;
    unsigned state = kCarryIdentity;
    if (active) {
      // Reading every operand limb before any thread writes makes dst == a / dst == b safe.
      x = reverseBits(a[e]);
      y = reverseBits(b[e]);
      state = kSubtract ? subBorrowState(x, y) : addCarryState(x, y);
    }
    const unsigned carry_into_chunk = chunk_carry;
    unsigned prefix;
    // The initial value (generate = carry in, no propagate) carries the previous chunk's carry.
    Scan(temp).ExclusiveScan(state, prefix, carry_into_chunk, CombineCarry{});
    const unsigned carry_in = prefix & kCarryGenerate;
    if (active) dst[e] = reverseBits(kSubtract ? x - y - carry_in : x + y + carry_in);
    __syncthreads();  // everyone has read chunk_carry and is done with temp
    if (threadIdx.x == Policy::kThreads - 1) chunk_carry = carryOut(state, carry_in);
    __syncthreads();
  }
}

template <bool kSubtract>
void run(const Launch& launch, std::uint64_t* dst, const std::uint64_t* a, const std::uint64_t* b,
         std::uint64_t n) {
  if (n == 0) return;
  addSubKernel<kSubtract><<<1, Policy::kThreads, 0, launch.stream>>>(dst, a, b, n);
  checkLaunch(kSubtract ? "sub kernel" : "add kernel");
}

}  // namespace

void launchAdd(const Launch& launch, std::uint64_t* dst, const std::uint64_t* a,
                const std::uint64_t* b, std::uint64_t n) {
  run<false>(launch, dst, a, b, n);
}

void launchSub(const Launch& launch, std::uint64_t* dst, const std::uint64_t* a,
                const std::uint64_t* b, std::uint64_t n) {
  run<true>(launch, dst, a, b, n);
}

}  // namespace star::cuda
