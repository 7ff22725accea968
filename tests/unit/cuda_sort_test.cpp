// The unit sort on the GPU: Backend::sortRows / segsortRows of the CUDA backend
// (runtime-cuda/kernels/RowSort.cu, RowSortSmall.cu) and the array entry point segmentedSortPairs
// (SegmentedSort.cu), against a host oracle written here: std::stable_sort of each group's marked
// rows with a comparator that reads the key field as its kind says (unsigned; two's complement;
// IEEE totalOrder by sign, then magnitude), reversed when descending, the k-th marked position of
// a group receiving the group's k-th row. Covered: every key kind and width (1..64), -0,
// infinities, NaNs, duplicates, all equal, sorted and reversed keys; rows 1, 63, 64, 65, the short
// path's limit (2048) and beyond, up to 2^20; full, partial and empty X; payload columns of every
// route (none, one and two 32-bit tiles, more than 64 columns); SEGSORT groups of every size class
// (1, <= 32, 33..256, 257..2048, longer, so many long ones that the sort reads their number),
// mixed. The bit helpers of SortBits.h and the cuts of a sort across GPUs (SortSplit.h) are
// checked on the host, without a GPU; every other test skips when no GPU is usable.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "runtime-cuda/CudaBackend.h"
#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/kernels/SegmentedSort.h"
#include "runtime-cuda/kernels/SortBits.h"
#include "runtime-cuda/kernels/SortShard.h"
#include "runtime-cuda/kernels/SortSplit.h"
#include "vm/backend/NativeKernels.h"

namespace star {
namespace {

using Words = std::vector<std::uint64_t>;

// ---- the oracle's reading of a key field ------------------------------------------------------

std::uint64_t lowMask(std::uint64_t len) {
  return len >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << len) - 1;
}

std::int64_t signExtend(std::uint64_t field, std::uint64_t len) {
  if (len == 64) return static_cast<std::int64_t>(field);
  const unsigned shift = static_cast<unsigned>(64 - len);
  return static_cast<std::int64_t>(field << shift) >> shift;
}

// IEEE totalOrder on bit patterns of len bits: negatives first, each side by magnitude.
bool floatLess(std::uint64_t a, std::uint64_t b, std::uint64_t len) {
  const std::uint64_t sign = std::uint64_t{1} << (len - 1);
  const bool neg_a = (a & sign) != 0;
  const bool neg_b = (b & sign) != 0;
  if (neg_a != neg_b) return neg_a;
  return neg_a ? a > b : a < b;
}

bool keyLess(std::uint64_t a, std::uint64_t b, std::uint64_t len, KeyKind kind) {
  switch (kind) {
    case KeyKind::Unsigned:
      return a < b;
    case KeyKind::Signed:
      return signExtend(a, len) < signExtend(b, len);
    case KeyKind::Float:
      return floatLess(a, b, len);
  }
  return false;
}

// ---- host tables
// ----------------------------------------------------------------------------------

bool bitOf(const Words& v, std::uint64_t i) {
  return (v[i / 64] >> (i % 64)) & 1;
}

void putBit(Words& v, std::uint64_t i, bool b) {
  const std::uint64_t m = std::uint64_t{1} << (i % 64);
  v[i / 64] = b ? v[i / 64] | m : v[i / 64] & ~m;
}

struct HostTable {
  std::uint64_t rows = 0, cols = 0;
  Words words;  // column-major, as Backend::readTable

