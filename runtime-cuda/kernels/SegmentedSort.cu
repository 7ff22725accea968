// The segmented rank sort (SegmentedSort.h). Every method ranks an item by counting the items of
// its segment that come before it in the sorted order (a smaller key, or an equal key at a
// smaller index), and writes it to segment begin + rank: stable, no merging, one pass.
//
//  * Segments of <= 32 items (tileSortKernel): a block takes a tile of 2048 consecutive items,
//    finds the segments overlapping it (two 32-way warp searches of the offsets), loads the
//    tile's keys with 32 on each side into shared memory (a short segment then lies wholly in
//    it), and each thread ranks its items against their segments there.
//  * Longer ones are classified into lists first (classifyKernel, warp-aggregated appends), then
//    33..256 items: one warp per segment (warpSortKernel), keys in shared memory, each lane
//    holding up to 8 items in registers and comparing them with every key of the segment;
//    257..2048: the same with a block of 256 threads (blockSortKernel);
//    longer: cub::DeviceSegmentedSort::StableSortPairs on the list of their bounds.
// The lists' lengths stay on the device: the list kernels are persistent grids that read them.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cub/device/device_segmented_sort.cuh>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/kernels/DeviceLoops.cuh"
#include "runtime-cuda/kernels/SegmentedSort.h"
#include "runtime-cuda/kernels/SortBits.h"
#include "runtime-cuda/kernels/SortScratch.h"
#include "runtime-cuda/kernels/Tuning.h"
#include "runtime-cuda/kernels/Warp.h"

