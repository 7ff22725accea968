// SORT and SEGSORT on the GPU (RowSort.h). Tables of up to kSmallSortRows rows take the short
// path (RowSortSmall.cu); larger ones this one, all on the stream, with no host round trip
// (except the one SegmentedSort.h describes for many very long groups):
//
//  1. countKernel + an exclusive scan: per 64-row element, the marked rows (x) and the group
//     heads before it, packed in one 64-bit number (low half: marked, high half: heads).
//  2. extractKernel: one warp per 1024 rows (32 elements of 32 rows, one per lane) reads 32
//     columns at a time, turns them into row words with a 32 x 32 bit transpose (SortBits.h),
//     and writes one record per marked row, compacted in row order through shared memory: the
//     key (its order, SortBits.h) and the value. The value is the row's other columns (up to 64
//     of them, as one 32- or 64-bit number) or, beyond 64, the record's index, the columns then
//     going to a row-major array. SORT also writes a record for every unmarked row after the
//     marked ones, with the greatest key: a stable sort of all `rows` records leaves the marked
//     ones first, in order, so the number of marked rows never has to reach the host.
//  3. SORT: cub::DeviceRadixSort over the key's `len` bits. SEGSORT: the groups of the marked
//     records become segments (a group without marked rows is no segment) and
//     segmentedSortPairs (SegmentedSort.h) sorts them.
//  4. writeBackKernel: the k-th record in sorted order goes to the k-th marked row: the same
//     warps read the sorted records, build row words (key columns from the key, by the inverse
//     order), transpose them back into column words and store them under the mask x, so
//     unmarked rows keep their bits. In place: the table is read only in step 2.
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/kernels/DeviceLoops.cuh"
#include "runtime-cuda/kernels/RowSort.h"
#include "runtime-cuda/kernels/RowSortSmall.h"
#include "runtime-cuda/kernels/SegmentedSort.h"
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

// SEGSORT: group[k] := the group of the k-th marked row (the heads up to it, minus 1).
__global__ void markedGroupsKernel(const std::uint64_t* __restrict__ x,
                                     const std::uint64_t* __restrict__ heads,
                                     std::uint64_t elements,
                                     const std::uint64_t* __restrict__ prefix,
                                     std::uint32_t* __restrict__ group) {
  for (std::uint64_t e = globalThread(); e < elements; e += gridThreads()) {
    std::uint64_t m = x[e];
    if (m == 0) continue;
    const std::uint64_t h = heads[e] | (e == 0 ? 1 : 0);
    std::uint64_t k = prefix[e] & kLow32;
    const std::uint64_t g0 = prefix[e] >> 32;
    for (; m != 0; m &= m - 1) {
      const unsigned b = static_cast<unsigned>(__ffsll(static_cast<long long>(m)) - 1);
      const std::uint64_t upto = b == 63 ? kAllOnes : (std::uint64_t{2} << b) - 1;
      group[k++] = static_cast<std::uint32_t>(g0 + __popcll(h & upto) - 1);
    }
  }
}

// Whether record k starts a segment (its group differs from record k - 1's), or k is the end of
// the last one (the number of marked rows): the selected k are the segments' offsets.
struct SegmentStart {
  const std::uint32_t* group;
  const std::uint64_t* totals;  // the low half: the number of marked rows
  __device__ bool operator()(std::uint32_t k) const {
    const std::uint64_t marked = *totals & kLow32;
    if (k > marked) return false;
    return k == 0 || k == marked || group[k] != group[k - 1];
  }
};