  HostTable(std::uint64_t r, std::uint64_t c) : rows(r), cols(c), words(c * wordsForBits(r)) {}
  std::uint64_t perCol() const { return wordsForBits(rows); }
  bool get(std::uint64_t r, std::uint64_t c) const {
    return (words[c * perCol() + r / 64] >> (r % 64)) & 1;
  }
  void set(std::uint64_t r, std::uint64_t c, bool b) {
    std::uint64_t& w = words[c * perCol() + r / 64];
    const std::uint64_t m = std::uint64_t{1} << (r % 64);
    w = b ? w | m : w & ~m;
  }
  // Column first is the field's most significant bit.
  std::uint64_t field(std::uint64_t r, std::uint64_t first, std::uint64_t len) const {
    std::uint64_t f = 0;
    for (std::uint64_t j = 0; j < len; ++j) f = (f << 1) | (get(r, first + j) ? 1 : 0);
    return f;
  }
  void setField(std::uint64_t r, std::uint64_t first, std::uint64_t len, std::uint64_t f) {
    for (std::uint64_t j = 0; j < len; ++j) set(r, first + j, (f >> (len - 1 - j)) & 1);
  }
};

// The expected table: in every group, the marked rows stably sorted by key, into the group's
// marked positions; the unmarked rows keep their bits.
HostTable oracle(const HostTable& t, const Words& x, const Words* heads, std::uint64_t first,
                 std::uint64_t len, KeyKind kind, bool descending) {
  HostTable out = t;
  std::vector<std::uint64_t> keys(t.rows);
  std::vector<std::uint64_t> group;
  auto flush = [&] {
    std::vector<std::uint64_t> sorted = group;
    std::stable_sort(sorted.begin(), sorted.end(), [&](std::uint64_t a, std::uint64_t b) {
      return descending ? keyLess(keys[b], keys[a], len, kind)
                        : keyLess(keys[a], keys[b], len, kind);
    });
    for (std::size_t i = 0; i < group.size(); ++i) {
      if (sorted[i] == group[i]) continue;
      for (std::uint64_t c = 0; c < t.cols; ++c) out.set(group[i], c, t.get(sorted[i], c));
    }
    group.clear();
  };
  for (std::uint64_t r = 0; r < t.rows; ++r) {
    if (r > 0 && heads != nullptr && bitOf(*heads, r)) flush();
    if (!bitOf(x, r)) continue;
    keys[r] = t.field(r, first, len);
    group.push_back(r);
  }
  flush();
  return out;
}

::testing::AssertionResult sameTable(const HostTable& want, const HostTable& got) {
  if (want.words.size() != got.words.size()) {
    return ::testing::AssertionFailure()
           << "size " << got.words.size() << ", expected " << want.words.size();
  }
  for (std::size_t i = 0; i < want.words.size(); ++i) {
    if (want.words[i] == got.words[i]) continue;
    const std::uint64_t c = i / want.perCol();
    const std::uint64_t r =
        (i % want.perCol()) * 64 + std::countr_zero(want.words[i] ^ got.words[i]);
    return ::testing::AssertionFailure() << "first difference at row " << r << ", column " << c;
  }
  return ::testing::AssertionSuccess();
}

// ---- generated inputs
// -------------------------------------------------------------------------------

enum class Keys { Random, FewValues, AllEqual, Ascending, Descending, Specials };
enum class Marks { All, None, Half, Sparse };
// SEGSORT group sizes; None is SORT.
enum class Groups { None, Singles, Small, Warp, Block, Long, Mixed, One, RandomHeads };

const char* name(Keys k) {
  const char* n[] = {"random", "few values", "all equal", "ascending", "descending", "specials"};
  return n[static_cast<int>(k)];
}
const char* name(Marks m) {
  const char* n[] = {"all", "none", "half", "sparse"};
  return n[static_cast<int>(m)];
}
const char* name(Groups g) {
  const char* n[] = {"SORT", "singles", "2..32", "33..256",     "257..2048",
                     "long", "mixed",   "one",   "random heads"};
  return n[static_cast<int>(g)];
}
const char* name(KeyKind k) {
  const char* n[] = {"unsigned", "signed", "float"};
  return n[static_cast<int>(k)];
}

// Interesting floats of len 32 or 64 bits: zeros, infinities, NaNs, denormals, extremes, ones.
std::vector<std::uint64_t> specialFloats(std::uint64_t len) {
  if (len == 32) {
    return {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000,
            0x7F800001, 0xFFFFFFFF, 0x00000001, 0x80000001, 0x7F7FFFFF, 0xFF7FFFFF,
            0x3F800000, 0xBF800000, 0x3F800001, 0xBF800001};
  }
  return {0x0000000000000000, 0x8000000000000000, 0x7FF0000000000000, 0xFFF0000000000000,
          0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0xFFFFFFFFFFFFFFFF,
          0x0000000000000001, 0x8000000000000001, 0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF,
          0x3FF0000000000000, 0xBFF0000000000000, 0x3FF0000000000001, 0xBFF0000000000001};
}

struct Case {
  std::uint64_t rows, cols, first, len;
  KeyKind kind;
  bool descending;
  Keys keys;
  Marks marks;
  Groups groups;

  std::string describe() const {
    std::ostringstream s;
    s << name(groups) << " rows " << rows << " cols " << cols << " key [" << first << ", +" << len
      << ") " << name(kind) << (descending ? " descending" : "") << ", keys " << name(keys)
      << ", X " << name(marks);
    return s.str();
  }
};

class Inputs {
 public:
  explicit Inputs(std::uint64_t seed) : rng_(seed) {}

  std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : rng_() % n; }
  std::uint64_t between(std::uint64_t lo, std::uint64_t hi) { return lo + below(hi - lo + 1); }

  HostTable table(const Case& c) {
    HostTable t(c.rows, c.cols);
    for (auto& w : t.words) w = rng_();
    if (c.rows % 64 != 0) {
      for (std::uint64_t j = 0; j < c.cols; ++j) {
        t.words[(j + 1) * t.perCol() - 1] &= lowMask(c.rows % 64);
      }
    }
    const std::uint64_t mask = lowMask(c.len);
    const std::vector<std::uint64_t> specials =
        c.kind == KeyKind::Float ? specialFloats(c.len) : std::vector<std::uint64_t>{};
    const std::uint64_t few[] = {0, 1, mask, mask >> 1, (mask >> 1) + 1, 5 & mask};
    for (std::uint64_t r = 0; r < c.rows; ++r) {
      std::uint64_t f = 0;
      switch (c.keys) {
        case Keys::Random:
          continue;  // the random bits already there
        case Keys::FewValues:
          f = few[below(std::size(few))] & mask;
          break;
        case Keys::AllEqual:
          f = 0x5A5A5A5A5A5A5A5Aull & mask;
          break;
        case Keys::Ascending:
          f = r & mask;
          break;
        case Keys::Descending:
          f = (c.rows - r) & mask;
          break;
        case Keys::Specials:
          f = below(3) == 0 ? rng_() & mask : specials[below(specials.size())];
          break;
      }
      t.setField(r, c.first, c.len, f);
    }
    return t;
  }

  Words marks(std::uint64_t rows, Marks m) {
    Words x(wordsForBits(rows), 0);
    for (std::uint64_t r = 0; r < rows; ++r) {
      bool b = false;
      switch (m) {
        case Marks::All:
          b = true;
          break;
        case Marks::None:
          b = false;
          break;
        case Marks::Half:
          b = below(2) == 0;
          break;
        case Marks::Sparse:
          b = below(50) == 0;
          break;
      }
      putBit(x, r, b);
    }
    return x;
  }