namespace star::cuda {
namespace {

using Policy = SortPolicy::Segmented;  // the tile, warp and block kernels' blocks (Tuning.h)
constexpr unsigned kTileItems = Policy::kTileThreads * Policy::kTilePerThread;
constexpr unsigned kHalo = kTileSegmentMax;  // a short segment lies within 31 items of each item

constexpr unsigned kGroupWarps = Policy::kGroupThreads / kWarp;
constexpr unsigned kMaxPerThread = 8;
static_assert(kWarpSegmentMax == kWarp * kMaxPerThread);
static_assert(kBlockSegmentMax == Policy::kGroupThreads * kMaxPerThread);

// With no more segments than this, cub::DeviceSegmentedSort runs without a host round trip
// (its PARTITIONING_THRESHOLD, the smallest of its policies).
constexpr std::uint64_t kCubNoSyncSegments = 300;

// Counters of the classified lists.
enum Counter { kWarpCount = 0, kBlockCount = 1, kLargeCount = 2, kCounters = 3 };

// Keys as the unsigned numbers the ranks compare. Floats in the order of CUB's radix sorts (the
// sort of the longest segments): IEEE totalOrder of the bit patterns, except that -0 and +0 are
// equal. The sorts write the keys they read, bit for bit.
template <class Key>
struct Ordered {
  using type = Key;
  __device__ static Key in(Key k) { return k; }
};
template <>
struct Ordered<float> {
  using type = std::uint32_t;
  __device__ static std::uint32_t in(float k) {
    std::uint32_t b = __float_as_uint(k);
    if (b == 0x80000000u) b = 0;
    return (b & 0x80000000u) ? ~b : b | 0x80000000u;
  }
};

__device__ __forceinline__ std::uint64_t segmentCount(std::uint64_t bound,
                                                       const std::uint32_t* device_count) {
  return device_count == nullptr ? bound : min64(bound, *device_count);
}

// #{i < n : a[i] <= v} for a nondecreasing a, by a whole warp (every lane gets it): each round
// probes 32 evenly spaced entries, so about log32(n) rounds of one load per lane.
__device__ std::uint64_t warpCountLe(const std::uint32_t* a, std::uint64_t n, std::uint64_t v,
                                       unsigned lane) {
  std::uint64_t lo = 0, hi = n;  // a[i] <= v for i < lo, a[i] > v for i >= hi
  while (lo < hi) {
    const std::uint64_t step = (hi - lo + kWarp - 1) / kWarp;
    const std::uint64_t p = lo + lane * step;
    const unsigned le = __ballot_sync(kFullMask, p < hi && a[p] <= v);
    const unsigned t = __popc(le);  // the probes at or below v come first
    if (t == 0) {
      hi = lo;
    } else {
      const std::uint64_t last = lo + (t - 1) * step;
      lo = last + 1;
      hi = min64(hi, last + step);
    }
  }
  return lo;
}

// Segments of <= kTileSegmentMax items; the items of longer segments are left to the other
// kernels. Grid-stride over tiles of kTileItems items.
template <class Key, class Value>
__global__ void __launch_bounds__(Policy::kTileThreads)
    tileSortKernel(const Key* __restrict__ keys_in, Key* __restrict__ keys_out,
                     const Value* __restrict__ values_in, Value* __restrict__ values_out,
                     std::uint64_t num_items, std::uint64_t segment_bound,
                     const std::uint32_t* __restrict__ offsets,
                     const std::uint32_t* device_segments) {
  using O = typename Ordered<Key>::type;
  __shared__ O keys[kTileItems + 2 * kHalo];   // items [t0 - kHalo, t0 + kTileItems + kHalo)
  __shared__ std::uint32_t begin[kTileItems];  // each item's segment: its first item
  __shared__ std::uint8_t length[kTileItems];  // and length, or 0: not a short segment
  __shared__ std::uint64_t range[2];           // the segments overlapping the tile

  const std::uint64_t segments = segmentCount(segment_bound, device_segments);
  const unsigned lane = threadIdx.x % kWarp;
  const unsigned warp = threadIdx.x / kWarp;
  for (std::uint64_t t0 = std::uint64_t{blockIdx.x} * kTileItems; t0 < num_items;
       t0 += std::uint64_t{gridDim.x} * kTileItems) {
    const std::uint64_t t1 = min64(t0 + kTileItems, num_items);
    if (warp == 0) {  // the last segment starting at or before t0
      const std::uint64_t c = warpCountLe(offsets, segments + 1, t0, lane);
      if (lane == 0) range[0] = c == 0 ? 0 : c - 1;
    } else if (warp == 1) {  // past the last segment starting before t1
      const std::uint64_t c = warpCountLe(offsets, segments + 1, t1 - 1, lane);
      if (lane == 0) range[1] = min64(c, segments);
    }
    for (unsigned i = threadIdx.x; i < kTileItems; i += Policy::kTileThreads) length[i] = 0;
    __syncthreads();

    bool mine = false;
    for (std::uint64_t s = range[0] + threadIdx.x; s < range[1]; s += Policy::kTileThreads) {
      const std::uint64_t b = offsets[s];
      const std::uint64_t e = offsets[s + 1];
      if (e - b > kTileSegmentMax) continue;
      for (std::uint64_t t = b > t0 ? b : t0; t < min64(e, t1); ++t) {
        begin[t - t0] = static_cast<std::uint32_t>(b);
        length[t - t0] = static_cast<std::uint8_t>(e - b);
        mine = true;
      }
    }
    if (!__syncthreads_or(mine)) continue;  // no short segment here

    {  // the keys, their loads issued together
      constexpr unsigned kLoads =
          (kTileItems + 2 * kHalo + Policy::kTileThreads - 1) / Policy::kTileThreads;
      O k[kLoads];
      STAR_SORT_UNROLL
      for (unsigned j = 0; j < kLoads; ++j) {
        const unsigned i = threadIdx.x + j * Policy::kTileThreads;
        const std::uint64_t t = t0 + i - kHalo;  // wraps below 0: then >= num_items
        k[j] = i < kTileItems + 2 * kHalo && t0 + i >= kHalo && t < num_items
                   ? Ordered<Key>::in(keys_in[t])
                   : O{0};
      }
      STAR_SORT_UNROLL
      for (unsigned j = 0; j < kLoads; ++j) {
        const unsigned i = threadIdx.x + j * Policy::kTileThreads;
        if (i < kTileItems + 2 * kHalo) keys[i] = k[j];
      }
    }
    // This thread's items (keys bit for bit, values), loaded together.
    Key raw[Policy::kTilePerThread];
    Value val[Policy::kTilePerThread];
    STAR_SORT_UNROLL
    for (unsigned j = 0; j < Policy::kTilePerThread; ++j) {
      const unsigned i = threadIdx.x + j * Policy::kTileThreads;
      const bool short_segment = length[i] != 0;
      raw[j] = short_segment ? keys_in[t0 + i] : Key{0};
      val[j] = short_segment ? values_in[t0 + i] : Value{0};
    }
    __syncthreads();

    STAR_SORT_UNROLL
    for (unsigned j = 0; j < Policy::kTilePerThread; ++j) {
      const unsigned i = threadIdx.x + j * Policy::kTileThreads;
      const unsigned n = length[i];
      if (n == 0) continue;
      const std::uint64_t b = begin[i];
      const unsigned first = static_cast<unsigned>(b + kHalo - t0);  // b's index in keys
      const unsigned self = i + kHalo - first;                       // t's index in its segment
      const O k = keys[i + kHalo];
      unsigned rank = 0;
      for (unsigned u = 0; u < n; ++u) {
        const O ku = keys[first + u];
        rank += (ku < k) | ((ku == k) & (u < self));
      }
      keys_out[b + rank] = raw[j];
      values_out[b + rank] = val[j];
    }
    __syncthreads();  // before the next tile overwrites shared memory
  }
}

template <unsigned Threads>
__device__ __forceinline__ void groupSync() {
  if constexpr (Threads == kWarp) {
    __syncwarp();
  } else {
    __syncthreads();
  }
}

// The Threads threads of a warp or block sort a segment of n keys at b: thread tid loads items
// tid, tid + Threads, ... (PerThread of them, loads issued together), puts their keys in shared
// memory (sh), ranks them against all n keys there and writes each to b + its rank.
template <unsigned Threads, unsigned PerThread, class Key, class Value, class O>
__device__ __forceinline__ void rankAndWrite(O* sh, unsigned n, unsigned tid, std::uint64_t b,
                                               const Key* keys_in, Key* keys_out,
                                               const Value* values_in, Value* values_out) {
  O k[PerThread];
  Key raw[PerThread];
  Value v[PerThread];
  unsigned rank[PerThread];
  STAR_SORT_UNROLL
  for (unsigned p = 0; p < PerThread; ++p) {
    const unsigned j = tid + p * Threads;
    raw[p] = j < n ? keys_in[b + j] : Key{0};
    v[p] = j < n ? values_in[b + j] : Value{0};
    rank[p] = 0;
  }
  STAR_SORT_UNROLL
  for (unsigned p = 0; p < PerThread; ++p) {
    const unsigned j = tid + p * Threads;
    k[p] = Ordered<Key>::in(raw[p]);
    if (j < n) sh[j] = k[p];
  }
  groupSync<Threads>();
  for (unsigned u = 0; u < n; ++u) {
    const O ku = sh[u];
    STAR_SORT_UNROLL
    for (unsigned p = 0; p < PerThread; ++p) {
      rank[p] += (ku < k[p]) | ((ku == k[p]) & (u < tid + p * Threads));
    }
  }
  STAR_SORT_UNROLL
  for (unsigned p = 0; p < PerThread; ++p) {
    if (tid + p * Threads < n) {
      keys_out[b + rank[p]] = raw[p];
      values_out[b + rank[p]] = v[p];
    }
  }
  groupSync<Threads>();  // before the next segment overwrites sh
}

// rankAndWrite with as few items per thread as n needs (n <= Threads * kMaxPerThread).
template <unsigned Threads, class Key, class Value, class O>
__device__ __forceinline__ void rankSegment(O* sh, unsigned n, unsigned tid, std::uint64_t b,
                                             const Key* keys_in, Key* keys_out,
                                             const Value* values_in, Value* values_out) {
  switch ((n + Threads - 1) / Threads) {
    case 1:
      rankAndWrite<Threads, 1>(sh, n, tid, b, keys_in, keys_out, values_in, values_out);
      break;
    case 2:
      rankAndWrite<Threads, 2>(sh, n, tid, b, keys_in, keys_out, values_in, values_out);
      break;
    case 3:
      rankAndWrite<Threads, 3>(sh, n, tid, b, keys_in, keys_out, values_in, values_out);
      break;
    case 4:
      rankAndWrite<Threads, 4>(sh, n, tid, b, keys_in, keys_out, values_in, values_out);
      break;
    case 5:
      rankAndWrite<Threads, 5>(sh, n, tid, b, keys_in, keys_out, values_in, values_out);
      break;
    case 6:
      rankAndWrite<Threads, 6>(sh, n, tid, b, keys_in, keys_out, values_in, values_out);
      break;
    case 7:
      rankAndWrite<Threads, 7>(sh, n, tid, b, keys_in, keys_out, values_in, values_out);
      break;
    default:
      rankAndWrite<Threads, 8>(sh, n, tid, b, keys_in, keys_out, values_in, values_out);
      break;
  }
}

// Appends the segments of more than kTileSegmentMax items to the list of their class; a warp
// takes 32 consecutive segments and reserves its places with one atomic per class.
__global__ void classifyKernel(const std::uint32_t* __restrict__ offsets,
                                std::uint64_t segment_bound, const std::uint32_t* device_segments,
                                std::uint32_t* __restrict__ warpList,
                                std::uint32_t* __restrict__ blockList,
                                std::uint32_t* __restrict__ large_begin,
                                std::uint32_t* __restrict__ large_end,
                                unsigned long long* __restrict__ counters) {
  const std::uint64_t segments = segmentCount(segment_bound, device_segments);
  const unsigned lane = threadIdx.x % kWarp;
  const std::uint64_t warps = gridThreads() / kWarp;
  for (std::uint64_t base = globalThread() / kWarp * kWarp; base < segments;
       base += warps * kWarp) {
    const std::uint64_t s = base + lane;
    const std::uint64_t n = s < segments ? offsets[s + 1] - offsets[s] : 0;
    const int cls = n <= kTileSegmentMax    ? -1
                    : n <= kWarpSegmentMax  ? kWarpCount
                    : n <= kBlockSegmentMax ? kBlockCount
                                            : kLargeCount;
    for (int c = kWarpCount; c < kCounters; ++c) {
      const unsigned members = __ballot_sync(kFullMask, cls == c);
      if (members == 0) continue;
      unsigned long long at = 0;
      if (lane == static_cast<unsigned>(__ffs(members) - 1)) {
        at = atomicAdd(&counters[c], static_cast<unsigned long long>(__popc(members)));
      }
      at = __shfl_sync(kFullMask, at, __ffs(members) - 1);
      if (cls != c) continue;
      const std::uint64_t slot = at + __popc(members & ((1u << lane) - 1));
      if (c == kWarpCount && warpList != nullptr) {
        warpList[slot] = static_cast<std::uint32_t>(s);
      } else if (c == kBlockCount && blockList != nullptr) {
        blockList[slot] = static_cast<std::uint32_t>(s);
      } else if (c == kLargeCount && large_begin != nullptr) {
        large_begin[slot] = offsets[s];
        large_end[slot] = offsets[s + 1];
      }
    }
  }
}

// One warp per listed segment (kTileSegmentMax < n <= kWarpSegmentMax); persistent.
template <class Key, class Value>
__global__ void __launch_bounds__(Policy::kGroupThreads)
    warpSortKernel(const Key* __restrict__ keys_in, Key* __restrict__ keys_out,
                     const Value* __restrict__ values_in, Value* __restrict__ values_out,
                     const std::uint32_t* __restrict__ offsets,
                     const std::uint32_t* __restrict__ list,
                     const unsigned long long* __restrict__ count) {
  using O = typename Ordered<Key>::type;
  __shared__ O keys[kGroupWarps][kWarpSegmentMax];
  const unsigned lane = threadIdx.x % kWarp;
  const unsigned warp = threadIdx.x / kWarp;
  const std::uint64_t listed = *count;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * kGroupWarps + warp; i < listed;
       i += std::uint64_t{gridDim.x} * kGroupWarps) {
    const std::uint32_t s = list[i];
    const std::uint64_t b = offsets[s];
    const unsigned n = static_cast<unsigned>(offsets[s + 1] - b);
    rankSegment<kWarp>(keys[warp], n, lane, b, keys_in, keys_out, values_in, values_out);
  }
}

// One block per listed segment (kWarpSegmentMax < n <= kBlockSegmentMax); persistent.
template <class Key, class Value>
__global__ void __launch_bounds__(Policy::kGroupThreads)
    blockSortKernel(const Key* __restrict__ keys_in, Key* __restrict__ keys_out,
                      const Value* __restrict__ values_in, Value* __restrict__ values_out,
                      const std::uint32_t* __restrict__ offsets,
                      const std::uint32_t* __restrict__ list,
                      const unsigned long long* __restrict__ count) {
  using O = typename Ordered<Key>::type;
  __shared__ O keys[kBlockSegmentMax];
  const std::uint64_t listed = *count;
  for (std::uint64_t i = blockIdx.x; i < listed; i += gridDim.x) {
    const std::uint32_t s = list[i];
    const std::uint64_t b = offsets[s];
    const unsigned n = static_cast<unsigned>(offsets[s + 1] - b);
    rankSegment<Policy::kGroupThreads>(keys, n, threadIdx.x, b, keys_in, keys_out, values_in,
                                       values_out);
  }
}

unsigned cappedGrid(const Launch& launch, std::uint64_t blocks) {
  return static_cast<unsigned>(
      std::clamp<std::uint64_t>(blocks, 1, std::max(launch.max_blocks, 1u)));
}

}  // namespace

