// The kernels of the large row sort (RowSort.cu describes the steps) that a sort split across GPUs
// (SortShard.cu) runs too: the record view of a table, step 1's count, step 2's extraction and
// step 4's write-back, and the launch helpers. Included only by those two files.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/kernels/DeviceLoops.cuh"
#include "runtime-cuda/kernels/SortBits.h"
#include "runtime-cuda/kernels/SortScratch.h"
#include "runtime-cuda/kernels/Tuning.h"
#include "runtime-cuda/kernels/Warp.h"

namespace star::cuda {
namespace {

using Policy = SortPolicy::Rows;                  // blocks of extract and write_back (Tuning.h)
constexpr unsigned kRowsPerWarp = kWarp * kWarp;  // a warp's step: 32 words of 32 rows
// A warp's records in shared memory, one pad element after every 32: lane l's run of records
// then starts in bank l, so the lanes' staggered reads and writes of their runs do not collide.
constexpr unsigned kStageSlots = kRowsPerWarp + kRowsPerWarp / kWarp;
constexpr std::uint64_t kLow32 = 0xFFFFFFFFu;

// The table as the kernels of this file see it: 32-bit words (little-endian halves of the
// 64-bit elements, so word q holds rows 32 q .. 32 q + 31 of a column).
struct TableView {
  std::uint32_t* table;  // column c starts at c * words
  std::uint64_t words;   // 32-bit words per column: 2 * ceil(rows / 64)
  std::uint64_t rows, cols, first, len;
  const std::uint32_t* x;       // the control slice, words 32-bit words
  const std::uint64_t* prefix;  // step 1 per 64-bit element; prefix[words / 2] = the totals
  KeyOrder order;
};

// How the columns outside the key travel: `tiles` 32-column tiles, in the value (index false:
// one tile in a 32-bit value, two in a 64-bit one) or in a row-major array indexed by the
// record's index, which is then the value.
struct Payload {
  unsigned tiles;
  bool index;
};

// A lane's 32 rows and the warp's records.
struct WarpRows {
  std::uint64_t q;       // this lane's word
  bool valid;            // q < words
  std::uint32_t marked;  // its rows in x
  std::uint64_t base;    // the record index of its first marked row
  std::uint64_t k0;      // of the warp's first marked row
  std::uint32_t count;   // the warp's marked rows
};

__device__ __forceinline__ WarpRows warpRows(const TableView& v, std::uint64_t q0, unsigned lane) {
  WarpRows w;
  w.q = q0 + lane;
  w.valid = w.q < v.words;
  const std::uint64_t q = min64(w.q, v.words);
  w.marked = w.valid ? v.x[q] : 0;
  w.base = (v.prefix[q / 2] & kLow32) + ((q & 1) ? __popc(v.x[q - 1]) : 0);
  w.k0 = __shfl_sync(kFullMask, static_cast<unsigned long long>(w.base), 0);
  const std::uint64_t end =
      __shfl_sync(kFullMask, static_cast<unsigned long long>(w.base + __popc(w.marked)), kWarp - 1);
  w.count = static_cast<std::uint32_t>(end - w.k0);
  return w;
}

__device__ __forceinline__ unsigned slot(unsigned e) {
  return e + e / kWarp;
}

// a[c] := the lane's word of logical column start + c, for c < count; 0 otherwise.
__device__ __forceinline__ void loadTile(const TableView& v, std::uint64_t start,
                                          std::uint64_t count, const WarpRows& w,
                                          std::uint32_t (&a)[32]) {
  STAR_SORT_UNROLL
  for (unsigned c = 0; c < 32; ++c) {
    a[c] = w.marked != 0 && c < count
               ? v.table[physicalColumn(start + c, v.first, v.len) * v.words + w.q]
               : 0;
  }
}

// The lane's word of logical column start + c := a[c] in its marked rows, for c < count.
__device__ __forceinline__ void storeTile(const TableView& v, std::uint64_t start,
                                           std::uint64_t count, const WarpRows& w,
                                           const std::uint32_t (&a)[32]) {
  STAR_SORT_UNROLL
  for (unsigned c = 0; c < 32; ++c) {
    if (w.marked == 0 || c >= count) continue;
    std::uint32_t* p = &v.table[physicalColumn(start + c, v.first, v.len) * v.words + w.q];
    *p = w.marked == kFullMask ? a[c] : (*p & ~w.marked) | (a[c] & w.marked);
  }
}

// Logical columns of tile t of the payload (after the key's len).
__device__ __forceinline__ std::uint64_t payloadColumns(const TableView& v, unsigned t) {
  const std::uint64_t start = v.len + 32ull * t;
  return start < v.cols ? min64(32, v.cols - start) : 0;
}

// Step 1: counts[e] := popcount(x[e]) | popcount(heads[e]) << 32 (row 0 always a head), and
// counts[elements] := 0, so that the exclusive scan leaves the totals there.
__global__ void countKernel(const std::uint64_t* __restrict__ x,
                             const std::uint64_t* __restrict__ heads, std::uint64_t elements,
                             std::uint64_t* __restrict__ counts) {
  for (std::uint64_t e = globalThread(); e <= elements; e += gridThreads()) {
    if (e == elements) {
      counts[e] = 0;
      continue;
    }
    const std::uint64_t h = (heads != nullptr ? heads[e] : 0) | (e == 0 ? 1 : 0);
    counts[e] = static_cast<std::uint64_t>(__popcll(x[e])) |
                (static_cast<std::uint64_t>(__popcll(h)) << 32);
  }
}

// stage[slot(e)] := records[k0 + e] for the warp's `count` records; the loads go out together.
// (In two halves for 64-bit records, to bound the registers.)
template <class T>
__device__ __forceinline__ void stageIn(T* stage, const T* __restrict__ records, std::uint64_t k0,
                                         unsigned count, unsigned lane) {
  constexpr unsigned kBatch = sizeof(T) == 8 ? kWarp / 2 : kWarp;
  for (unsigned j0 = 0; j0 < kWarp; j0 += kBatch) {
    T r[kBatch];
    STAR_SORT_UNROLL
    for (unsigned j = 0; j < kBatch; ++j) {
      const unsigned e = lane + (j0 + j) * kWarp;
      r[j] = e < count ? records[k0 + e] : T{0};
    }
    STAR_SORT_UNROLL
    for (unsigned j = 0; j < kBatch; ++j) {
      const unsigned e = lane + (j0 + j) * kWarp;
      if (e < count) stage[slot(e)] = r[j];
    }
  }
  __syncwarp();
}

// records[k0 + e] := stage[slot(e)] for the warp's `count` records.
template <class T>
__device__ __forceinline__ void stageOut(const T* stage, T* __restrict__ records, std::uint64_t k0,
                                          unsigned count, unsigned lane) {
  __syncwarp();
  for (unsigned e = lane; e < count; e += kWarp) records[k0 + e] = stage[slot(e)];
  __syncwarp();
}

// Step 2 (see the top of the file). keys/values: `rows` records; rows_out: index payloads.
// One 32-column tile at a time (a 64-bit key or value is staged in two passes), so that the
// kernel stays within its registers.
template <class K, class V>
__global__ void __launch_bounds__(Policy::kTileThreads, Policy::kTileBlocksPerSm)
    extractKernel(TableView v, Payload payload, bool fill, K* __restrict__ keys,
                   V* __restrict__ values, std::uint32_t* __restrict__ rows_out) {
  __shared__ std::uint64_t stage[Policy::kTileWarps][kStageSlots];
  const unsigned lane = threadIdx.x % kWarp;
  const unsigned warp = threadIdx.x / kWarp;
  const std::uint64_t marked_total = v.prefix[v.words / 2] & kLow32;
  for (std::uint64_t q0 = (std::uint64_t{blockIdx.x} * Policy::kTileWarps + warp) * kWarp;
       q0 < v.words; q0 += std::uint64_t{gridDim.x} * Policy::kTileWarps * kWarp) {
    const WarpRows w = warpRows(v, q0, lane);
    if (fill) {  // the unmarked rows' records: greatest key, after all marked records
      const std::uint64_t r0 = q0 * 32;
      const std::uint64_t real = r0 < v.rows ? min64(kRowsPerWarp, v.rows - r0) : 0;
      const std::uint64_t at = marked_total + (r0 - w.k0);
      for (std::uint64_t e = lane; e < real - w.count; e += kWarp) {
        keys[at + e] = static_cast<K>(v.order.mask);
        if (values != nullptr) values[at + e] = V{0};
      }
    }
    if (w.count == 0) continue;
    const unsigned at0 = static_cast<unsigned>(w.base - w.k0);
    std::uint32_t a[32];

    // Keys (a 64-bit one: the low tile's bits first, then the key).
    K* sk = reinterpret_cast<K*>(stage[warp]);
    loadTile(v, 0, min64(v.len, 32), w, a);
    transpose32(a);
    unsigned at = at0;
    STAR_SORT_UNROLL
    for (unsigned i = 0; i < 32; ++i) {
      if (!((w.marked >> i) & 1)) continue;
      sk[slot(at++)] = sizeof(K) == 8
                           ? static_cast<K>(a[i])
                           : static_cast<K>(toOrder(keyFromTiles(a[i], 0, v.len), v.order));
    }
    if constexpr (sizeof(K) == 8) {
      loadTile(v, 32, v.len - 32, w, a);
      transpose32(a);
      at = at0;
      STAR_SORT_UNROLL
      for (unsigned i = 0; i < 32; ++i) {
        if (!((w.marked >> i) & 1)) continue;
        K& k = sk[slot(at++)];
        k = toOrder(keyFromTiles(static_cast<std::uint32_t>(k), a[i], v.len), v.order);
      }
    }
    stageOut(sk, keys, w.k0, w.count, lane);

    // Values.
    if (payload.index) {
      for (unsigned e = lane; e < w.count; e += kWarp) values[w.k0 + e] = static_cast<V>(w.k0 + e);
      std::uint32_t* su = reinterpret_cast<std::uint32_t*>(stage[warp]);
      for (unsigned t = 0; t < payload.tiles; ++t) {
        loadTile(v, v.len + 32ull * t, payloadColumns(v, t), w, a);
        transpose32(a);
        at = at0;
        STAR_SORT_UNROLL
        for (unsigned i = 0; i < 32; ++i) {
          if ((w.marked >> i) & 1) su[slot(at++)] = a[i];
        }
        __syncwarp();
        for (unsigned e = lane; e < w.count; e += kWarp) {
          rows_out[(w.k0 + e) * payload.tiles + t] = su[slot(e)];
        }
        __syncwarp();
      }
    } else if (values != nullptr) {
      V* sv = reinterpret_cast<V*>(stage[warp]);
      if (payload.tiles > 0) {
        loadTile(v, v.len, payloadColumns(v, 0), w, a);
        transpose32(a);
      }
      at = at0;
      STAR_SORT_UNROLL
      for (unsigned i = 0; i < 32; ++i) {
        if ((w.marked >> i) & 1) sv[slot(at++)] = payload.tiles > 0 ? a[i] : 0;
      }
      if constexpr (sizeof(V) == 8) {
        loadTile(v, v.len + 32, payloadColumns(v, 1), w, a);
        transpose32(a);
        at = at0;
        STAR_SORT_UNROLL
        for (unsigned i = 0; i < 32; ++i) {
          if ((w.marked >> i) & 1) sv[slot(at++)] |= static_cast<V>(a[i]) << 32;
        }
      }
      stageOut(sv, values, w.k0, w.count, lane);
    }
  }
}

// Step 4 (see the top of the file): keys/values are the sorted records. One tile at a time.
template <class K, class V>
__global__ void __launch_bounds__(Policy::kTileThreads, Policy::kTileBlocksPerSm)
    writeBackKernel(TableView v, Payload payload, const K* __restrict__ keys,
                      const V* __restrict__ values, const std::uint32_t* __restrict__ rows_in) {
  __shared__ std::uint64_t stage[Policy::kTileWarps][kStageSlots];
  // A 32-bit key and a 32-bit value are staged together (their loads go out together).
  constexpr bool kTogether = sizeof(K) + sizeof(V) <= sizeof(std::uint64_t);
  const unsigned lane = threadIdx.x % kWarp;
  const unsigned warp = threadIdx.x / kWarp;
  for (std::uint64_t q0 = (std::uint64_t{blockIdx.x} * Policy::kTileWarps + warp) * kWarp;
       q0 < v.words; q0 += std::uint64_t{gridDim.x} * Policy::kTileWarps * kWarp) {
    __syncwarp();  // the last step's staging has been read
    const WarpRows w = warpRows(v, q0, lane);
    if (w.count == 0) continue;
    const unsigned at0 = static_cast<unsigned>(w.base - w.k0);
    K* sk = reinterpret_cast<K*>(stage[warp]);
    V* sv = reinterpret_cast<V*>(kTogether ? reinterpret_cast<K*>(stage[warp]) + kStageSlots
                                           : reinterpret_cast<K*>(stage[warp]));
    const bool values_too = kTogether && !payload.index && payload.tiles > 0;
    std::uint32_t a[32];

    // Key columns.
    if (values_too) {
      K rk[kWarp];
      V rv[kWarp];
      STAR_SORT_UNROLL
      for (unsigned j = 0; j < kWarp; ++j) {
        const unsigned e = lane + j * kWarp;
        rk[j] = e < w.count ? keys[w.k0 + e] : K{0};
        rv[j] = e < w.count ? values[w.k0 + e] : V{0};
      }
      STAR_SORT_UNROLL
      for (unsigned j = 0; j < kWarp; ++j) {
        const unsigned e = lane + j * kWarp;
        if (e < w.count) {
          sk[slot(e)] = rk[j];
          sv[slot(e)] = rv[j];
        }
      }
      __syncwarp();
    } else {
      stageIn(sk, keys, w.k0, w.count, lane);
    }
    for (unsigned half = 0; half < sizeof(K) / 4; ++half) {
      unsigned at = at0;
      STAR_SORT_UNROLL
      for (unsigned i = 0; i < 32; ++i) {
        std::uint64_t tiles = 0;
        if ((w.marked >> i) & 1) {
          tiles = tilesFromKey(fromOrder(sk[slot(at++)], v.order), v.len);
        }
        a[i] = static_cast<std::uint32_t>(tiles >> (32 * half));
      }
      transpose32(a);
      storeTile(v, 32ull * half, half == 0 ? min64(v.len, 32) : v.len - 32, w, a);
    }

    // The other columns.
    if constexpr (sizeof(V) == 4) {
      if (payload.index) {
        std::uint32_t* src = reinterpret_cast<std::uint32_t*>(stage[warp]);
        __syncwarp();
        stageIn(src, values, w.k0, w.count, lane);
        for (unsigned t = 0; t < payload.tiles; ++t) {
          unsigned at = at0;
          STAR_SORT_UNROLL
          for (unsigned i = 0; i < 32; ++i) {
            a[i] = (w.marked >> i) & 1 ? rows_in[std::uint64_t{src[slot(at++)]} * payload.tiles + t]
                                       : 0;
          }
          transpose32(a);
          storeTile(v, v.len + 32ull * t, payloadColumns(v, t), w, a);
        }
        continue;
      }
    }
    if (payload.tiles == 0) continue;
    if (!values_too) {
      __syncwarp();
      stageIn(sv, values, w.k0, w.count, lane);
    }
    for (unsigned half = 0; half < sizeof(V) / 4; ++half) {
      unsigned at = at0;
      STAR_SORT_UNROLL
      for (unsigned i = 0; i < 32; ++i) {
        const std::uint64_t value =
            (w.marked >> i) & 1 ? static_cast<std::uint64_t>(sv[slot(at++)]) : 0;
        a[i] = static_cast<std::uint32_t>(value >> (32 * half));
      }
      transpose32(a);
      storeTile(v, v.len + 32ull * half, payloadColumns(v, half), w, a);
    }
  }
}

unsigned tileGrid(const Launch& launch, std::uint64_t words) {
  const std::uint64_t warps = (words + kWarp - 1) / kWarp;
  return gridFor(launch, warps, 1, Policy::kTileWarps);
}

template <class Fn>
void cubCall(DeviceContext& ctx, const char* what, Fn&& fn) {
  std::size_t bytes = 0;
  check(fn(nullptr, bytes), what);
  SortScratch temp(ctx, std::max<std::size_t>(bytes, 1));
  check(fn(temp.as<void>(), bytes), what);
}

}  // namespace
}  // namespace star::cuda