  // Group starts (row 0 is one anyway); sizes drawn from the class.
  Words heads(std::uint64_t rows, Groups g) {
    Words h(wordsForBits(rows), 0);
    if (g == Groups::One) return h;
    if (g == Groups::RandomHeads) {
      for (std::uint64_t r = 0; r < rows; ++r) putBit(h, r, below(8) == 0);
      return h;
    }
    for (std::uint64_t r = 0; r < rows;) {
      putBit(h, r, true);
      r += groupSize(g);
    }
    return h;
  }

  std::uint64_t groupSize(Groups g) {
    switch (g) {
      case Groups::Singles:
        return 1;
      case Groups::Small:
        return between(2, 32);
      case Groups::Warp:
        return between(33, 256);
      case Groups::Block:
        return between(257, 2048);
      case Groups::Long:
        return between(2049, 6000);
      case Groups::Mixed: {
        const Groups classes[] = {Groups::Singles, Groups::Small, Groups::Small, Groups::Warp,
                                  Groups::Warp,    Groups::Block, Groups::Long};
        return groupSize(classes[below(std::size(classes))]);
      }
      default:
        return 1;
    }
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

// ---- host-only checks of the bit helpers
// ----------------------------------------------------------

TEST(SortBits, TransposeIsTheBitMatrixTranspose) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 100; ++round) {
    std::uint32_t a[32], original[32];
    for (int i = 0; i < 32; ++i) a[i] = original[i] = static_cast<std::uint32_t>(rng());
    cuda::transpose32(a);
    for (int i = 0; i < 32; ++i) {
      for (int j = 0; j < 32; ++j) {
        ASSERT_EQ((a[i] >> j) & 1, (original[j] >> i) & 1) << "row " << i << " column " << j;
      }
    }
  }
}

TEST(SortBits, OrderTransformIsMonotoneAndInvertible) {
  std::mt19937_64 rng(11);
  for (std::uint64_t len : {1u, 2u, 7u, 31u, 32u, 33u, 63u, 64u}) {
    for (KeyKind kind : {KeyKind::Unsigned, KeyKind::Signed, KeyKind::Float}) {
      if (kind == KeyKind::Float && len != 32 && len != 64) continue;
      for (bool descending : {false, true}) {
        const cuda::KeyOrder o = cuda::makeKeyOrder(len, kind, descending);
        std::vector<std::uint64_t> v;
        for (int i = 0; i < 300; ++i) v.push_back(rng() & lowMask(len));
        for (std::uint64_t s :
             {std::uint64_t{0}, lowMask(len), lowMask(len) >> 1, (lowMask(len) >> 1) + 1}) {
          v.push_back(s);
        }
        if (kind == KeyKind::Float) {
          for (std::uint64_t s : specialFloats(len)) v.push_back(s);
        }
        for (std::uint64_t a : v) {
          const std::uint64_t ka = cuda::toOrder(a, o);
          ASSERT_EQ(ka & ~lowMask(len), 0u);
          ASSERT_EQ(cuda::fromOrder(ka, o), a);
          for (int i = 0; i < 20; ++i) {
            const std::uint64_t b = v[rng() % v.size()];
            const bool less = descending ? keyLess(b, a, len, kind) : keyLess(a, b, len, kind);
            ASSERT_EQ(ka < cuda::toOrder(b, o), less)
                << name(kind) << " len " << len << " a " << a << " b " << b;
          }
        }
      }
    }
  }
}

TEST(SortBits, KeyTilesRoundTrip) {
  std::mt19937_64 rng(13);
  for (std::uint64_t len = 1; len <= 64; ++len) {
    for (int i = 0; i < 50; ++i) {
      const std::uint64_t f = rng() & lowMask(len);
      const std::uint64_t tiles = cuda::tilesFromKey(f, len);
      // Bit j of the tiles is logical column j: the field's bit len - 1 - j.
      for (std::uint64_t j = 0; j < 64; ++j) {
        const std::uint64_t want = j < len ? (f >> (len - 1 - j)) & 1 : 0;
        ASSERT_EQ((tiles >> j) & 1, want) << "len " << len << " column " << j;
      }
      const auto lo = static_cast<std::uint32_t>(tiles);
      const auto hi = static_cast<std::uint32_t>(tiles >> 32);
      ASSERT_EQ(cuda::keyFromTiles(lo, hi, len), f) << "len " << len;
    }
  }
}

TEST(SortBits, LogicalColumnsAreAPermutation) {
  for (std::uint64_t cols : {1u, 5u, 40u, 130u}) {
    for (std::uint64_t first = 0; first < cols; first += 3) {
      for (std::uint64_t len = 1; first + len <= cols && len <= 64; len += 7) {
        std::vector<bool> seen(cols);
        for (std::uint64_t c = 0; c < cols; ++c) {
          const std::uint64_t p = cuda::physicalColumn(c, first, len);
          ASSERT_LT(p, cols);
          ASSERT_FALSE(seen[p]);
          seen[p] = true;
          if (c < len) {
            ASSERT_EQ(p, first + c);
          }
        }
        // The other columns keep their order.
        std::uint64_t previous = 0;
        for (std::uint64_t c = len; c < cols; ++c) {
          const std::uint64_t p = cuda::physicalColumn(c, first, len);
          if (c > len) {
            ASSERT_GT(p, previous);
          }
          previous = p;
        }
      }
    }
  }
}

