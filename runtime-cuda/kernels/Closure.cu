// Transitive closure on the GPU: a blocked Warshall over the bit matrix, one launch per 64 pivots.
//
// Storage. The table is column-major: column j holds bit i = P(i, j) in W = ceil(n / 64)
// elements. Read row-major, the same memory is M = P^T (row r of M is column r of the table), and
// the closure of P^T is the transpose of the closure of P (every path reversed). So the kernels
// close M in place as a row-major bit matrix of n rows of W elements, and the storage then holds
// the closure of P, column-major, without a transpose either way.
//
// Blocking. Step b takes the pivots K = [64b, 64b + 64) (fewer in the last step) together. Let
// a(i) = M(i, K), element b of row i; D = M(K, K), the diagonal tile; D+ its transitive closure
// (paths inside K). Warshall's pivot steps for K add exactly the paths i -> k1 -> ... -> km -> j
// with every k in K (and earlier pivots between them, which M already accounts for), so
//     M'(i, :) = M(i, :) | a'(i) . M(K, :),   where a'(i) = a(i) | a(i) . D+
// (boolean products: a'(i) . M(K, :) is the OR of the pivot rows 64b + k for the bits k set in
// a'(i), and a(i) . D+ the OR of the rows of D+ for the bits set in a(i)). The formula holds for
// every row, the pivot rows included, and the rows are independent given D+ and the pivot rows as
// they were before the step, so one kernel does the whole step.
//
// Snapshots. Within a step, M(K, :) and a(i) are overwritten while other threads still read them,
// so step b reads both from snapshots that step b - 1 took: as it finishes a row, a step writes
// the row into the next step's pivot panel if it is one of the next pivots, and the row's element
// b + 1 into the next step's column. Both are double-buffered (step b reads half b % 2, writes the
// other). A first kernel takes the snapshots for step 0. Everything stays on the stream: no host
// round trip, no synchronisation.
//
// A step's block stages the pivot rows of its chunk of columns (32 T elements, T per lane) in
// shared memory while its warp 0 closes D by 64 shuffle rounds (Warshall on one element per row).
// Each warp then takes rows: a'(i), warp-uniform, by a shuffle reduction, then the OR of the
// pivot rows for the set bits of a'(i), a byte of a'(i) at a time (zero bytes skipped) into the
// lane's T elements. A row with a'(i) = 0 keeps its value. The grid is one wave (two blocks per
// multiprocessor); each warp loads its next row while it works on the current one; on Hopper the
// steps are launched with programmatic dependent launch, so that a step's launch overlaps the
// previous step (measured on an H200: -8% at n = 5000).
//
// Cost: the OR work is at most n^3 / 64 element operations (n = 5000: 2e9), about 4 us per step
// is fixed (launch, D+, the latency of a warp's one or two rows). Measured on an H200 (sparse
// random digraphs, 2 arcs per vertex, closure density 0.63): n = 1000: 0.08 ms, 2000: 0.16 ms,
// 5000: 0.68 ms, 10000: 2.4 ms.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <memory>

#include "core/Interrupt.h"
#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/Closure.h"
#include "runtime-cuda/kernels/DeviceLoops.cuh"
#include "runtime-cuda/kernels/Tuning.h"
#include "runtime-cuda/kernels/Warp.h"
#include "vm/backend/Backend.h"