// The number of segments: the selected offsets, minus the end.
__global__ void segmentCountKernel(const std::uint32_t* selected, std::uint32_t* segments) {
  *segments = *selected - 1;
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

template <class K, class V>
void sortLarge(DeviceContext& ctx, std::uint64_t* table, std::uint64_t rows, std::uint64_t cols,
                const std::uint64_t* x, const std::uint64_t* heads, std::uint64_t first,
                std::uint64_t len, const KeyOrder& order, Payload payload) {
  const Launch& launch = ctx.launch();
  const cudaStream_t stream = ctx.stream();
  const std::uint64_t elements = (rows + 63) / 64;

  SortScratch prefixBuffer(ctx, (elements + 1) * sizeof(std::uint64_t));
  std::uint64_t* prefix = prefixBuffer.as<std::uint64_t>();
  countKernel<<<gridFor(launch, elements + 1), kBlockThreads, 0, stream>>>(x, heads, elements,
                                                                             prefix);
  checkLaunch("count_kernel");
  cubCall(ctx, "cub::DeviceScan::ExclusiveSum", [&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(temp, bytes, prefix, elements + 1, stream);
  });

  const TableView v{reinterpret_cast<std::uint32_t*>(table),   2 * elements, rows, cols, first, len,
                    reinterpret_cast<const std::uint32_t*>(x), prefix,       order};
  const bool keys_only = heads == nullptr && cols == len;
  SortScratch keyBuffer(ctx, 2 * rows * sizeof(K));
  SortScratch valueBuffer(ctx, keys_only ? 0 : 2 * rows * sizeof(V));
  SortScratch rowBuffer(ctx, payload.index ? rows * payload.tiles * sizeof(std::uint32_t) : 0);
  K* keys[2] = {keyBuffer.as<K>(), keyBuffer.as<K>() + rows};
  V* values[2] = {valueBuffer.as<V>(), keys_only ? nullptr : valueBuffer.as<V>() + rows};
  const unsigned grid = tileGrid(launch, v.words);
  extractKernel<K, V><<<grid, Policy::kTileThreads, 0, stream>>>(
      v, payload, heads == nullptr, keys[0], values[0], rowBuffer.as<std::uint32_t>());
  checkLaunch("extract_kernel");

  const K* sorted_keys = keys[1];
  const V* sorted_values = values[1];
  const auto n = static_cast<std::uint32_t>(rows);
  const int end_bit = static_cast<int>(len);
  if (heads == nullptr) {
    cub::DoubleBuffer<K> dk(keys[0], keys[1]);
    cub::DoubleBuffer<V> dv(values[0], values[1]);
    if (keys_only) {
      cubCall(ctx, "cub::DeviceRadixSort::SortKeys", [&](void* temp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortKeys(temp, bytes, dk, n, 0, end_bit, stream);
      });
    } else {
      cubCall(ctx, "cub::DeviceRadixSort::SortPairs", [&](void* temp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(temp, bytes, dk, dv, n, 0, end_bit, stream);
      });
    }
    sorted_keys = dk.Current();
    sorted_values = keys_only ? nullptr : dv.Current();
  } else {
    SortScratch groupBuffer(ctx, rows * sizeof(std::uint32_t));
    markedGroupsKernel<<<gridFor(launch, elements), kBlockThreads, 0, stream>>>(
        x, heads, elements, prefix, groupBuffer.as<std::uint32_t>());
    checkLaunch("marked_groups_kernel");
    SortScratch offsetsBuffer(ctx, (rows + 1) * sizeof(std::uint32_t));
    SortScratch countBuffer(ctx, 2 * sizeof(std::uint32_t));
    std::uint32_t* offsets = offsetsBuffer.as<std::uint32_t>();
    std::uint32_t* selected = countBuffer.as<std::uint32_t>();
    const SegmentStart start{groupBuffer.as<std::uint32_t>(), prefix + elements};
    cubCall(ctx, "cub::DeviceSelect::If", [&](void* temp, std::size_t& bytes) {
      return cub::DeviceSelect::If(temp, bytes, thrust::counting_iterator<std::uint32_t>(0),
                                   offsets, selected, static_cast<std::int64_t>(rows) + 1, start,
                                   stream);
    });
    segmentCountKernel<<<1, 1, 0, stream>>>(selected, selected + 1);
    checkLaunch("segment_count_kernel");
    segmentedSortPairs<K, V>(ctx, keys[0], keys[1], values[0], values[1], rows, rows, offsets,
                               selected + 1, rows);
  }
  writeBackKernel<K, V><<<grid, Policy::kTileThreads, 0, stream>>>(
      v, payload, sorted_keys, sorted_values, rowBuffer.as<std::uint32_t>());
  checkLaunch("write_back_kernel");
}

template <class K>
void sortLargeByPayload(DeviceContext& ctx, std::uint64_t* table, std::uint64_t rows,
                           std::uint64_t cols, const std::uint64_t* x, const std::uint64_t* heads,
                           std::uint64_t first, std::uint64_t len, const KeyOrder& order) {
  const std::uint64_t others = cols - len;
  const auto tiles = static_cast<unsigned>((others + 31) / 32);
  if (others > 64) {
    sortLarge<K, std::uint32_t>(ctx, table, rows, cols, x, heads, first, len, order,
                                 Payload{tiles, true});
  } else if (others > 32) {
    sortLarge<K, std::uint64_t>(ctx, table, rows, cols, x, heads, first, len, order,
                                 Payload{tiles, false});
  } else {
    sortLarge<K, std::uint32_t>(ctx, table, rows, cols, x, heads, first, len, order,
                                 Payload{tiles, false});
  }
}

}  // namespace

bool sortTableRows(DeviceContext& ctx, std::uint64_t* table, std::uint64_t rows,
                     std::uint64_t cols, const std::uint64_t* x, const std::uint64_t* heads,
                     std::uint64_t first, std::uint64_t len, KeyKind kind, bool descending) {
  if (rows == 0) return true;
  // Records are numbered with 32 bits; a larger table is left to the Star body.
  if (rows > kLow32) return false;
  const KeyOrder order = makeKeyOrder(len, kind, descending);
  if (rows <= kSmallSortRows) {
    smallSortTableRows(ctx, table, rows, cols, x, heads, first, len, order);
  } else if (len <= 32) {
    sortLargeByPayload<std::uint32_t>(ctx, table, rows, cols, x, heads, first, len, order);
  } else {
    sortLargeByPayload<std::uint64_t>(ctx, table, rows, cols, x, heads, first, len, order);
  }
  return true;
}

}  // namespace star::cuda