// ---- where a sort across GPUs cuts the runs (SortSplit.h), on the host ------------------------

// The oracle: the stable merge of the runs (run order on equal keys), counted per run.
std::vector<std::uint64_t> takenBy(const std::vector<std::vector<std::uint64_t>>& runs,
                                   std::uint64_t r) {
  std::vector<std::pair<std::uint64_t, std::size_t>> all;
  for (std::size_t g = 0; g < runs.size(); ++g)
    for (std::uint64_t k : runs[g]) all.push_back({k, g});
  std::stable_sort(all.begin(), all.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::uint64_t> take(runs.size(), 0);
  for (std::uint64_t i = 0; i < r; ++i) ++take[all[i].second];
  return take;
}

cuda::RunRanks ranksOf(const std::vector<std::vector<std::uint64_t>>& runs,
                       const std::vector<std::uint64_t>& probes) {
  cuda::RunRanks ranks(runs.size());
  for (std::size_t g = 0; g < runs.size(); ++g)
    for (std::uint64_t p : probes) {
      const auto& run = runs[g];
      ranks[g].push_back(
          {static_cast<std::uint64_t>(std::lower_bound(run.begin(), run.end(), p) - run.begin()),
           static_cast<std::uint64_t>(std::upper_bound(run.begin(), run.end(), p) - run.begin())});
    }
  return ranks;
}

TEST(SortSplit, CutsTheStableMergeAtEveryBoundary) {
  std::mt19937_64 rng(29);
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t k = 1 + rng() % 5;
    const int bits = trial % 4 == 0 ? 64 : 1 + static_cast<int>(rng() % 20);
    const std::uint64_t maxKey = lowMask(static_cast<std::uint64_t>(bits));
    const std::uint64_t distinct = 1 + rng() % 40;  // few keys: many ties across the runs
    std::vector<std::uint64_t> keys(distinct);
    for (auto& key : keys) key = rng() & maxKey;
    keys.push_back(0);
    keys.push_back(maxKey);
    std::vector<std::vector<std::uint64_t>> runs(k);
    std::uint64_t total = 0;
    for (auto& run : runs) {
      run.resize(rng() % 4 == 0 ? 0 : rng() % 60);
      for (auto& key : run) key = keys[rng() % keys.size()];
      std::sort(run.begin(), run.end());
      total += run.size();
    }
    std::vector<std::uint64_t> boundaries;
    for (std::uint64_t r = 0; r <= total; ++r) boundaries.push_back(r);
    int rounds = 0;
    const auto take =
        cuda::splitSortedRuns(boundaries, maxKey, [&](const std::vector<std::uint64_t>& p) {
          ++rounds;
          return ranksOf(runs, p);
        });
    ASSERT_EQ(take.size(), boundaries.size());
    for (std::size_t b = 0; b < boundaries.size(); ++b)
      ASSERT_EQ(take[b], takenBy(runs, boundaries[b]))
          << "trial " << trial << ", rank " << boundaries[b];
    EXPECT_LE(rounds, bits + 1);  // a binary search on the key, all boundaries at once
  }
}

TEST(SortSplit, NoBoundariesAskNothing) {
  int rounds = 0;
  const auto take = cuda::splitSortedRuns({}, 255, [&](const std::vector<std::uint64_t>&) {
    ++rounds;
    return cuda::RunRanks{};
  });
  EXPECT_TRUE(take.empty());
  EXPECT_EQ(rounds, 0);
}

// ---- the table path, through the Backend interface
// -------------------------------------------------

class CudaSortTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!cudaBackendAvailable(&why)) GTEST_SKIP() << "no usable CUDA device: " << why;
    gpu_ = makeCudaBackend();
  }

  // Sorts t on the GPU (SEGSORT when heads is given) and returns the table read back; x and heads
  // must come back unchanged.
  HostTable run(const HostTable& t, const Words& x, const Words* heads, std::uint64_t first,
                std::uint64_t len, KeyKind kind, bool descending, bool heads_is_x = false) {
    Backend& b = *gpu_;
    const Handle th = b.createTable();
    const Handle xh = b.createBits();
    b.writeTable(th, t.rows, t.cols, t.words.data());
    b.writeBits(xh, t.rows, x.data());
    Handle hh = kNoHandle;
    if (heads != nullptr) {
      hh = heads_is_x ? xh : b.createBits();
      if (!heads_is_x) b.writeBits(hh, t.rows, heads->data());
    }
    const bool native =
        heads != nullptr ? b.nativeKernels()->segsortRows(th, xh, hh, first, len, kind, descending)
                         : b.nativeKernels()->sortRows(th, xh, first, len, kind, descending);
    EXPECT_TRUE(native) << "the CUDA backend declined";
    HostTable out(t.rows, t.cols);
    b.readTable(th, out.words);
    Words back;
    b.readBits(xh, back);
    EXPECT_EQ(back, x) << "X changed";
    if (heads != nullptr && !heads_is_x) {
      b.readBits(hh, back);
      EXPECT_EQ(back, *heads) << "the heads changed";
      b.destroy(hh);
    }
    b.destroy(xh);
    b.destroy(th);
    return out;
  }

  void check(const Case& c, std::uint64_t seed) {
    SCOPED_TRACE(c.describe());
    Inputs in(seed);
    const HostTable t = in.table(c);
    const Words x = in.marks(c.rows, c.marks);
    const Words heads = in.heads(c.rows, c.groups);
    const Words* h = c.groups == Groups::None ? nullptr : &heads;
    const HostTable want = oracle(t, x, h, c.first, c.len, c.kind, c.descending);
    const HostTable got = run(t, x, h, c.first, c.len, c.kind, c.descending);
    EXPECT_TRUE(sameTable(want, got));
  }

  std::unique_ptr<Backend> gpu_;
};