namespace star::cuda {
namespace {

using Shuffled = unsigned long long;  // the 64-bit type of the __shfl_sync overloads

constexpr unsigned kPivots = 64;  // pivots per step: the bits of one element
using Policy = ClosurePolicy;     // the step blocks' shape (Tuning.h)

__device__ __forceinline__ std::uint64_t shfl(std::uint64_t x, unsigned lane) {
  return __shfl_sync(kFullMask, static_cast<Shuffled>(x), static_cast<int>(lane));
}

// The snapshots for step 0: pivot rows 0..min(64, n) - 1 and, where this part holds element 0
// (with_column), element 0 of every row.
__global__ void closureSnapshotKernel(const std::uint64_t* __restrict__ m, std::uint64_t n,
                                        std::uint64_t w, std::uint64_t* __restrict__ panel,
                                        std::uint64_t* __restrict__ column, bool with_column) {
  const std::uint64_t panel_elements = (n < kPivots ? n : kPivots) * w;  // rows are contiguous
  for (std::uint64_t e = globalThread(); e < panel_elements; e += gridThreads()) panel[e] = m[e];
  if (!with_column) return;
  for (std::uint64_t i = globalThread(); i < n; i += gridThreads()) column[i] = m[i * w];
}

// a := column_in[row] and r := this lane's elements of the row (0 past the end of the row), if
// row < row_end; else nothing.
template <unsigned T>
__device__ __forceinline__ void loadRow(const std::uint64_t* __restrict__ m, std::uint64_t w,
                                         std::uint64_t j0, unsigned lane, std::uint64_t row,
                                         std::uint64_t row_end,
                                         const std::uint64_t* __restrict__ column_in,
                                         std::uint64_t& a, std::uint64_t (&r)[T]) {
  if (row >= row_end) return;
  a = column_in[row];
#pragma unroll
  for (unsigned s = 0; s < T; ++s) {
    const std::uint64_t j = j0 + lane + kWarp * s;
    r[s] = j < w ? m[row * w + j] : 0;
  }
}

// Step b (see the top of the file). Grid: x splits the rows into contiguous ranges, y the
// elements of a row into chunks of 32 T. Shared memory: 64 x 32 T pivot elements, then D+.
// panel_in/column_in: this step's snapshots (read only); panel_out/column_out: the next step's.
// m holds elements [e0, e0 + w) of every row (all of them, e0 = 0, on one GPU; a GPU's part when
// several share the table, ClosurePart): D+ comes from column_in, which every part has, and only
// the part that holds element b + 1 writes column_out.
template <unsigned T>
__global__ void __launch_bounds__(Policy::kStepThreads, Policy::kBlocksPerSm)
    closureStepKernel(std::uint64_t* __restrict__ m, std::uint64_t n, std::uint64_t w,
                        std::uint64_t e0, std::uint64_t b,
                        const std::uint64_t* __restrict__ panel_in,
                        const std::uint64_t* __restrict__ column_in,
                        std::uint64_t* __restrict__ panel_out,
                        std::uint64_t* __restrict__ column_out) {
  constexpr unsigned kChunk = kWarp * T;
  extern __shared__ std::uint64_t closure_shared[];
  std::uint64_t* const pivot_rows = closure_shared;                // [kPivots][kChunk]
  std::uint64_t* const dplus = closure_shared + kPivots * kChunk;  // [kPivots]

  const unsigned lane = threadIdx.x % kWarp;
  const unsigned warp = threadIdx.x / kWarp;
  const std::uint64_t j0 = std::uint64_t{blockIdx.y} * kChunk;  // this block's first element
  const std::uint64_t first = kPivots * b;                      // the first pivot
  const unsigned pivots = n - first < kPivots ? static_cast<unsigned>(n - first) : kPivots;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // Launched with programmatic stream serialisation (runSteps): the previous step may still be
  // running until this wait returns, and nothing before it reads what that step writes.
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;");
#endif

  // Rows: a contiguous range per block, strided over its warps. The first row's column element
  // and elements are loaded before the barrier, each next row's while the current one is worked.
  const std::uint64_t row_end = n * (blockIdx.x + 1) / gridDim.x;
  std::uint64_t i = n * blockIdx.x / gridDim.x + warp;
  std::uint64_t a_next = 0;
  std::uint64_t r_next[T] = {};
  loadRow<T>(m, w, j0, lane, i, row_end, column_in, a_next, r_next);

  if (warp == 0) {
    // D+ by Warshall: lane l holds rows l and l + 32 of D (rows past the last pivot are 0): D's
    // row k is element b of pivot row first + k, the column snapshot's entry.
    std::uint64_t d0 = lane < pivots ? column_in[first + lane] : 0;
    std::uint64_t d1 = lane + kWarp < pivots ? column_in[first + lane + kWarp] : 0;
#pragma unroll
    for (unsigned k = 0; k < kPivots; ++k) {
      const std::uint64_t dk = shfl(k < kWarp ? d0 : d1, k % kWarp);
      if ((d0 >> k) & 1) d0 |= dk;
      if ((d1 >> k) & 1) d1 |= dk;
    }
    dplus[lane] = d0;
    dplus[lane + kWarp] = d1;
  } else {
    for (unsigned e = threadIdx.x - kWarp; e < kPivots * kChunk;
         e += Policy::kStepThreads - kWarp) {
      const unsigned k = e / kChunk;
      const std::uint64_t j = j0 + e % kChunk;
      pivot_rows[e] = k < pivots && j < w ? panel_in[k * w + j] : 0;
    }
  }
  __syncthreads();

  const std::uint64_t next_first = first + kPivots;  // the next step's pivot rows
  // and its column element, as an index into this part's elements (~0 when another part has it)
  const std::uint64_t next_col = b + 1 >= e0 && b + 1 - e0 < w ? b + 1 - e0 : ~std::uint64_t{0};
  const bool col_here = next_col < w && next_col >= j0 && next_col - j0 < kChunk;
  const bool col_lane = col_here && lane == (next_col - j0) % kWarp;

  for (; i < row_end; i += Policy::kStepWarps) {
    const std::uint64_t a = a_next;
    std::uint64_t r[T];
#pragma unroll
    for (unsigned s = 0; s < T; ++s) r[s] = r_next[s];
    loadRow<T>(m, w, j0, lane, i + Policy::kStepWarps, row_end, column_in, a_next, r_next);

    // a'(i) = a(i) | a(i) . D+: lane l contributes rows l and l + 32 of D+.
    std::uint64_t t = (((a >> lane) & 1) ? dplus[lane] : 0) |
                      (((a >> (lane + kWarp)) & 1) ? dplus[lane + kWarp] : 0);
    t = warpOr(t);
    const std::uint64_t ap = a | t;  // the same in every lane
    const bool next_pivot = i >= next_first && i - next_first < kPivots;
    if (ap == 0 && !next_pivot) {  // the row stays as it is; only its snapshot element
      if (col_lane) column_out[i] = m[i * w + next_col];
      continue;
    }

    if (ap != 0) {
#pragma unroll
      for (unsigned g = 0; g < 8; ++g) {
        const unsigned byte = static_cast<unsigned>(ap >> (8 * g)) & 0xffu;
        if (byte == 0) continue;  // uniform: ap is the same in every lane
#pragma unroll
        for (unsigned bit = 0; bit < 8; ++bit) {
          if ((byte >> bit) & 1u) {
            const std::uint64_t* const p = pivot_rows + (8 * g + bit) * kChunk + lane;
#pragma unroll
            for (unsigned s = 0; s < T; ++s) r[s] |= p[kWarp * s];
          }
        }
      }
    }
    std::uint64_t* const row = m + i * w;
#pragma unroll
    for (unsigned s = 0; s < T; ++s) {
      const std::uint64_t j = j0 + lane + kWarp * s;
      if (j >= w) continue;
      if (ap != 0) row[j] = r[s];
      if (next_pivot) panel_out[(i - next_first) * w + j] = r[s];
      if (j == next_col) column_out[i] = r[s];
    }
  }
}

std::uint64_t stepSharedBytes(unsigned per_lane) {
  return (std::uint64_t{kPivots} * kWarp * per_lane + kPivots) * sizeof(std::uint64_t);
}

// Elements per lane T: fewest chunks, each costing a fixed part per set pivot bit (the loop)
// plus a part per element; T is capped by the shared memory a block may have.
unsigned pickPerLane(std::uint64_t w, std::uint64_t max_shared, std::uint64_t& chunks) {
  unsigned best = 1;
  std::uint64_t best_cost = ~std::uint64_t{0};
  for (unsigned t = 1; t <= Policy::kMaxPerLane; ++t) {
    if (t > 1 && stepSharedBytes(t) > max_shared) break;
    const std::uint64_t c = (w + kWarp * t - 1) / (kWarp * t);
    const std::uint64_t cost = c * (6 + 4 * t);
    if (cost < best_cost) {
      best = t;
      best_cost = cost;
    }
    if (c == 1) break;  // a larger T only adds idle lanes
  }
  chunks = (w + kWarp * best - 1) / (kWarp * best);
  return best;
}

struct Scratch {
  std::uint64_t* panel[2];
  std::uint64_t* column[2];
};

// Programmatic dependent launch (Hopper on): each step is launched while the previous one runs,
// and waits for it inside (griddepcontrol.wait), which hides the launch latency between steps.
// Only where the kernel was compiled for sm_90 or later, so that it has the wait.
template <unsigned T>
bool canOverlapLaunches(int device) {
  int major = 0;
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device),
        "cudaDeviceGetAttribute");
  cudaFuncAttributes attributes{};
  check(cudaFuncGetAttributes(&attributes, closureStepKernel<T>), "cudaFuncGetAttributes");
  return major >= 9 && attributes.ptxVersion >= 90;
}

