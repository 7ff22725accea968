// The N-body force kernels. Per pair, in single precision with the special-function unit's
// approximations (rsqrt, lg2, ex2: a few units in the last place):
//   d2 = R.R,   s = c0 r^3 + (c1 r)^c2,   F_i += s R
// General exponents (GeneralPair): L = lg2(d2), r^3 = 2^(-1.5 L), (c1 r)^c2 = 2^(b + h L) with
// b = c2 log2|c1| and h = -c2 / 2 (a sign for negative c1^c2): three special-function operations
// (lg2, ex2, ex2) against about 17 issued instructions per pair. The special-function unit does
// 16 per multiprocessor and clock, a quarter warp: 24 clocks per warp and pair against 17 issue
// slots, so it is the bottleneck (about 1.4e12 pairs/s on an H200). `poly_exp2` takes r^3 of
// every other pair from a degree-5 polynomial on the FMA pipe instead (about 11 more
// instructions): 20 special-function clocks against 22.5 issue slots per pair, which turned out
// a little slower on an H200 (bench/nbody_bench.cu), so it is off by default.
// Integer exponents (IntPair<M>): r = rsqrt(d2), r^3 and r^(M-3) by multiplications,
// s = r^3 (c0 + k r^(M-3)): one special-function operation and about 17 issued instructions per
// pair, so the issue rate bounds it (about 2e12 pairs/s at 100% issue on an H200).
//
// Measured on an H200 at N = 96000 and 262144 (bench/nbody_bench.cu, N^2 pairs per evaluation):
// square loop 1.6e12 pairs/s (c2 = 12) and 1.2e12 (general); triangular loop, the default,
// 2.3e12 and 2.0e12; a plain tiled kernel with fast log2/exp2, 0.9e12.
//
// The self pair (j = i) and the dummies are excluded without a branch per pair: the segments that
// hold dummies (the last of each type) and the tiles that hold the block's own i particles run a
// careful loop with a select of s = 0 for them, so that 1/0 from the self pair never reaches a
// sum (a coincident pair of distinct particles gives NaN, as in double precision); the other
// segments run the plain loop.
//
// Square loop (squareForcesKernel): a block of 64 threads takes kSpan = 256 i slots (4 per
// thread, their positions and coefficient rows in registers) and a split of the j segments; the
// block stages kSpan j positions at a time in shared memory (float4, read as broadcasts) with
// the segments' types, and each thread takes its 4 coefficient sets per segment (segments hold
// one type, NBodyDevice.h). Sums run in float within a tile and in double across tiles (so that
// the large partial sums of one sign, a type's monopole, do not eat the float precision), and
// each split writes its partial force in double; the update or gather kernel adds the partials.
// Splits: enough blocks to fill the GPU evenly, but few enough that the partial sums stay cheap.
//
// Triangular loop (triangularForcesKernel, Newton's third law; the default where it applies):
// half the pairs for 6 more instructions per pair (the force on j, and 6 shuffles per 4 pairs),
// 1.4x faster than the square loop on an H200. Items are pairs (i group of 4 segments, j segment b)
// with b at or after the group's first segment; each warp takes a contiguous run of items in row
// order. A lane holds 4 i particles and one travelling j particle (position and the force on
// it); 32 steps each compute 4 pairs per lane and pass the j data one lane down by shuffles, so
// that every lane meets every j of the segment. Forces on i stay in registers (float per item,
// double across items) until the group changes; forces on j go to d.force by double atomics once
// per item. Pairs inside one segment are taken once (steps 1 to 16, the 16th by half the lanes).
// Dummies are not masked here: with far-away dummies their forces vanish when c2 >= 2, and the plan
// takes the square loop otherwise (and for asymmetric coefficients, which the third law does not
// hold for).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/kernels/NBodyForces.h"
#include "runtime-cuda/kernels/Tuning.h"
#include "runtime-cuda/kernels/Warp.h"