// The key field's place and width, and the other columns: none, one 32-bit tile, two tiles, more
// than 64 columns (the row-major route).
struct Shape {
  std::uint64_t cols, first, len;
};
constexpr Shape kShapes[] = {{1, 0, 1},    {8, 2, 5},    {32, 0, 32},   {64, 0, 64}, {45, 5, 13},
                             {64, 0, 32},  {60, 10, 20}, {96, 32, 32},  {40, 3, 33}, {70, 0, 64},
                             {64, 10, 33}, {110, 5, 50}, {100, 50, 20}, {150, 1, 64}};

KeyKind kindFor(std::uint64_t len, std::uint64_t pick) {
  if ((len == 32 || len == 64) && pick % 3 == 2) return KeyKind::Float;
  return pick % 2 == 0 ? KeyKind::Unsigned : KeyKind::Signed;
}

// One GPU's part of a sort across GPUs (SortShard.h) with the runs it would receive made here:
// the block's records, sorted on the GPU, dealt into five runs (each stays sorted; the third is
// empty; equal keys land in different runs), merged and written back. The result must be the
// stable merge: the marked rows by key, equal keys in run order, then in sorted order — a merge
// tree of three levels with an empty run and an odd one, on any one GPU.
TEST_F(CudaSortTest, ShardMergesDealtRunsStably) {
  std::mt19937_64 rng(31);
  for (const auto& [rows, cols, len] :
       {std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>{5000, 20, 6},
        {70000, 45, 40},
        {3000, 8, 8}}) {
    SCOPED_TRACE("table " + std::to_string(rows) + "x" + std::to_string(cols) + ", key " +
                 std::to_string(len));
    HostTable t(rows, cols);
    for (auto& w : t.words) w = rng();
    const std::uint64_t tail = rows % 64 == 0 ? ~0ull : (1ull << (rows % 64)) - 1;
    for (std::uint64_t c = 0; c < cols; ++c) t.words[c * t.perCol() + t.perCol() - 1] &= tail;
    Words x(wordsForBits(rows));
    for (auto& w : x) w = rng() | rng();
    x.back() &= tail;
    Backend& b = *gpu_;
    const Handle th = b.createTable();
    const Handle xh = b.createBits();
    b.writeTable(th, rows, cols, t.words.data());
    b.writeBits(xh, rows, x.data());
    cuda::DeviceContext& ctx = *cudaContextOf(b);
    cuda::SortShard shard(ctx, cudaDataOf(b, th), rows, cols, cudaDataOf(b, xh), 0, len,
                          KeyKind::Unsigned, false);
    shard.queueCount();
    const std::uint64_t m = shard.marked();
    shard.sortLocal();
    ctx.synchronize();  // (the copies below are on another stream)
    // The host's stable order of the marked rows, and each one's run.
    std::vector<std::uint64_t> order;
    for (std::uint64_t r = 0; r < rows; ++r)
      if (bitOf(x, r)) order.push_back(r);
    ASSERT_EQ(order.size(), m);
    std::stable_sort(order.begin(), order.end(), [&](std::uint64_t p, std::uint64_t q) {
      return t.field(p, 0, len) < t.field(q, 0, len);
    });
    std::vector<int> run(m);
    for (auto& g : run) g = static_cast<int>(rng() % 4);
    for (auto& g : run) g += g >= 2 ? 1 : 0;  // runs 0, 1, 3, 4: run 2 stays empty
    // The sorted records, dealt into the runs in order (bytes: the records' layout is the shard's).
    const unsigned kb = shard.keyBytes(), vb = shard.valueBytes();
    std::vector<char> keys(m * kb), values(m * vb), inKeys, inValues;
    ASSERT_EQ(cudaMemcpy(keys.data(), shard.sortedKeys(), keys.size(), cudaMemcpyDeviceToHost),
              cudaSuccess);
    if (vb > 0) {
      ASSERT_EQ(
          cudaMemcpy(values.data(), shard.sortedValues(), values.size(), cudaMemcpyDeviceToHost),
          cudaSuccess);
    }
    std::vector<std::uint64_t> lengths(5, 0), dealt;
    for (int g = 0; g < 5; ++g)
      for (std::uint64_t i = 0; i < m; ++i) {
        if (run[i] != g) continue;
        ++lengths[static_cast<std::size_t>(g)];
        dealt.push_back(order[i]);
        inKeys.insert(inKeys.end(), keys.begin() + i * kb, keys.begin() + (i + 1) * kb);
        inValues.insert(inValues.end(), values.begin() + i * vb, values.begin() + (i + 1) * vb);
      }
    ASSERT_EQ(
        cudaMemcpy(shard.incomingKeys(), inKeys.data(), inKeys.size(), cudaMemcpyHostToDevice),
        cudaSuccess);
    if (vb > 0) {
      ASSERT_EQ(cudaMemcpy(shard.incomingValues(), inValues.data(), inValues.size(),
                           cudaMemcpyHostToDevice),
                cudaSuccess);
    }
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);  // the uploads, before the merge's stream
    shard.merge(lengths);
    shard.writeBack();
    // Expected: the dealt rows stably sorted by key (so equal keys in run order).
    std::stable_sort(dealt.begin(), dealt.end(), [&](std::uint64_t p, std::uint64_t q) {
      return t.field(p, 0, len) < t.field(q, 0, len);
    });
    HostTable want = t;
    std::uint64_t k = 0;
    for (std::uint64_t r = 0; r < rows; ++r) {
      if (!bitOf(x, r)) continue;
      for (std::uint64_t c = 0; c < cols; ++c) want.set(r, c, t.get(dealt[k], c));
      ++k;
    }
    HostTable got(rows, cols);
    b.readTable(th, got.words);
    EXPECT_TRUE(sameTable(want, got));
    b.destroy(xh);
    b.destroy(th);
  }
}

