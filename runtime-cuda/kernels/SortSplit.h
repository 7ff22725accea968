// Where a sort across GPUs cuts the sorted runs (SortShard.h): every GPU has sorted its own
// records into one run; the runs' stable merge (on equal keys, run g's records before run g + 1's,
// as their rows are in the table) must be split at given ranks, the boundaries of the GPUs' marked
// positions. For each boundary r, the number of each run's records among the first r of that
// merged order, found exactly by a binary search on the key, all boundaries at once: each round
// asks every run, for one probe key per boundary, how many of its records have a key below the
// probe and how many one not above it; a boundary is settled as soon as a probe is the key of the
// record at its rank (with many equal keys, after a few rounds). Host code only, with no GPU in
// it, so it is tested without one; at most 65 rounds (one per bit of the key, and the last).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace star::cuda {

// ranks[g][b] for run g and probe b: {records with key < probe, records with key <= probe}.
using RunRanks = std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>>;

// take[b][g]: the records of run g among the first boundaries[b] of the merged order. Keys lie in
// [0, maxKey]; askRanks(probes) returns RunRanks for those probes (one entry per run; the number
// of runs is that of its answer). Each boundary is at most the total number of records.
template <class AskRanks>
std::vector<std::vector<std::uint64_t>> splitSortedRuns(
    const std::vector<std::uint64_t>& boundaries, std::uint64_t maxKey, AskRanks&& askRanks) {
  const std::size_t m = boundaries.size();
  if (m == 0) return {};
  // The least key K with (records <= K) > r: the record at rank r has key K.
  std::vector<std::uint64_t> lo(m, 0), hi(m, maxKey);
  auto sums = [](const RunRanks& ranks, std::size_t b) {
    std::pair<std::uint64_t, std::uint64_t> s{0, 0};
    for (const auto& run : ranks) {
      s.first += run[b].first;
      s.second += run[b].second;
    }
    return s;
  };
  for (;;) {
    bool open = false;
    std::vector<std::uint64_t> probes(m);
    for (std::size_t b = 0; b < m; ++b) {
      probes[b] = lo[b] + (hi[b] - lo[b]) / 2;
      open = open || lo[b] < hi[b];
    }
    if (!open) break;
    const RunRanks ranks = askRanks(probes);
    for (std::size_t b = 0; b < m; ++b) {
      if (lo[b] >= hi[b]) continue;
      const auto [below, notAbove] = sums(ranks, b);
      if (below <= boundaries[b] && boundaries[b] < notAbove) {
        lo[b] = hi[b] = probes[b];  // the record at rank r has this key: found
      } else if (notAbove > boundaries[b]) {
        hi[b] = probes[b];
      } else {
        lo[b] = probes[b] + 1;
      }
    }
  }
  // At K: every record below K, then the records equal to K in run order until r is reached.
  const RunRanks ranks = askRanks(lo);
  std::vector<std::vector<std::uint64_t>> take(m, std::vector<std::uint64_t>(ranks.size()));
  for (std::size_t b = 0; b < m; ++b) {
    std::uint64_t left = boundaries[b] - std::min(boundaries[b], sums(ranks, b).first);
    for (std::size_t g = 0; g < ranks.size(); ++g) {
      const auto [less, notAbove] = ranks[g][b];
      const std::uint64_t equal = std::min(left, notAbove - less);
      take[b][g] = less + equal;
      left -= equal;
    }
  }
  return take;
}

}  // namespace star::cuda
