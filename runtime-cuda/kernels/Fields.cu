// MINROW / MAXROW and ADDWF / SUBWF on the device, column by column as the model does them.
//
// Extreme search. Column by column from the most significant, the candidates with a 0 (max: a 1)
// there are kept when there are any: each column needs "does any candidate survive?" before the
// next, a reduction over the whole column. The host must not wait for it, so the decision stays
// on the device:
//  * up to kBlockWords elements a column, one block does the whole search: the candidates live in
//    registers (kPer elements a thread), a column costs a load and a __syncthreads_or, and the next
//    column's loads are issued before that barrier;
//  * larger columns take one launch per column over the whole device, with the candidates in two
//    scratch buffers: a launch reads the current one, writes the narrowed set into the other and
//    ORs "some survivor" into a device flag; its last block (an arrival ticket, as in Search.cu)
//    makes the other buffer current when the flag is set. A first launch copies x in, a last one
//    copies the current buffer to z. len + 2 launches, all queued.
//
// Field addition. Rows are independent: every thread takes 64 rows (one element) and ripples their
// carry slice through the field's columns from the least significant, Policy::kAddBatch columns
// loaded at a time. Elements with no row of x are skipped. One launch.
#include <cuda_runtime.h>

#include <cstdint>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/BitMath.h"
#include "runtime-cuda/kernels/DeviceLoops.cuh"
#include "runtime-cuda/kernels/Fields.h"
#include "runtime-cuda/kernels/Tuning.h"

