#include <cstdint>
#include <cub/block/block_reduce.cuh>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/DeviceLoops.cuh"
#include "runtime-cuda/kernels/Search.h"
#include "runtime-cuda/kernels/Tuning.h"

namespace star::cuda {
namespace {

using Index = unsigned long long;  // the type atomicMin/atomicAdd/atomicExch take
static_assert(sizeof(Index) == sizeof(std::uint64_t));

// Policy::kUnroll: independent loads each thread has in flight per pass of its grid-stride loop; a
// grid is sized so that one pass covers the vector (until the grid reaches launch.max_blocks).
// Up to Policy::kSingleBlockWords elements one block does the whole reduction (kBlockThreads *
// kUnroll elements per pass, so at most two passes): no atomics, no last-block hand-over. Beyond
// it the work is spread over the device.
using Policy = SearchPolicy;

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

// A result for the host, in mapped pinned memory: the value, then the ticket that tells the
// spinning host that the value is there. The fence keeps the host from seeing them out of order.
__device__ __forceinline__ void publish(const ResultTarget& target, std::uint64_t value) {
  volatile std::uint64_t* host = target.host;
  host[kValueWord] = value;
  __threadfence_system();
  host[kTicketWord] = target.ticket;
}

// Called by thread 0 of every block after it has added the block's partial result to the
// ReduceState: true in exactly one block, the last to arrive, which then sees every block's
// partial. The arrival counter wraps back to 0 on the last increment (atomicInc's modulus), so it
// is idle again for the next launch.
__device__ __forceinline__ bool lastBlock(ReduceState* state) {
  __threadfence();  // this block's partial (and its writes) before its arrival
  const unsigned arrived_before = atomicInc(&state->done, gridDim.x - 1);
  if (arrived_before != gridDim.x - 1) return false;
  __threadfence();  // every other block's partial before what this block reads next
  return true;
}

// ---- what the thread that holds the final index does with it ---------------------------------
struct ReportIndex {  // FND, SOME
  ResultTarget result;
  __device__ void operator()(Index i) const { publish(result, i); }
};
struct ClearAndReport {  // STEP: every block is done reading v, so the bit can be cleared
  std::uint64_t* v;
  ResultTarget result;
  __device__ void operator()(Index i) const {
    if (i != kNotFound) v[i / 64] &= ~(std::uint64_t{1} << (i % 64));
    publish(result, i);
  }
};
struct DecideCompare {  // the first difference decides: a > b where a has the 1
  const std::uint64_t* a;
  ResultTarget result;
  __device__ void operator()(Index i) const {
    std::int64_t r = 0;
    if (i != kNotFound) r = (a[i / 64] >> (i % 64)) & 1 ? 1 : -1;
    publish(result, static_cast<std::uint64_t>(r));
  }
};
struct KeepFound {  // FRST: the element holding the first 1 gets that bit alone (the rest is 0)
  std::uint64_t* dst;
  __device__ void operator()(Index i) const {
    if (i != kNotFound) dst[i / 64] = std::uint64_t{1} << (i % 64);
  }
};

// The thread's first 1 (as a bit index), its elements taken in increasing order kUnroll at a time
// with independent loads. kZero (FRST): every element the thread owns is also set to 0 in zero_dst,
// after it was read (zero_dst may alias the searched vector: each element is read and written by
// its owner only).
template <bool kZero, class Load>
__device__ __forceinline__ Index threadFirst(const Load& load, std::uint64_t* zero_dst,
                                              std::uint64_t n) {
  Index best = kNotFound;
  const std::uint64_t stride = gridThreads();
  for (std::uint64_t base = globalThread(); base < n; base += Policy::kUnroll * stride) {
    if (best == kNotFound) {
      std::uint64_t x[Policy::kUnroll];
#pragma unroll
      for (int k = 0; k < Policy::kUnroll; ++k) {
        const std::uint64_t e = base + k * stride;
        x[k] = e < n ? load(e) : 0;
      }
#pragma unroll
      for (int k = Policy::kUnroll - 1; k >= 0; --k) {  // downwards: the lowest element wins
        if (x[k] != 0) {
          best = (base + k * stride) * 64 +
                 static_cast<unsigned>(__ffsll(static_cast<long long>(x[k])) - 1);
        }
      }
    }
    if constexpr (kZero) {
#pragma unroll
      for (int k = 0; k < Policy::kUnroll; ++k) {
        const std::uint64_t e = base + k * stride;
        if (e < n) zero_dst[e] = 0;
      }
    } else {
      if (best != kNotFound) break;
    }
  }
  return best;
}

// Minimum index of a set bit over the grid, then finish(index) in one thread.
template <bool kZero, class Load, class Finish>
__global__ void __launch_bounds__(kBlockThreads)
    findFirstKernel(Load load, Finish finish, std::uint64_t* zero_dst, std::uint64_t n,
                      ReduceState* state) {
  using Reduce = cub::BlockReduce<Index, kBlockThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const Index best = threadFirst<kZero>(load, zero_dst, n);
  // FRST over several blocks: this thread's zeros reach the device before the last block (which
  // may write the kept bit into one of them) can see this block arrive.
  if (kZero && gridDim.x > 1) __threadfence();
  const Index block_best = Reduce(temp).Reduce(best, Min{});
  if (gridDim.x == 1) {  // uniform over the block
    if (kZero) __syncthreads();  // every zero is stored before the kept bit
    if (threadIdx.x == 0) finish(block_best);
    return;
  }
  if (threadIdx.x != 0) return;
  if (block_best != kNotFound) atomicMin(&state->min_index, block_best);
  if (lastBlock(state)) finish(atomicExch(&state->min_index, kNotFound));
}

// Number of 1s over the grid, stored for the host.
__global__ void __launch_bounds__(kBlockThreads)
    countKernel(const std::uint64_t* a, std::uint64_t n, ResultTarget result) {
  using Reduce = cub::BlockReduce<Index, kBlockThreads>;
  __shared__ typename Reduce::TempStorage temp;
  Index ones = 0;
  const std::uint64_t stride = gridThreads();
  for (std::uint64_t base = globalThread(); base < n; base += Policy::kUnroll * stride) {
    std::uint64_t x[Policy::kUnroll];
#pragma unroll
    for (int k = 0; k < Policy::kUnroll; ++k) {
      const std::uint64_t e = base + k * stride;
      x[k] = e < n ? a[e] : 0;
    }
#pragma unroll
    for (int k = 0; k < Policy::kUnroll; ++k) ones += static_cast<Index>(__popcll(x[k]));
  }
  const Index block_ones = Reduce(temp).Sum(ones);
  if (gridDim.x == 1) {
    if (threadIdx.x == 0) publish(result, block_ones);
    return;
  }
  if (threadIdx.x != 0) return;
  ReduceState* state = result.state;
  if (block_ones != 0) atomicAdd(&state->sum, block_ones);
  if (lastBlock(state)) publish(result, atomicExch(&state->sum, Index{0}));
}

unsigned reductionGrid(const Launch& launch, std::uint64_t n) {
  return n <= Policy::kSingleBlockWords ? 1u : gridFor(launch, n, Policy::kUnroll);
}

template <bool kZero, class Load, class Finish>
void findFirst(const Launch& launch, ReduceState* state, Load load, Finish finish,
                std::uint64_t* zero_dst, std::uint64_t n, const char* what) {
  if (n == 0) return;
  findFirstKernel<kZero><<<reductionGrid(launch, n), kBlockThreads, 0, launch.stream>>>(
      load, finish, zero_dst, n, state);
  checkLaunch(what);
}

}  // namespace

void launchFindFirst(const Launch& launch, const ResultTarget& target, const std::uint64_t* a,
                       std::uint64_t n) {
  findFirst<false>(launch, target.state, LoadBits{a}, ReportIndex{target}, nullptr, n,
                    "find_first kernel");
}

void launchStep(const Launch& launch, const ResultTarget& target, std::uint64_t* v,
                 std::uint64_t n) {
  findFirst<false>(launch, target.state, LoadBits{v}, ClearAndReport{v, target}, nullptr, n,
                    "step kernel");
}

void launchCompare(const Launch& launch, const ResultTarget& target, const std::uint64_t* a,
                    const std::uint64_t* b, std::uint64_t n) {
  findFirst<false>(launch, target.state, LoadDifference{a, b}, DecideCompare{a, target},
                    nullptr, n, "compare kernel");
}

void launchFirstOnly(const Launch& launch, ReduceState* state, std::uint64_t* dst,
                       const std::uint64_t* a, std::uint64_t n) {
  findFirst<true>(launch, state, LoadBits{a}, KeepFound{dst}, dst, n, "first_only kernel");
}

void launchCount(const Launch& launch, const ResultTarget& target, const std::uint64_t* a,
                  std::uint64_t n) {
  if (n == 0) return;
  countKernel<<<reductionGrid(launch, n), kBlockThreads, 0, launch.stream>>>(a, n, target);
  checkLaunch("count kernel");
}

}  // namespace star::cuda