TEST_F(CudaSortTest, SweepOfShapesAndSizes) {
  const std::uint64_t sizes[] = {1,    2,    63,   64,   65,    127,   1000,
                                 2047, 2048, 2049, 4096, 10007, 100000};
  std::mt19937_64 pick(2024);
  std::uint64_t seed = 1;
  for (std::uint64_t rows : sizes) {
    for (const Shape& s : kShapes) {
      for (Groups g : {Groups::None, Groups::Mixed}) {
        const Keys keys[] = {Keys::Random, Keys::FewValues, Keys::Ascending, Keys::Descending};
        const Marks marks[] = {Marks::All, Marks::Half, Marks::Sparse};
        Case c{rows,
               s.cols,
               s.first,
               s.len,
               kindFor(s.len, pick()),
               pick() % 2 == 0,
               keys[pick() % std::size(keys)],
               marks[pick() % std::size(marks)],
               g};
        check(c, seed++);
      }
    }
  }
}

TEST_F(CudaSortTest, EveryKeyKindWidthAndPattern) {
  std::uint64_t seed = 100;
  for (std::uint64_t rows : {1500u, 5000u}) {  // the short path and the long one
    for (std::uint64_t len : {1u, 16u, 32u, 33u, 64u}) {
      for (KeyKind kind : {KeyKind::Unsigned, KeyKind::Signed, KeyKind::Float}) {
        if (kind == KeyKind::Float && len != 32 && len != 64) continue;
        for (bool descending : {false, true}) {
          for (Keys keys :
               {Keys::Random, Keys::FewValues, Keys::AllEqual, Keys::Ascending, Keys::Descending}) {
            for (Groups g : {Groups::None, Groups::RandomHeads}) {
              check({rows, len + 9, 4, len, kind, descending, keys, Marks::Half, g}, seed++);
            }
          }
        }
      }
    }
  }
}

TEST_F(CudaSortTest, SpecialFloats) {
  std::uint64_t seed = 300;
  for (std::uint64_t rows : {100u, 5000u, 100000u}) {
    for (std::uint64_t len : {32u, 64u}) {
      for (bool descending : {false, true}) {
        for (Groups g : {Groups::None, Groups::Mixed}) {
          for (Marks m : {Marks::All, Marks::Half}) {
            check({rows, len + 20, 7, len, KeyKind::Float, descending, Keys::Specials, m, g},
                  seed++);
          }
        }
      }
    }
  }
}

TEST_F(CudaSortTest, EmptyAndFullControlSlice) {
  std::uint64_t seed = 400;
  for (std::uint64_t rows : {1u, 64u, 65u, 2048u, 2049u, 70000u}) {
    for (Marks m : {Marks::None, Marks::All}) {
      for (Groups g : {Groups::None, Groups::Small, Groups::One}) {
        check({rows, 40, 8, 32, KeyKind::Signed, false, Keys::Random, m, g}, seed++);
      }
    }
  }
}

TEST_F(CudaSortTest, EmptyControlSliceLeavesTheTableAlone) {
  Inputs in(7);
  const Case c{100000, 70,           3,           40,          KeyKind::Unsigned,
               false,  Keys::Random, Marks::None, Groups::None};
  const HostTable t = in.table(c);
  const Words x = in.marks(c.rows, Marks::None);
  EXPECT_TRUE(sameTable(t, run(t, x, nullptr, c.first, c.len, c.kind, false)));
  const Words heads = in.heads(c.rows, Groups::Small);
  EXPECT_TRUE(sameTable(t, run(t, x, &heads, c.first, c.len, c.kind, false)));
}

TEST_F(CudaSortTest, GroupsOfEverySizeClass) {
  std::uint64_t seed = 500;
  for (Groups g : {Groups::Singles, Groups::Small, Groups::Warp, Groups::Block, Groups::Long,
                   Groups::Mixed, Groups::One, Groups::RandomHeads}) {
    for (Marks m : {Marks::All, Marks::Half, Marks::Sparse}) {
      for (std::uint64_t len : {20u, 64u}) {
        check({300007, len + 12, 6, len, KeyKind::Unsigned, seed % 2 == 0, Keys::FewValues, m, g},
              seed);
        ++seed;
      }
    }
  }
}

TEST_F(CudaSortTest, LargeTables) {
  const std::uint64_t rows = std::uint64_t{1} << 20;
  // A 32-bit key with a 32-bit payload, everything marked (the benchmark's shape).
  check({rows, 64, 0, 32, KeyKind::Unsigned, false, Keys::Random, Marks::All, Groups::None}, 600);
  // A 48-bit signed key inside 150 columns (the row-major route), half marked, descending.
  check({rows + 37, 150, 40, 48, KeyKind::Signed, true, Keys::FewValues, Marks::Half, Groups::None},
        601);
  check({rows + 37, 40, 2, 32, KeyKind::Float, false, Keys::Specials, Marks::Half, Groups::Mixed},
        602);
  check({rows, 64, 0, 32, KeyKind::Unsigned, false, Keys::Random, Marks::All, Groups::Small}, 603);
}