// The launch of every step of one part (grid, shared memory, overlap), chosen once.
struct StepLaunch {
  cudaLaunchConfig_t config{};
  cudaLaunchAttribute overlap{};
  void (*kernel)(std::uint64_t*, std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t,
                 const std::uint64_t*, const std::uint64_t*, std::uint64_t*, std::uint64_t*) =
      nullptr;
};

template <unsigned T>
void planSteps(const Launch& launch, int device, std::uint64_t n, std::uint64_t chunks,
               unsigned multiprocessors, bool overlap, StepLaunch& out) {
  const std::uint64_t shared = stepSharedBytes(T);
  check(cudaFuncSetAttribute(closureStepKernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(shared)),
        "cudaFuncSetAttribute (closure)");
  // About kBlocksPerSm blocks per multiprocessor in all (one wave), at least a row per warp.
  std::uint64_t row_blocks = std::uint64_t{Policy::kBlocksPerSm} * multiprocessors / chunks;
  row_blocks =
      std::min<std::uint64_t>(row_blocks, (n + Policy::kStepWarps - 1) / Policy::kStepWarps);
  row_blocks = std::max<std::uint64_t>(row_blocks, 1);

  out.overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  out.overlap.val.programmaticStreamSerializationAllowed = 1;
  out.config.gridDim = dim3(static_cast<unsigned>(row_blocks), static_cast<unsigned>(chunks));
  out.config.blockDim = dim3(Policy::kStepThreads);
  out.config.dynamicSmemBytes = shared;
  out.config.stream = launch.stream;
  out.config.attrs = &out.overlap;
  out.config.numAttrs = overlap && canOverlapLaunches<T>(device) ? 1 : 0;
  out.kernel = closureStepKernel<T>;
}

