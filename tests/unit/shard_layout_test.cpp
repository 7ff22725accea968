// runtime-sharded/ShardLayout.h: how a value's rows are split across devices.
#include <gtest/gtest.h>

#include <cstdint>

#include "runtime-sharded/ShardLayout.h"

namespace star {
namespace {

// Every bit has exactly one device; the blocks are in order, whole words but the last, and the
// devices past the end hold nothing.
TEST(ShardLayout, BlocksCoverEveryBitOnce) {
  for (unsigned shards : {1u, 2u, 3u, 4u, 7u, 16u}) {
    for (std::uint64_t minWords : {1u, 2u, 1024u}) {
      const ShardLayout layout{shards, minWords};
      for (std::uint64_t bits :
           {0u, 1u, 63u, 64u, 65u, 128u, 129u, 1000u, 65536u, 65537u, 200000u, 10000019u}) {
        SCOPED_TRACE(std::to_string(shards) + " devices, min " + std::to_string(minWords) + ", " +
                     std::to_string(bits) + " bits");
        std::uint64_t next = 0;
        bool ended = false;
        for (unsigned g = 0; g < shards; ++g) {
          const std::uint64_t len = layout.length(bits, g);
          if (len == 0) {
            ended = true;
            continue;
          }
          EXPECT_FALSE(ended) << "a non-empty block after an empty one";
          EXPECT_EQ(layout.first(bits, g), next);
          EXPECT_EQ(next % 64, 0u);
          if (next + len < bits) {
            EXPECT_EQ(len, layout.blockBits(bits));
          }
          next += len;
        }
        EXPECT_EQ(next, bits);
        for (std::uint64_t i : {std::uint64_t{0}, bits / 3, bits / 2, bits - 1}) {
          if (i >= bits) continue;
          const unsigned g = layout.owner(bits, i);
          ASSERT_LT(g, shards);
          EXPECT_GE(i, layout.first(bits, g));
          EXPECT_LT(i, layout.first(bits, g) + layout.length(bits, g));
        }
      }
    }
  }
}

TEST(ShardLayout, ShortValuesStayWholeOnDeviceZero) {
  const ShardLayout layout{4, 1024};
  EXPECT_TRUE(layout.whole(0));
  EXPECT_TRUE(layout.whole(64 * 1024));
  EXPECT_EQ(layout.length(64 * 1024, 0), 64u * 1024);
  EXPECT_EQ(layout.length(64 * 1024, 1), 0u);
  EXPECT_FALSE(layout.whole(64 * 1024 + 1));
  // Long enough: an even split in whole words.
  EXPECT_EQ(layout.blockWords(64 * 8192), 2048u);
  EXPECT_EQ(layout.owner(64 * 8192, 64 * 2048), 1u);
}

TEST(ShardLayout, OneWordBlocksSplitEveryWord) {
  const ShardLayout layout{3, 1};
  EXPECT_EQ(layout.blockWords(130), 1u);  // 3 words over 3 devices
  EXPECT_EQ(layout.length(130, 2), 2u);
  EXPECT_FALSE(layout.whole(65));
  EXPECT_TRUE(layout.whole(64));
}

}  // namespace
}  // namespace star