// So many possible long groups that the segmented sort asks for their number (> 300 possible),
// and one group spanning the whole table through SEGSORT.
TEST_F(CudaSortTest, ManyLongGroupsAndOneGroup) {
  check({std::uint64_t{1} << 20, 40, 0, 32, KeyKind::Unsigned, false, Keys::FewValues, Marks::All,
         Groups::Long},
        700);
  check({100000, 40, 0, 32, KeyKind::Unsigned, true, Keys::Random, Marks::Half, Groups::One}, 701);
  check({std::uint64_t{1} << 20, 33, 0, 33, KeyKind::Unsigned, false, Keys::Random, Marks::Half,
         Groups::One},
        702);
}

TEST_F(CudaSortTest, HeadsMayBeTheControlSlice) {
  Inputs in(800);
  for (std::uint64_t rows : {1000u, 50000u}) {
    const Case c{rows,  30,           0,           24,          KeyKind::Unsigned,
                 false, Keys::Random, Marks::Half, Groups::None};
    const HostTable t = in.table(c);
    const Words x = in.marks(rows, Marks::Half);
    const HostTable want = oracle(t, x, &x, 0, 24, KeyKind::Unsigned, false);
    EXPECT_TRUE(sameTable(want, run(t, x, &x, 0, 24, KeyKind::Unsigned, false, true)))
        << "rows " << rows;
  }
}

// Two sorts queued back to back, read once: the second sees the first's result.
TEST_F(CudaSortTest, QueuedSortsRunInOrder) {
  Inputs in(900);
  for (std::uint64_t rows : {1000u, 80000u}) {
    const Case c{rows,       48,          0, 16, KeyKind::Unsigned, false, Keys::FewValues,
                 Marks::All, Groups::None};
    const HostTable t = in.table(c);
    const Words x = in.marks(rows, Marks::Half);
    const HostTable want = oracle(oracle(t, x, nullptr, 0, 16, KeyKind::Unsigned, false), x,
                                  nullptr, 16, 32, KeyKind::Signed, true);
    Backend& b = *gpu_;
    const Handle th = b.createTable();
    const Handle xh = b.createBits();
    b.writeTable(th, rows, c.cols, t.words.data());
    b.writeBits(xh, rows, x.data());
    EXPECT_TRUE(b.nativeKernels()->sortRows(th, xh, 0, 16, KeyKind::Unsigned, false));
    EXPECT_TRUE(b.nativeKernels()->sortRows(th, xh, 16, 32, KeyKind::Signed, true));
    HostTable got(rows, c.cols);
    b.readTable(th, got.words);
    EXPECT_TRUE(sameTable(want, got)) << "rows " << rows;
    b.destroy(xh);
    b.destroy(th);
  }
}

// ---- the array entry point
// ------------------------------------------------------------------------