// Chooses the elements per lane and the launch of a part of w elements a row.
StepLaunch planPart(const Launch& launch, std::uint64_t n, std::uint64_t w, bool overlap) {
  int device = 0;
  int multiprocessors = 1;
  int max_shared = 48 * 1024;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device),
        "cudaDeviceGetAttribute");
  check(cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
        "cudaDeviceGetAttribute");
  std::uint64_t chunks = 1;
  const unsigned t = pickPerLane(w, static_cast<std::uint64_t>(max_shared), chunks);
  const auto sms = static_cast<unsigned>(std::max(multiprocessors, 1));
  StepLaunch out;
  switch (t) {
    case 1:
      planSteps<1>(launch, device, n, chunks, sms, overlap, out);
      break;
    case 2:
      planSteps<2>(launch, device, n, chunks, sms, overlap, out);
      break;
    case 3:
      planSteps<3>(launch, device, n, chunks, sms, overlap, out);
      break;
    default:
      planSteps<4>(launch, device, n, chunks, sms, overlap, out);
      break;
  }
  return out;
}

Scratch scratchOf(std::uint64_t* scratch, std::uint64_t n, std::uint64_t w) {
  return Scratch{{scratch, scratch + kPivots * w},
                 {scratch + 2 * kPivots * w, scratch + 2 * kPivots * w + n}};
}

