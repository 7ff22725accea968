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

#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include "runtime-cuda/kernels/RowSort.h"
#include "runtime-cuda/kernels/RowSortKernels.cuh"
#include "runtime-cuda/kernels/RowSortSmall.h"
#include "runtime-cuda/kernels/SegmentedSort.h"

namespace star::cuda {
namespace {

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
