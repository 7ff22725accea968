// Where the rows of a value live when they are split across several devices (docs/ARCHITECTURE.md
// §6): a bit vector of n bits, and every column of a table of n rows, is cut into blocks of whole
// 64-bit words, device g holding bits [g·B·64, (g+1)·B·64) of it, B = max(ceil(words / N), min).
// The split depends only on n, so a slice and a table of the same rows are split alike and the
// element-wise primitives (and column reads and writes) never cross a device. Short values (a word
// of a table row, a small table) have B = min >= their words and live on device 0 alone.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/BitLayout.h"

namespace star {

// The least words of a device's block unless set (STAR_SHARD_MIN_WORDS): 65,536 rows.
inline constexpr std::uint64_t kShardMinWords = 1024;

struct ShardLayout {
  unsigned shards = 1;
  // The least words in a device's block: values up to this many words stay whole on device 0.
  std::uint64_t minWords = kShardMinWords;

  // B: the words of each device's block for a value of `bits` bits (at least 1).
  std::uint64_t blockWords(std::uint64_t bits) const {
    const std::uint64_t words = wordsForBits(bits);
    return std::max<std::uint64_t>({(words + shards - 1) / shards, minWords, 1});
  }
  std::uint64_t blockBits(std::uint64_t bits) const { return blockWords(bits) * 64; }
  // The first bit of device g's part, and its length (0 for a device past the end).
  std::uint64_t first(std::uint64_t bits, unsigned g) const {
    const std::uint64_t block = blockBits(bits);
    return g >= (bits + block - 1) / block ? bits : g * block;
  }
  std::uint64_t length(std::uint64_t bits, unsigned g) const {
    return std::min(bits - first(bits, g), blockBits(bits));
  }
  // The device that holds bit i (i < bits).
  unsigned owner(std::uint64_t bits, std::uint64_t i) const {
    return static_cast<unsigned>(i / blockBits(bits));
  }
  // Whether the whole value lies on device 0.
  bool whole(std::uint64_t bits) const { return bits <= blockBits(bits); }
};

}  // namespace star