void launchStep(StepLaunch& step, std::uint64_t* m, std::uint64_t n, std::uint64_t w,
                std::uint64_t e0, std::uint64_t b, const Scratch& s) {
  const unsigned in = b % 2;
  const unsigned out = 1 - in;
  step.config.attrs = &step.overlap;  // (the struct may have moved since it was planned)
  check(cudaLaunchKernelEx(&step.config, step.kernel, m, n, w, e0, b,
                           static_cast<const std::uint64_t*>(s.panel[in]),
                           static_cast<const std::uint64_t*>(s.column[in]), s.panel[out],
                           s.column[out]),
        "closure step kernel");
}

void checkWidth(std::uint64_t w) {
  if (w > std::uint64_t{65535} * kWarp * Policy::kMaxPerLane)
    throw BackendError("cuda backend: table too large for transitive_closure");
}

}  // namespace

std::uint64_t closureScratchWords(std::uint64_t n) {
  const std::uint64_t w = (n + 63) / 64;
  return 2 * n + 2 * std::uint64_t{kPivots} * w;
}

void launchTransitiveClosure(const Launch& launch, std::uint64_t* table, std::uint64_t n,
                               std::uint64_t* scratch) {
  if (n == 0) return;
  const std::uint64_t w = (n + 63) / 64;
  checkWidth(w);
  const Scratch s = scratchOf(scratch, n, w);
  closureSnapshotKernel<<<gridFor(launch, std::max<std::uint64_t>(kPivots * w, n)),
                            kBlockThreads, 0, launch.stream>>>(table, n, w, s.panel[0],
                                                               s.column[0], true);
  checkLaunch("closure snapshot kernel");
  StepLaunch step = planPart(launch, n, w, /*overlap=*/true);
  for (std::uint64_t b = 0; b < w; ++b) {
    // Ctrl-C stops the launches (those queued still run): n^3/64 word operations take minutes on
    // the largest tables a GPU holds. The launch queue keeps the host close behind the GPU.
    throwIfInterrupted();
    launchStep(step, table, n, w, 0, b, s);
  }
}

// ---- the closure in parts, one a GPU ------------------------------------------------------------

struct ClosurePart::Plan {
  StepLaunch step;
};

ClosurePart::ClosurePart(const Launch& launch, std::uint64_t* table, std::uint64_t n,
                         std::uint64_t first_element, std::uint64_t elements,
                         std::uint64_t* scratch)
    : launch_(launch), table_(table), n_(n), e0_(first_element), w_(elements),
      scratch_(scratch) {
  checkWidth(w_);
  plan_ = std::make_unique<Plan>();
  // No overlapped launches: the steps alternate with the collective that brings the column.
  if (w_ > 0) plan_->step = planPart(launch_, n_, w_, /*overlap=*/false);
}

ClosurePart::~ClosurePart() = default;

std::uint64_t ClosurePart::scratchWords(std::uint64_t n, std::uint64_t elements) {
  return 2 * n + 2 * std::uint64_t{kPivots} * elements;
}

void ClosurePart::snapshot() {
  const Scratch s = scratchOf(scratch_, n_, w_);
  closureSnapshotKernel<<<gridFor(launch_, std::max<std::uint64_t>(kPivots * w_, n_)),
                            kBlockThreads, 0, launch_.stream>>>(table_, n_, w_, s.panel[0],
                                                                s.column[0], e0_ == 0 && w_ > 0);
  checkLaunch("closure snapshot kernel");
}

void ClosurePart::step(std::uint64_t b) {
  if (w_ == 0) return;
  launchStep(plan_->step, table_, n_, w_, e0_, b, scratchOf(scratch_, n_, w_));
}

std::uint64_t* ClosurePart::column(std::uint64_t b) const {
  return scratchOf(scratch_, n_, w_).column[b % 2];
}

}  // namespace star::cuda