namespace star::cuda::nbody {
namespace {

using Policy = NBodyPolicy;  // the two loops' blocks (Tuning.h)
constexpr unsigned kPerThread = kSpan / Policy::kSquareThreads;  // i particles per thread (square)
constexpr unsigned kTileSegments = kSpan / kSegment;
constexpr unsigned kGroup = 4;  // i segments per triangular item (i particles per lane)
static_assert(kSegment == kWarp, "a segment is what a warp's lanes hold");

// ---- single-precision building blocks --------------------------------------------------------

__device__ __forceinline__ float rsqrtApprox(float x) {
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float lg2Approx(float x) {
  float y;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float ex2Approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// 2^a on the FMA pipe: a = n + f with n = round(a) (by the 1.5 * 2^23 trick), 2^f by a degree-5
// fit on [-0.5, 0.5] (relative error 8e-8), and n added to the exponent field. a is clamped at
// -126 (where it matters, r^3 of a dummy, the result is about 1e-38 instead of 0); a > 127 gives
// garbage, which only the excluded self pair reaches.
__device__ __forceinline__ float exp2Poly(float a) {
  a = fmaxf(a, -126.0f);
  const float t = __fadd_rn(a, 12582912.0f);
  const float f = __fsub_rn(a, __fsub_rn(t, 12582912.0f));
  float p = 1.3276375e-3f;
  p = fmaf(p, f, 9.6755333e-3f);
  p = fmaf(p, f, 5.5507135e-2f);
  p = fmaf(p, f, 2.4022120e-1f);
  p = fmaf(p, f, 6.9314697e-1f);
  p = fmaf(p, f, 1.0000001f);
  return __int_as_float(__float_as_int(p) + (__float_as_int(t) << 23));
}

// r^E from r, r^2 and r^3 with few multiplications (E = 9: r^6 r^3; E = 12: (r^6)^2).
template <int E>
__device__ __forceinline__ float rpow(float r, float r2, float r3) {
  if constexpr (E == 0) {
    return 1.0f;
  } else if constexpr (E == 1) {
    return r;
  } else if constexpr (E == 2) {
    return r2;
  } else if constexpr (E == 3) {
    return r3;
  } else if constexpr (E % 2 == 0) {
    const float h = rpow<E / 2>(r, r2, r3);
    return h * h;
  } else {
    return rpow<E - 3>(r, r2, r3) * r3;
  }
}

// s(d2) for coefficients c = (c0, b, h, sign) (NBodyDevice.h, DeviceSystem::coef).
template <bool kSigned>
struct GeneralPair {
  static constexpr bool kHasPoly = true;
  template <bool kPoly>
  __device__ __forceinline__ static float scalar(float d2, const float4& c) {
    const float lg = lg2Approx(d2);
    const float a = -1.5f * lg;
    const float r3 = kPoly ? exp2Poly(a) : ex2Approx(a);
    const float rep = ex2Approx(fmaf(c.z, lg, c.y));
    return kSigned ? fmaf(c.w, rep, c.x * r3) : fmaf(c.x, r3, rep);
  }
};

// s(d2) for coefficients c = (c0, k = c1^M) (DeviceSystem::coef_int).
template <int M>
struct IntPair {
  static constexpr bool kHasPoly = false;
  template <bool kPoly>
  __device__ __forceinline__ static float scalar(float d2, const float4& c) {
    const float r = rsqrtApprox(d2);
    const float r2 = r * r;
    const float r3 = r2 * r;
    if constexpr (M >= 3) {
      return r3 * fmaf(c.y, rpow<M - 3>(r, r2, r3), c.x);
    } else {
      return fmaf(c.y, rpow<M>(r, r2, r3), c.x * r3);
    }
  }
};

struct ForceArgs {
  const float4* pos;
  const std::uint32_t* seg_type;
  const std::uint32_t* seg_count;
  const float4* coef;
  double* force;  // [partial][3][capacity]
  std::uint32_t slots, capacity, ntypes;
  unsigned long long items;  // triangular: the number of items
  // triangular: this launch's items, [item_begin, item_end) of them (a part of the evaluation
  // when several GPUs share it; all of them otherwise)
  unsigned long long item_begin, item_end;
};

// ---- square loop ---------------------------------------------------------------------------

struct ISet {  // a thread's i particles
  float x[kPerThread], y[kPerThread], z[kPerThread];
  float ax[kPerThread], ay[kPerThread], az[kPerThread];  // this tile's force, float
  std::uint32_t row[kPerThread];                         // type * ntypes
};

// One j particle against the thread's i particles. kCareful: the pair counts only if j is a
// real particle (jj < count) and not i itself; a select, so that what the dummies or the self
// pair compute (inf, NaN) never reaches a sum.
template <class Pair, bool kPoly, bool kCareful>
__device__ __forceinline__ void squarePair(ISet& s, const float4 (&c)[kPerThread], float4 q,
                                            std::uint32_t j, std::uint32_t i0, bool real_j) {
#pragma unroll
  for (unsigned p = 0; p < kPerThread; ++p) {
    const float dx = s.x[p] - q.x, dy = s.y[p] - q.y, dz = s.z[p] - q.z;
    const float d2 = fmaf(dz, dz, fmaf(dy, dy, dx * dx));
    float f = Pair::template scalar<kPoly>(d2, c[p]);
    if constexpr (kCareful) f = real_j && j != i0 + p * Policy::kSquareThreads ? f : 0.0f;
    s.ax[p] = fmaf(dx, f, s.ax[p]);
    s.ay[p] = fmaf(dy, f, s.ay[p]);
    s.az[p] = fmaf(dz, f, s.az[p]);
  }
}

// One segment (32 j particles, the first `count` real, j the first's slot).
template <class Pair, bool kPoly, bool kCareful>
__device__ __forceinline__ void squareSegment(ISet& s, const float4 (&c)[kPerThread],
                                               const float4* seg, std::uint32_t j, std::uint32_t i0,
                                               unsigned count) {
#pragma unroll 4
  for (unsigned k = 0; k < kSegment; k += 2) {
    squarePair<Pair, false, kCareful>(s, c, seg[k], j + k, i0, k < count);
    squarePair<Pair, kPoly, kCareful>(s, c, seg[k + 1], j + k + 1, i0, k + 1 < count);
  }
}

// The segments of one staged tile against the thread's i particles; the careful loop only for a
// segment with dummies (the last of a type) or in a tile that holds the block's own i.
template <class Pair, bool kPoly>
__device__ __forceinline__ void squareTile(ISet& s, const float4* tile,
                                            const std::uint32_t* tile_type,
                                            const std::uint32_t* tile_count, unsigned segments,
                                            const float4* __restrict__ coef, std::uint32_t j0,
                                            std::uint32_t i0, bool self) {
  for (unsigned g = 0; g < segments; ++g) {
    float4 c[kPerThread];
#pragma unroll
    for (unsigned p = 0; p < kPerThread; ++p) c[p] = __ldg(coef + s.row[p] + tile_type[g]);
    const float4* seg = tile + g * kSegment;
    const std::uint32_t j = j0 + g * kSegment;
    const unsigned count = tile_count[g];
    if (self || count < kSegment) {
      squareSegment<Pair, kPoly, true>(s, c, seg, j, i0, count);
    } else {
      squareSegment<Pair, kPoly, false>(s, c, seg, j, i0, count);
    }
  }
}

template <class Pair, bool kPoly>
__global__ void __launch_bounds__(Policy::kSquareThreads, Policy::kSquareBlocksPerSm)
    squareForcesKernel(ForceArgs a) {
  __shared__ float4 tile[kSpan];
  __shared__ std::uint32_t tile_type[kTileSegments], tile_count[kTileSegments];
  const std::uint32_t ibase = blockIdx.x * kSpan;
  const std::uint32_t i0 = ibase + threadIdx.x;
  ISet s;
  double fx[kPerThread], fy[kPerThread], fz[kPerThread];
#pragma unroll
  for (unsigned p = 0; p < kPerThread; ++p) {
    const std::uint32_t i = i0 + p * Policy::kSquareThreads;
    const float4 q = a.pos[i];
    s.x[p] = q.x;
    s.y[p] = q.y;
    s.z[p] = q.z;
    s.row[p] = (i < a.slots ? a.seg_type[i / kSegment] : 0u) * a.ntypes;
    fx[p] = fy[p] = fz[p] = 0.0;
  }
  const std::uint32_t nseg = a.slots / kSegment;
  const auto seg_begin = static_cast<std::uint32_t>(std::uint64_t{nseg} * blockIdx.y / gridDim.y);
  const auto seg_end =
      static_cast<std::uint32_t>(std::uint64_t{nseg} * (blockIdx.y + 1) / gridDim.y);
  for (std::uint32_t seg = seg_begin; seg < seg_end; seg += kTileSegments) {
    const unsigned segments = min(kTileSegments, static_cast<unsigned>(seg_end - seg));
    const std::uint32_t j0 = seg * kSegment;
    __syncthreads();  // the previous tile is done
    for (unsigned k = threadIdx.x; k < segments * kSegment; k += Policy::kSquareThreads)
      tile[k] = a.pos[j0 + k];
    if (threadIdx.x < segments) {
      tile_type[threadIdx.x] = a.seg_type[seg + threadIdx.x];
      tile_count[threadIdx.x] = a.seg_count[seg + threadIdx.x];
    }
    __syncthreads();
#pragma unroll
    for (unsigned p = 0; p < kPerThread; ++p) s.ax[p] = s.ay[p] = s.az[p] = 0.0f;
    const bool self = j0 < ibase + kSpan && j0 + segments * kSegment > ibase;
    squareTile<Pair, kPoly>(s, tile, tile_type, tile_count, segments, a.coef, j0, i0, self);
#pragma unroll
    for (unsigned p = 0; p < kPerThread; ++p) {
      fx[p] += s.ax[p];
      fy[p] += s.ay[p];
      fz[p] += s.az[p];
    }
  }
  double* out = a.force + std::size_t{blockIdx.y} * 3 * a.capacity;
#pragma unroll
  for (unsigned p = 0; p < kPerThread; ++p) {
    const std::uint32_t i = i0 + p * Policy::kSquareThreads;
    out[i] = fx[p];
    out[a.capacity + i] = fy[p];
    out[2 * std::size_t{a.capacity} + i] = fz[p];
  }
}

// ---- triangular loop -----------------------------------------------------------------------

// Which pairs of (i segment, j segment) an item computes for one of its i segments.
enum : unsigned { kSkip = 0, kAll = 1, kHalf = 2 };

struct TriLane {
  float x[kGroup], y[kGroup], z[kGroup];
  float ax[kGroup], ay[kGroup], az[kGroup];   // this item's force on the i particles
  double fx[kGroup], fy[kGroup], fz[kGroup];  // this group's, so far
  std::uint32_t row[kGroup];
  float xj, yj, zj, bx, by, bz;  // the travelling j particle and the force on it
};

// Step k of an item: lane l meets j particle (l + k) mod 32 of the segment. kMasked: some i
// segment is not kAll (mode per segment).
template <class Pair, bool kPoly, bool kMasked>
__device__ __forceinline__ void triStep(TriLane& t, const float4 (&c)[kGroup],
                                         const unsigned (&mode)[kGroup], unsigned k,
                                         unsigned lane) {
#pragma unroll
  for (unsigned p = 0; p < kGroup; ++p) {
    const float dx = t.x[p] - t.xj, dy = t.y[p] - t.yj, dz = t.z[p] - t.zj;
    const float d2 = fmaf(dz, dz, fmaf(dy, dy, dx * dx));
    float f = Pair::template scalar<kPoly>(d2, c[p]);
    if constexpr (kMasked) {
      const bool on =
          mode[p] == kAll || (mode[p] == kHalf && ((k >= 1 && k < 16) || (k == 16 && lane < 16)));
      f = on ? f : 0.0f;
    }
    const float gx = dx * f, gy = dy * f, gz = dz * f;
    t.ax[p] += gx;
    t.ay[p] += gy;
    t.az[p] += gz;
    t.bx -= gx;
    t.by -= gy;
    t.bz -= gz;
  }
  const int next = static_cast<int>((lane + 1) % kWarp);
  t.xj = __shfl_sync(kFullMask, t.xj, next);
  t.yj = __shfl_sync(kFullMask, t.yj, next);
  t.zj = __shfl_sync(kFullMask, t.zj, next);
  t.bx = __shfl_sync(kFullMask, t.bx, next);
  t.by = __shfl_sync(kFullMask, t.by, next);
  t.bz = __shfl_sync(kFullMask, t.bz, next);
}

template <class Pair, bool kPoly, bool kMasked>
__device__ __forceinline__ void triItem(TriLane& t, const float4 (&c)[kGroup],
                                         const unsigned (&mode)[kGroup], unsigned lane) {
#pragma unroll 2
  for (unsigned k = 0; k < kWarp; k += 2) {
    triStep<Pair, false, kMasked>(t, c, mode, k, lane);
    triStep<Pair, kPoly, kMasked>(t, c, mode, k + 1, lane);
  }
}

__device__ __forceinline__ void triFlush(TriLane& t, const ForceArgs& a, std::uint32_t group,
                                          std::uint32_t nseg, unsigned lane) {
#pragma unroll
  for (unsigned p = 0; p < kGroup; ++p) {
    if (group * kGroup + p >= nseg) continue;
    const std::uint32_t i = (group * kGroup + p) * kSegment + lane;
    atomicAdd(a.force + i, t.fx[p]);
    atomicAdd(a.force + a.capacity + i, t.fy[p]);
    atomicAdd(a.force + 2 * std::size_t{a.capacity} + i, t.fz[p]);
    t.fx[p] = t.fy[p] = t.fz[p] = 0.0;
  }
}

__device__ __forceinline__ void triLoadGroup(TriLane& t, const ForceArgs& a, std::uint32_t group,
                                               std::uint32_t nseg, unsigned lane) {
#pragma unroll
  for (unsigned p = 0; p < kGroup; ++p) {
    const std::uint32_t seg = group * kGroup + p;
    const std::uint32_t at = min(seg, nseg - 1);  // a segment past the end is skipped
    const float4 q = a.pos[at * kSegment + lane];
    t.x[p] = q.x;
    t.y[p] = q.y;
    t.z[p] = q.z;
    t.row[p] = a.seg_type[at] * a.ntypes;
  }
}

template <class Pair, bool kPoly>
__global__ void __launch_bounds__(Policy::kTriThreads, Policy::kTriBlocksPerSm)
    triangularForcesKernel(ForceArgs a) {
  const unsigned lane = threadIdx.x % kWarp;
  const std::uint64_t warp =
      (std::uint64_t{blockIdx.x} * Policy::kTriThreads + threadIdx.x) / kWarp;
  const std::uint64_t warps = std::uint64_t{gridDim.x} * Policy::kTriThreads / kWarp;
  const std::uint64_t span = a.item_end - a.item_begin;
  std::uint64_t item = a.item_begin + span * warp / warps;
  const std::uint64_t end = a.item_begin + span * (warp + 1) / warps;
  if (item >= end) return;
  const std::uint32_t nseg = a.slots / kSegment;

  // The first item's (group, b): group g has the items b = kGroup g .. nseg - 1.
  std::uint32_t group = 0;
  std::uint64_t rest = item;
  while (rest >= nseg - kGroup * group) {
    rest -= nseg - kGroup * group;
    ++group;
  }
  std::uint32_t b = kGroup * group + static_cast<std::uint32_t>(rest);

  TriLane t;
#pragma unroll
  for (unsigned p = 0; p < kGroup; ++p) t.fx[p] = t.fy[p] = t.fz[p] = 0.0;
  triLoadGroup(t, a, group, nseg, lane);
  for (;;) {
    const float4 q = a.pos[b * kSegment + lane];
    t.xj = q.x;
    t.yj = q.y;
    t.zj = q.z;
    t.bx = t.by = t.bz = 0.0f;
    const std::uint32_t tb = a.seg_type[b];
    float4 c[kGroup];
    unsigned mode[kGroup];
#pragma unroll
    for (unsigned p = 0; p < kGroup; ++p) {
      c[p] = __ldg(a.coef + t.row[p] + tb);
      const std::uint32_t seg = group * kGroup + p;
      mode[p] = seg >= nseg || seg > b ? kSkip : (seg == b ? kHalf : kAll);
      t.ax[p] = t.ay[p] = t.az[p] = 0.0f;
    }
    if (b >= kGroup * group + kGroup) {
      triItem<Pair, kPoly, false>(t, c, mode, lane);
    } else {
      triItem<Pair, kPoly, true>(t, c, mode, lane);
    }
    // 32 steps: the j data is back in its own lane.
    const std::uint32_t j = b * kSegment + lane;
    atomicAdd(a.force + j, static_cast<double>(t.bx));
    atomicAdd(a.force + a.capacity + j, static_cast<double>(t.by));
    atomicAdd(a.force + 2 * std::size_t{a.capacity} + j, static_cast<double>(t.bz));
#pragma unroll
    for (unsigned p = 0; p < kGroup; ++p) {
      t.fx[p] += t.ax[p];
      t.fy[p] += t.ay[p];
      t.fz[p] += t.az[p];
    }
    if (++item == end) break;
    if (++b == nseg) {
      triFlush(t, a, group, nseg, lane);
      ++group;
      b = kGroup * group;
      triLoadGroup(t, a, group, nseg, lane);
    }
  }
  triFlush(t, a, group, nseg, lane);
}

// ---- host side -----------------------------------------------------------------------------

// Calls f(Pair{}) with the pair type of the plan.
template <class F>
void withPair(const ForcePlan& plan, F&& f) {
  switch (plan.exponent) {
    case 6:
      f(IntPair<6>{});
      break;
    case 8:
      f(IntPair<8>{});
      break;
    case 9:
      f(IntPair<9>{});
      break;
    case 10:
      f(IntPair<10>{});
      break;
    case 12:
      f(IntPair<12>{});
      break;
    default:
      if (plan.signed_rep) {
        f(GeneralPair<true>{});
      } else {
        f(GeneralPair<false>{});
      }
  }
}

// The kernel of the plan, as a function pointer.
template <class Pair>
const void* kernelOf(const ForcePlan& plan) {
  const bool poly = Pair::kHasPoly && plan.poly_exp2;
  if (plan.loop == PairLoop::Square) {
    return poly ? reinterpret_cast<const void*>(squareForcesKernel<Pair, Pair::kHasPoly>)
                : reinterpret_cast<const void*>(squareForcesKernel<Pair, false>);
  }
  return poly ? reinterpret_cast<const void*>(triangularForcesKernel<Pair, Pair::kHasPoly>)
              : reinterpret_cast<const void*>(triangularForcesKernel<Pair, false>);
}

// Splits of the j range for the square loop: the least modelled time for a wave-quantised grid
// of blocks_x * splits blocks, `resident` at a time, plus writing and reading the partial sums.
unsigned chooseSplits(std::size_t capacity, std::size_t slots, std::size_t resident) {
  constexpr double kPairsPerSecond = 2e12, kBytesPerSecond = 3e12;
  const std::size_t blocks_x = capacity / kSpan, nseg = slots / kSegment;
  const std::size_t max_splits = std::clamp<std::size_t>(nseg / 2, 1, 1024);
  unsigned best = 1;
  double best_time = INFINITY;
  for (std::size_t s = 1; s <= max_splits; ++s) {
    const double waves = std::ceil(static_cast<double>(blocks_x * s) / resident);
    const double compute = waves * static_cast<double>(resident) * kSpan *
                           (static_cast<double>(slots) / s) / kPairsPerSecond;
    const double partials = static_cast<double>(s) * capacity * 48.0 / kBytesPerSecond;
    if (compute + partials < best_time) {
      best_time = compute + partials;
      best = static_cast<unsigned>(s);
    }
  }
  return best;
}

}  // namespace

ForcePlan planForces(DeviceContext& ctx, DeviceSystem& d, const ForceOptions& options) {
  ForcePlan plan;
  // The triangular loop applies the force on i negated to j and lets the dummies in: it needs
  // symmetric coefficients and forces that vanish far away; otherwise the square loop runs.
  const bool triangular_ok = d.potential.symmetric && d.potential.min_c2 >= 2.0;
  plan.loop = options.loop == PairLoop::Triangular && triangular_ok ? PairLoop::Triangular
                                                                    : PairLoop::Square;
  plan.exponent = options.general ? 0 : d.potential.exponent;
  plan.signed_rep = d.potential.signed_rep;
  plan.poly_exp2 = options.poly_exp2 && plan.exponent == 0;

  int device = 0, sms = 1, per_sm = 1;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
        "cudaDeviceGetAttribute");
  const void* kernel = nullptr;
  withPair(plan, [&](auto pair) { kernel = kernelOf<decltype(pair)>(plan); });
  const int threads = plan.loop == PairLoop::Square ? Policy::kSquareThreads : Policy::kTriThreads;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  const std::size_t resident = static_cast<std::size_t>(std::max(per_sm, 1)) * sms;

  if (plan.loop == PairLoop::Square) {
    plan.grid_x = static_cast<unsigned>(d.capacity / kSpan);
    plan.grid_y = d.slots == 0 ? 1 : chooseSplits(d.capacity, d.slots, resident);
    plan.partials = plan.grid_y;
  } else {
    plan.grid_x = static_cast<unsigned>(resident);  // one wave; items are split evenly
    plan.grid_y = 1;
    plan.partials = 1;
  }
  if (d.force_partials < plan.partials) {
    ctx.release(reinterpret_cast<std::uint64_t*>(d.force));
    d.force = nullptr;
    d.force_partials = 0;
    d.force = reinterpret_cast<double*>(ctx.allocate(plan.partials * 3 * d.capacity));
    d.force_partials = plan.partials;
  }
  return plan;
}

void launchForces(const Launch& launch, const DeviceSystem& d, const ForcePlan& plan, unsigned part,
                  unsigned parts) {
  ForceArgs a{};
  a.pos = d.pos;
  a.seg_type = d.seg_type;
  a.seg_count = d.seg_count;
  a.coef = plan.exponent > 0 ? d.coef_int : d.coef;
  a.force = d.force;
  a.slots = static_cast<std::uint32_t>(d.slots);
  a.capacity = static_cast<std::uint32_t>(d.capacity);
  a.ntypes = d.ntypes;
  if (plan.loop == PairLoop::Square) {
    if (d.slots == 0) {
      check(cudaMemsetAsync(d.force, 0, 3 * d.capacity * sizeof(double), launch.stream),
            "cudaMemsetAsync (nbody forces)");
      return;
    }
    const dim3 grid(plan.grid_x, plan.grid_y);
    withPair(plan, [&](auto pair) {
      using Pair = decltype(pair);
      if (Pair::kHasPoly && plan.poly_exp2) {
        squareForcesKernel<Pair, Pair::kHasPoly>
            <<<grid, Policy::kSquareThreads, 0, launch.stream>>>(a);
      } else {
        squareForcesKernel<Pair, false><<<grid, Policy::kSquareThreads, 0, launch.stream>>>(a);
      }
    });
    checkLaunch("nbody square_forces_kernel");
    return;
  }
  check(cudaMemsetAsync(d.force, 0, 3 * d.capacity * sizeof(double), launch.stream),
        "cudaMemsetAsync (nbody forces)");
  const std::uint64_t nseg = d.slots / kSegment;
  const std::uint64_t groups = (nseg + kGroup - 1) / kGroup;
  a.items = groups * nseg - kGroup * groups * (groups - 1) / 2;
  a.item_begin = a.items * part / parts;
  a.item_end = a.items * (part + 1) / parts;
  if (a.item_end == a.item_begin) return;
  withPair(plan, [&](auto pair) {
    using Pair = decltype(pair);
    if (Pair::kHasPoly && plan.poly_exp2) {
      triangularForcesKernel<Pair, Pair::kHasPoly>
          <<<plan.grid_x, Policy::kTriThreads, 0, launch.stream>>>(a);
    } else {
      triangularForcesKernel<Pair, false>
          <<<plan.grid_x, Policy::kTriThreads, 0, launch.stream>>>(a);
    }
  });
  checkLaunch("nbody triangular_forces_kernel");
}

}  // namespace star::cuda::nbody