template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(const std::vector<T>& host) : n_(host.size()) {
    void* p = nullptr;
    EXPECT_EQ(cudaMalloc(&p, std::max<std::size_t>(n_, 1) * sizeof(T)), cudaSuccess);
    p_ = static_cast<T*>(p);
    EXPECT_EQ(cudaMemcpy(p_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~DeviceArray() { cudaFree(p_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return p_; }
  std::vector<T> read() const {
    std::vector<T> host(n_);
    EXPECT_EQ(cudaMemcpy(host.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return host;
  }

 private:
  T* p_ = nullptr;
  std::size_t n_;
};

template <class T>
std::uint64_t bitsOf(T v) {
  if constexpr (sizeof(T) == 4) {
    return std::bit_cast<std::uint32_t>(v);
  } else {
    return std::bit_cast<std::uint64_t>(v);
  }
}

// The array entry point orders floats as CUB's radix sorts do: totalOrder with -0 equal to +0.
template <class Key>
bool arrayKeyLess(Key a, Key b) {
  if constexpr (std::is_same_v<Key, float>) {
    auto zero = [](std::uint64_t bits) { return bits == 0x80000000u ? 0 : bits; };
    return floatLess(zero(bitsOf(a)), zero(bitsOf(b)), 32);
  } else {
    return a < b;
  }
}

class CudaSegmentedArrayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!cudaBackendAvailable(&why)) GTEST_SKIP() << "no usable CUDA device: " << why;
    ctx_ = std::make_unique<cuda::DeviceContext>();
  }

  // Segments from `sizes` starting at `lead`, `tail` items after them outside every segment.
  template <class Key, class Value>
  void check(const std::vector<std::uint64_t>& sizes, std::uint64_t lead, std::uint64_t tail,
             bool device_count, std::uint64_t max_segment, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::uint32_t> offsets{static_cast<std::uint32_t>(lead)};
    for (std::uint64_t s : sizes) offsets.push_back(offsets.back() + static_cast<std::uint32_t>(s));
    const std::uint64_t n = offsets.back() + tail;
    std::vector<Key> keys(n);
    std::vector<Value> values(n);
    const std::vector<std::uint64_t> specials = specialFloats(32);
    for (std::uint64_t i = 0; i < n; ++i) {
      if constexpr (std::is_same_v<Key, float>) {
        const std::uint32_t b =
            rng() % 4 == 0 ? static_cast<std::uint32_t>(specials[rng() % specials.size()])
                           : std::bit_cast<std::uint32_t>(static_cast<float>(rng() % 64) - 20.0f);
        keys[i] = std::bit_cast<float>(b);
      } else {
        keys[i] = static_cast<Key>(rng() % 3 == 0 ? rng() % 16 : rng());
      }
      values[i] = static_cast<Value>(i * 3 + 1);
    }
    // Outputs start as a pattern that positions outside the segments must keep.
    std::vector<Key> keyFill(n);
    std::vector<Value> valueFill(n, static_cast<Value>(0xABABABABABABABABull));
    std::memset(keyFill.data(), 0xCD, n * sizeof(Key));
    DeviceArray<Key> dk(keys), dkOut(keyFill);
    DeviceArray<Value> dv(values), dvOut(valueFill);
    DeviceArray<std::uint32_t> doff(offsets);
    const std::vector<std::uint32_t> count{static_cast<std::uint32_t>(sizes.size())};
    DeviceArray<std::uint32_t> dcount(count);
    // With a device count, the host's number is only a bound.
    const std::uint64_t host_segments = device_count ? sizes.size() + 17 : sizes.size();
    std::vector<std::uint32_t> padded = offsets;
    padded.resize(host_segments + 1, offsets.back());
    DeviceArray<std::uint32_t> dpadded(padded);
    cuda::segmentedSortPairs<Key, Value>(*ctx_, dk.get(), dkOut.get(), dv.get(), dvOut.get(), n,
                                         host_segments, device_count ? dpadded.get() : doff.get(),
                                         device_count ? dcount.get() : nullptr, max_segment);
    ctx_->synchronize();
    const std::vector<Key> got_keys = dkOut.read();
    const std::vector<Value> got_values = dvOut.read();

    std::vector<Key> want_keys = keyFill;
    std::vector<Value> want_values = valueFill;
    for (std::size_t s = 0; s < sizes.size(); ++s) {
      std::vector<std::uint64_t> idx(sizes[s]);
      std::iota(idx.begin(), idx.end(), offsets[s]);
      std::stable_sort(idx.begin(), idx.end(), [&](std::uint64_t a, std::uint64_t b) {
        return arrayKeyLess(keys[a], keys[b]);
      });
      for (std::size_t i = 0; i < idx.size(); ++i) {
        want_keys[offsets[s] + i] = keys[idx[i]];
        want_values[offsets[s] + i] = values[idx[i]];
      }
    }
    for (std::uint64_t i = 0; i < n; ++i) {
      ASSERT_EQ(bitsOf(got_keys[i]), bitsOf(want_keys[i])) << "key at " << i << " of " << n;
      ASSERT_EQ(got_values[i], want_values[i]) << "value at " << i << " of " << n;
    }
  }

  std::vector<std::uint64_t> sizes(std::uint64_t count, std::uint64_t lo, std::uint64_t hi,
                                   std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::uint64_t> v(count);
    for (auto& s : v) s = lo + rng() % (hi - lo + 1);
    return v;
  }

  std::unique_ptr<cuda::DeviceContext> ctx_;
};

TEST_F(CudaSegmentedArrayTest, ShortSegmentsOnly) {
  check<float, std::uint32_t>(sizes(20000, 1, 32, 1), 0, 0, false, 32, 1);
  check<float, std::uint32_t>(sizes(20000, 0, 32, 2), 5, 9, false, 32, 2);  // empty segments
  check<std::uint32_t, std::uint64_t>(sizes(3000, 1, 32, 3), 40, 3, true, 32, 3);
}

TEST_F(CudaSegmentedArrayTest, EveryClassMixed) {
  std::vector<std::uint64_t> mix;
  std::mt19937_64 rng(4);
  const std::uint64_t bounds[][2] = {{0, 0}, {1, 1}, {2, 32}, {33, 256}, {257, 2048}, {2049, 5000}};
  for (int i = 0; i < 600; ++i) {
    const auto& b = bounds[rng() % std::size(bounds)];
    mix.push_back(b[0] + rng() % (b[1] - b[0] + 1));
  }
  check<float, std::uint32_t>(mix, 0, 0, false, 5000, 5);
  check<std::uint64_t, std::uint64_t>(mix, 77, 100, true, 1u << 30, 6);
  check<std::uint32_t, std::uint32_t>(mix, 3, 0, false, 5000, 7);
  check<std::uint64_t, std::uint32_t>(mix, 0, 31, true, 5000, 8);
  check<std::uint32_t, std::uint64_t>(mix, 1, 1, false, 5000, 9);
}

TEST_F(CudaSegmentedArrayTest, TheBenchmarkClasses) {
  check<float, std::uint32_t>(sizes(20000, 30, 120, 10), 0, 0, false, 120, 10);
  check<float, std::uint32_t>(sizes(5000, 100, 256, 11), 0, 0, false, 256, 11);
  check<float, std::uint32_t>(sizes(2000, 257, 2048, 12), 0, 0, false, 2048, 12);
}

// Long segments: few possible (CUB without a wait) and many possible (the count is read first).
TEST_F(CudaSegmentedArrayTest, LongSegments) {
  check<float, std::uint32_t>({5000, 3, 70000, 2049}, 0, 0, false, 70000, 13);
  check<std::uint32_t, std::uint32_t>(sizes(400, 2049, 9000, 14), 0, 0, false, 9000, 14);
  // Possible long segments (num_items / 2049) well over 300, but none there.
  check<std::uint32_t, std::uint32_t>(sizes(40000, 1, 40, 15), 0, 0, false, 1u << 30, 15);
}

}  // namespace
}  // namespace star
