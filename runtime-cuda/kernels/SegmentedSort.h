// Many independent stable sorts at once (the segmented sort behind SEGSORT), on plain device
// arrays: RowSort.cu's table path and bench/segsort_bench.cu call it. Short segments are rank
// sorted (docs/PAPERS.md §2 and §3: rank = number of smaller keys, ties broken by index), by
// size class; segments longer than kBlockSegmentMax go to cub::DeviceSegmentedSort.
#pragma once

#include <cstdint>

namespace star::cuda {

class DeviceContext;

// The size classes (SegmentedSort.cu): up to kTileSegmentMax items, one thread per item in
// 2048-item block tiles; up to kWarpSegmentMax, one warp per segment; up to kBlockSegmentMax,
// one block per segment; longer, cub::DeviceSegmentedSort::StableSortPairs.
inline constexpr std::uint64_t kTileSegmentMax = 32;
inline constexpr std::uint64_t kWarpSegmentMax = 256;
inline constexpr std::uint64_t kBlockSegmentMax = 2048;

// Sorts every segment s = [offsets[s], offsets[s + 1]) of keys_in, with values_in alongside, into
// the same positions of keys_out / values_out: stably, in ascending order of the keys (unsigned
// keys as numbers; float keys in the order of CUB's radix sorts: IEEE totalOrder of the bit
// patterns, -NaN < -inf < ... < +inf < +NaN, except that -0 and +0 are equal). Keys are moved bit
// for bit.
// Positions outside every segment are neither read nor written in the outputs; outputs must not
// overlap inputs. All arrays are device memory. offsets: nondecreasing, offsets[last] <=
// num_items < 2^32. The number of segments is num_segments, or *deviceNumSegments (<=
// num_segments) when that is given: then num_segments is only a bound, known on the host, and
// offsets needs *deviceNumSegments + 1 entries. max_segment: a bound on every segment's length
// known on the host (num_items when nothing better is known); classes of longer segments are then
// skipped (a wrong bound leaves the longer segments unsorted). Empty segments cost time.
// Queued on ctx.stream(). It waits for the device only when segments longer than
// kBlockSegmentMax may exist and so many that CUB would wait anyway: it then reads their number.
// Instantiated for Key in {uint32_t, uint64_t, float}, Value in {uint32_t, uint64_t}.
template <class Key, class Value>
void segmentedSortPairs(DeviceContext& ctx, const Key* keys_in, Key* keys_out,
                          const Value* values_in, Value* values_out, std::uint64_t num_items,
                          std::uint64_t num_segments, const std::uint32_t* offsets,
                          const std::uint32_t* deviceNumSegments, std::uint64_t max_segment);

}  // namespace star::cuda