template <class Key, class Value>
void segmentedSortPairs(DeviceContext& ctx, const Key* keys_in, Key* keys_out,
                          const Value* values_in, Value* values_out, std::uint64_t num_items,
                          std::uint64_t num_segments, const std::uint32_t* offsets,
                          const std::uint32_t* deviceNumSegments, std::uint64_t max_segment) {
  if (num_items == 0 || num_segments == 0) return;
  const Launch& launch = ctx.launch();
  const cudaStream_t stream = ctx.stream();

  const unsigned tile_grid = cappedGrid(launch, (num_items + kTileItems - 1) / kTileItems);
  tileSortKernel<Key, Value><<<tile_grid, Policy::kTileThreads, 0, stream>>>(
      keys_in, keys_out, values_in, values_out, num_items, num_segments, offsets,
      deviceNumSegments);
  checkLaunch("tile_sort_kernel");
  const std::uint64_t longest = std::min(max_segment, num_items);
  if (longest <= kTileSegmentMax) return;

  // How many segments each class can hold at most (segments do not overlap).
  auto bound = [&](std::uint64_t shorter) {
    return longest > shorter ? std::min(num_segments, num_items / (shorter + 1)) : 0;
  };
  const std::uint64_t warp_bound = bound(kTileSegmentMax);
  const std::uint64_t block_bound = bound(kWarpSegmentMax);
  const std::uint64_t large_bound = bound(kBlockSegmentMax);
  SortScratch counters(ctx, kCounters * sizeof(unsigned long long));
  SortScratch warpList(ctx, warp_bound * sizeof(std::uint32_t));
  SortScratch blockList(ctx, block_bound * sizeof(std::uint32_t));
  SortScratch large(ctx, 2 * large_bound * sizeof(std::uint32_t));
  auto* count = counters.as<unsigned long long>();
  check(cudaMemsetAsync(count, 0, counters.bytes(), stream), "segmented sort counters");
  // CUB gets every possible large segment: the unused ones stay empty ([0, 0)).
  if (large_bound > 0) check(cudaMemsetAsync(large.as<void>(), 0, large.bytes(), stream), "list");
  std::uint32_t* large_begin = large.as<std::uint32_t>();
  std::uint32_t* large_end = large_begin == nullptr ? nullptr : large_begin + large_bound;

  classifyKernel<<<cappedGrid(launch, (num_segments + kBlockThreads - 1) / kBlockThreads),
                    kBlockThreads, 0, stream>>>(
      offsets, num_segments, deviceNumSegments, warpList.as<std::uint32_t>(),
      blockList.as<std::uint32_t>(), large_begin, large_end, count);
  checkLaunch("classify_kernel");
  warpSortKernel<Key, Value>
      <<<cappedGrid(launch, (warp_bound + kGroupWarps - 1) / kGroupWarps), Policy::kGroupThreads, 0,
         stream>>>(keys_in, keys_out, values_in, values_out, offsets, warpList.as<std::uint32_t>(),
                   count + kWarpCount);
  checkLaunch("warp_sort_kernel");
  if (block_bound > 0) {
    blockSortKernel<Key, Value>
        <<<cappedGrid(launch, block_bound), Policy::kGroupThreads, 0, stream>>>(
            keys_in, keys_out, values_in, values_out, offsets, blockList.as<std::uint32_t>(),
            count + kBlockCount);
    checkLaunch("block_sort_kernel");
  }
  if (large_bound == 0) return;

  std::uint64_t large_segments = large_bound;
  if (large_bound > kCubNoSyncSegments) {
    // So many possible segments that CUB would wait for the device to partition them: wait here
    // instead, for their number, and skip CUB when there are none.
    large_segments = ctx.readWord(reinterpret_cast<const std::uint64_t*>(count + kLargeCount));
    if (large_segments == 0) return;
  }
  std::size_t temp_bytes = 0;
  check(cub::DeviceSegmentedSort::StableSortPairs(nullptr, temp_bytes, keys_in, keys_out, values_in,
                                                  values_out, static_cast<std::int64_t>(num_items),
                                                  static_cast<std::int64_t>(large_segments),
                                                  large_begin, large_end, stream),
        "cub::DeviceSegmentedSort (size)");
  // At least one byte: a null temp pointer would make the second call a size query again.
  temp_bytes = std::max<std::size_t>(temp_bytes, 1);
  SortScratch temp(ctx, temp_bytes);
  check(cub::DeviceSegmentedSort::StableSortPairs(
            temp.as<void>(), temp_bytes, keys_in, keys_out, values_in, values_out,
            static_cast<std::int64_t>(num_items), static_cast<std::int64_t>(large_segments),
            large_begin, large_end, stream),
        "cub::DeviceSegmentedSort");
}

#define STAR_SEGMENTED_SORT(Key, Value)                                                     \
  template void segmentedSortPairs<Key, Value>(                                           \
      DeviceContext&, const Key*, Key*, const Value*, Value*, std::uint64_t, std::uint64_t, \
      const std::uint32_t*, const std::uint32_t*, std::uint64_t);
STAR_SEGMENTED_SORT(std::uint32_t, std::uint32_t)
STAR_SEGMENTED_SORT(std::uint32_t, std::uint64_t)
STAR_SEGMENTED_SORT(std::uint64_t, std::uint32_t)
STAR_SEGMENTED_SORT(std::uint64_t, std::uint64_t)
STAR_SEGMENTED_SORT(float, std::uint32_t)
#undef STAR_SEGMENTED_SORT

}  // namespace star::cuda