namespace star::cuda {
namespace {

using Policy = FieldsPolicy;  // the one-block search's shape, the addition's batch (Tuning.h)
constexpr std::uint64_t kBlockWords = std::uint64_t{Policy::kBlockMaxThreads} * Policy::kMaxPer;

// The device-side state of a many-launch search; it sits at the start of the scratch, before the
// two candidate buffers.
struct ExtremeState {
  unsigned cur;   // the buffer holding the current candidates (0 or 1)
  unsigned any;   // some candidate survives the column of the running launch; 0 between launches
  unsigned done;  // blocks of the running launch that have arrived; 0 between launches
  unsigned unused;
};
constexpr std::uint64_t kStateWords = sizeof(ExtremeState) / sizeof(std::uint64_t);
static_assert(sizeof(ExtremeState) == 2 * sizeof(std::uint64_t));

// The bits of a column that keep a candidate are column ^ flip: flip is 0 for max, all ones for
// min (the unused high bits then read as 1, but the candidates are 0 there).
__host__ __device__ constexpr std::uint64_t keepFlip(bool max) {
  return max ? 0 : kAllOnes;
}

// ---- one block, candidates in registers ---------------------------------------------------------
template <int kPer>
__device__ __forceinline__ void loadColumn(std::uint64_t (&dst)[kPer], const std::uint64_t* col,
                                            std::uint64_t n) {
#pragma unroll
  for (int k = 0; k < kPer; ++k) {
    const std::uint64_t e = threadIdx.x + static_cast<std::uint64_t>(k) * blockDim.x;
    dst[k] = e < n ? col[e] : 0;
  }
}

template <int kPer>
__global__ void __launch_bounds__(Policy::kBlockMaxThreads)
    extremeBlockKernel(const std::uint64_t* table, std::uint64_t n, const std::uint64_t* x,
                         std::uint64_t first, std::uint64_t len, std::uint64_t flip,
                         std::uint64_t* z) {
  std::uint64_t cand[kPer];
  std::uint64_t col[kPer];
  loadColumn(cand, x, n);  // every element of x is read before z (which may be x) is written
  if (len > 0) loadColumn(col, table + first * n, n);
  for (std::uint64_t j = 0; j < len; ++j) {
    std::uint64_t next[kPer];
    std::uint64_t any = 0;
#pragma unroll
    for (int k = 0; k < kPer; ++k) {
      next[k] = cand[k] & (col[k] ^ flip);
      any |= next[k];
    }
    // The next column's loads are in flight over the barrier.
    if (j + 1 < len) loadColumn(col, table + (first + j + 1) * n, n);
    if (__syncthreads_or(any != 0)) {
#pragma unroll
      for (int k = 0; k < kPer; ++k) cand[k] = next[k];
    }
  }
#pragma unroll
  for (int k = 0; k < kPer; ++k) {
    const std::uint64_t e = threadIdx.x + static_cast<std::uint64_t>(k) * blockDim.x;
    if (e < n) z[e] = cand[k];
  }
}

// ---- many blocks, one launch per column ---------------------------------------------------------
__global__ void __launch_bounds__(kBlockThreads)
    extremeStartKernel(std::uint64_t* buf0, const std::uint64_t* x, std::uint64_t n,
                         ExtremeState* state) {
  for (std::uint64_t e = globalThread(); e < n; e += gridThreads()) buf0[e] = x[e];
  if (globalThread() == 0) *state = ExtremeState{0, 0, 0, 0};
}

__global__ void __launch_bounds__(kBlockThreads)
    extremeColumnKernel(const std::uint64_t* col, std::uint64_t* buf0, std::uint64_t* buf1,
                          std::uint64_t n, std::uint64_t flip, ExtremeState* state) {
  // Read by every block before it arrives; only the last block to arrive changes it.
  const unsigned cur = state->cur;
  const std::uint64_t* in = cur ? buf1 : buf0;
  std::uint64_t* out = cur ? buf0 : buf1;
  std::uint64_t any = 0;
  for (std::uint64_t e = globalThread(); e < n; e += gridThreads()) {
    const std::uint64_t next = in[e] & (col[e] ^ flip);
    out[e] = next;
    any |= next;
  }
  const int block_any = __syncthreads_or(any != 0);
  if (threadIdx.x != 0) return;
  if (block_any) atomicOr(&state->any, 1u);
  __threadfence();  // this block's flag before its arrival
  if (atomicInc(&state->done, gridDim.x - 1) != gridDim.x - 1) return;  // wraps back to 0
  __threadfence();  // every block's flag before the exchange below
  if (atomicExch(&state->any, 0u) != 0) state->cur = cur ^ 1u;
}

__global__ void __launch_bounds__(kBlockThreads)
    extremeFinishKernel(std::uint64_t* z, const std::uint64_t* buf0, const std::uint64_t* buf1,
                          std::uint64_t n, const ExtremeState* state) {
  const std::uint64_t* src = state->cur ? buf1 : buf0;
  for (std::uint64_t e = globalThread(); e < n; e += gridThreads()) z[e] = src[e];
}

// ---- field addition -----------------------------------------------------------------------------
template <bool kSubtract>
__global__ void __launch_bounds__(kBlockThreads)
    addFieldKernel(std::uint64_t* table, std::uint64_t n, const std::uint64_t* x,
                     std::uint64_t first, const std::uint64_t* v, std::uint64_t len) {
  for (std::uint64_t e = globalThread(); e < n; e += gridThreads()) {
    const std::uint64_t mask = x[e];
    // No row of x here: nothing changes.
    if (mask == 0) continue;
    std::uint64_t* field = table + first * n + e;  // element e of the field's first column
    std::uint64_t carry = 0;  // into the next column (a borrow when subtracting), a bit a row
    for (std::uint64_t end = len; end > 0;) {
      const unsigned batch =
          end < Policy::kAddBatch ? static_cast<unsigned>(end) : Policy::kAddBatch;
      // Columns end - 1 down to end - batch: distinct columns, so all loads go out before a store.
      std::uint64_t a[Policy::kAddBatch];
#pragma unroll
      for (unsigned k = 0; k < Policy::kAddBatch; ++k) {
        if (k < batch) a[k] = field[(end - 1 - k) * n];
      }
#pragma unroll
      for (unsigned k = 0; k < Policy::kAddBatch; ++k) {
        if (k >= batch) break;
        const std::uint64_t j = end - 1 - k;
        const bool bit = (__ldg(v + j / 64) >> (j % 64)) & 1;
        const std::uint64_t c = carry;
        field[j * n] = a[k] ^ (mask & (bit ? ~c : c));
        carry = kSubtract ? (bit ? (c | ~a[k]) : (c & ~a[k])) : (bit ? (a[k] | c) : (a[k] & c));
      }
      end -= batch;
    }
  }
}

template <int kPer>
void launchBlockSearch(const Launch& launch, const std::uint64_t* table, std::uint64_t n,
                         const std::uint64_t* x, std::uint64_t first, std::uint64_t len, bool max,
                         std::uint64_t* z) {
  // Whole warps, as few threads as the column needs.
  const std::uint64_t per_thread = (n + kPer - 1) / kPer;
  const auto threads = static_cast<unsigned>((per_thread + 31) / 32 * 32);
  extremeBlockKernel<kPer>
      <<<1, threads, 0, launch.stream>>>(table, n, x, first, len, keepFlip(max), z);
  checkLaunch("extreme_rows kernel");
}

}  // namespace

std::uint64_t extremeScratchWords(std::uint64_t colWords) {
  return colWords <= kBlockWords ? 0 : kStateWords + 2 * colWords;
}

void launchExtremeRows(const Launch& launch, const std::uint64_t* table, std::uint64_t colWords,
                         const std::uint64_t* x, std::uint64_t first, std::uint64_t len, bool max,
                         std::uint64_t* z, std::uint64_t* scratch) {
  const std::uint64_t n = colWords;
  if (n == 0) return;
  if (n <= kBlockWords) {
    // The fewest elements per thread that cover the column.
    if (n <= Policy::kBlockMaxThreads) {
      launchBlockSearch<1>(launch, table, n, x, first, len, max, z);
    } else if (n <= 2 * Policy::kBlockMaxThreads) {
      launchBlockSearch<2>(launch, table, n, x, first, len, max, z);
    } else if (n <= 4 * Policy::kBlockMaxThreads) {
      launchBlockSearch<4>(launch, table, n, x, first, len, max, z);
    } else {
      launchBlockSearch<Policy::kMaxPer>(launch, table, n, x, first, len, max, z);
    }
    return;
  }
  auto* state = reinterpret_cast<ExtremeState*>(scratch);
  std::uint64_t* buf0 = scratch + kStateWords;
  std::uint64_t* buf1 = buf0 + n;
  const unsigned grid = gridFor(launch, n);
  extremeStartKernel<<<grid, kBlockThreads, 0, launch.stream>>>(buf0, x, n, state);
  checkLaunch("extreme_rows start kernel");
  for (std::uint64_t j = first; j < first + len; ++j) {
    extremeColumnKernel<<<grid, kBlockThreads, 0, launch.stream>>>(table + j * n, buf0, buf1, n,
                                                                     keepFlip(max), state);
    checkLaunch("extreme_rows column kernel");
  }
  extremeFinishKernel<<<grid, kBlockThreads, 0, launch.stream>>>(z, buf0, buf1, n, state);
  checkLaunch("extreme_rows finish kernel");
}

void launchAddField(const Launch& launch, std::uint64_t* table, std::uint64_t colWords,
                      const std::uint64_t* x, std::uint64_t first, const std::uint64_t* v,
                      std::uint64_t len, bool subtract) {
  if (colWords == 0 || len == 0) return;
  const unsigned grid = gridFor(launch, colWords);
  if (subtract) {
    addFieldKernel<true>
        <<<grid, kBlockThreads, 0, launch.stream>>>(table, colWords, x, first, v, len);
  } else {
    addFieldKernel<false>
        <<<grid, kBlockThreads, 0, launch.stream>>>(table, colWords, x, first, v, len);
  }
  checkLaunch(subtract ? "sub_field kernel" : "add_field kernel");
}

}  // namespace star::cuda
