// Tests of every CPU backend primitive against the naive model in support/NaiveBits.h, on random
// inputs with fixed seeds and lengths around the 64-bit word boundaries.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>
#include <utility>
#include <vector>

#include "core/Interrupt.h"
#include "runtime-cpu/CpuBackend.h"
#include "tests/unit/support/AllocationCounter.h"
#include "tests/unit/support/NaiveBits.h"
#include "vm/backend/NativeKernels.h"

namespace star {
namespace {

using naive::Bits;

constexpr std::size_t kLengths[] = {0, 1, 2, 63, 64, 65, 127, 128, 129, 200, 1000};
constexpr double kDensities[] = {0.5, 0.02, 0.0, 1.0};
constexpr std::pair<std::size_t, std::size_t> kShapes[] = {
    {1, 1}, {1, 130}, {65, 1}, {65, 130}, {0, 3}, {3, 0}, {64, 64}, {129, 65}, {200, 70}};

class CpuBackendTest : public ::testing::Test {
 protected:
  Handle make(const Bits& b) {
    const Handle h = be->createBits();
    naive::upload(*be, h, b);
    return h;
  }
  Handle makeTable(const naive::Table& t) {
    const Handle h = be->createTable();
    naive::uploadTable(*be, h, t);
    return h;
  }
  Bits random(std::size_t n, double density = 0.5) { return naive::randomBits(rng, n, density); }
  std::size_t below(std::size_t n) {  // uniform in [0, n]
    return std::uniform_int_distribution<std::size_t>(0, n)(rng);
  }

  // Checks contents, length and that the unused high bits of the last element are 0.
  void expectBits(Handle h, const Bits& want) {
    std::vector<std::uint64_t> w;
    be->readBits(h, w);
    EXPECT_EQ(be->length(h), want.size());
    ASSERT_TRUE(naive::tailClear(w, want.size())) << "wrong size or unused high bits set";
    EXPECT_EQ(naive::unpack(w.data(), want.size()), want);
  }

  void expectTable(Handle h, const naive::Table& want) {
    EXPECT_EQ(be->rows(h), want.rows);
    EXPECT_EQ(be->cols(h), want.cols);
    std::vector<std::uint64_t> w;
    be->readTable(h, w);
    ASSERT_EQ(w.size(), want.cols * wordsForBits(want.rows));
    for (std::size_t j = 0; j < want.cols; ++j) {
      const std::size_t wpc = wordsForBits(want.rows);
      const std::vector<std::uint64_t> col(w.begin() + j * wpc, w.begin() + (j + 1) * wpc);
      EXPECT_TRUE(naive::tailClear(col, want.rows)) << "column " << j;
    }
    EXPECT_EQ(naive::downloadTable(*be, h), want);
  }

  std::unique_ptr<Backend> be = makeCpuBackend();
  std::mt19937_64 rng{20240601};
};

TEST_F(CpuBackendTest, NameAndDevice) {
  EXPECT_EQ(be->name(), "cpu");
  EXPECT_FALSE(be->device().empty());
}

TEST_F(CpuBackendTest, CreatedEmpty) {
  const Handle v = be->createBits();
  const Handle t = be->createTable();
  EXPECT_NE(v, kNoHandle);
  EXPECT_NE(t, kNoHandle);
  EXPECT_NE(v, t);
  EXPECT_EQ(be->length(v), 0u);
  EXPECT_EQ(be->rows(t), 0u);
  EXPECT_EQ(be->cols(t), 0u);
  expectBits(v, {});
}

TEST_F(CpuBackendTest, HandlesReusedAfterDestroy) {
  const Handle a = be->createBits();
  const Handle b = be->createTable();
  const Handle c = be->createBits();
  be->resizeTable(b, 100, 10);
  be->destroy(b);
  const Handle d = be->createBits();  // a table's handle comes back as a bit vector
  EXPECT_EQ(d, b);
  EXPECT_EQ(be->length(d), 0u);
  be->destroy(a);
  be->destroy(c);
  const Handle e = be->createTable();
  const Handle f = be->createTable();
  EXPECT_TRUE((e == a && f == c) || (e == c && f == a));
  EXPECT_EQ(be->rows(e), 0u);
  EXPECT_EQ(be->cols(e), 0u);
  EXPECT_NE(be->createBits(), kNoHandle);
}

TEST_F(CpuBackendTest, ResizeBitsZeroFills) {
  for (std::size_t n : kLengths) {
    SCOPED_TRACE(n);
    const Handle v = make(random(n, 1.0));
    for (std::size_t m : {n, n / 2, n + 70, std::size_t{0}}) {
      be->fill(v, true);
      be->resizeBits(v, m);
      expectBits(v, Bits(m));
    }
  }
}

TEST_F(CpuBackendTest, ResizeTableZeroFills) {
  const Handle t = be->createTable();
  for (auto [r, c] : kShapes) {
    SCOPED_TRACE(::testing::Message() << r << "x" << c);
    naive::uploadTable(*be, t, naive::randomTable(rng, r, c));
    be->resizeTable(t, r, c);
    expectTable(t, naive::Table{r, c, std::vector<Bits>(c, Bits(r))});
  }
}

TEST_F(CpuBackendTest, WriteReadBitsRoundTrip) {
  for (std::size_t n : kLengths) {
    SCOPED_TRACE(n);
    const Bits b = random(n);
    expectBits(make(b), b);
    // Stray bits above the length in the input do not leak into storage.
    std::vector<std::uint64_t> w = naive::pack(b);
    if (n % 64 != 0) w.back() |= ~std::uint64_t{0} << (n % 64);
    const Handle h = be->createBits();
    be->writeBits(h, n, w.data());
    expectBits(h, b);
  }
}

TEST_F(CpuBackendTest, WriteReadTableRoundTrip) {
  const Handle t = be->createTable();
  for (auto [r, c] : kShapes) {
    SCOPED_TRACE(::testing::Message() << r << "x" << c);
    const naive::Table want = naive::randomTable(rng, r, c);
    naive::uploadTable(*be, t, want);
    expectTable(t, want);
  }
}

TEST_F(CpuBackendTest, Fill) {
  for (std::size_t n : kLengths) {
    SCOPED_TRACE(n);
    const Handle v = make(random(n));
    be->fill(v, true);
    expectBits(v, Bits(n, true));
    EXPECT_EQ(be->count(v), n);
    be->fill(v, false);
    expectBits(v, Bits(n, false));
  }
}

TEST_F(CpuBackendTest, CopyBits) {
  for (std::size_t n : kLengths) {
    SCOPED_TRACE(n);
    const Bits a = random(n);
    const Handle src = make(a);
    const Handle longer = make(random(n + 100, 1.0));
    const Handle shorter = make(random(n / 3, 1.0));
    be->copyBits(longer, src);
    expectBits(longer, a);
    be->copyBits(shorter, src);
    expectBits(shorter, a);
    be->copyBits(src, src);
    expectBits(src, a);
  }
}

TEST_F(CpuBackendTest, Bitwise) {
  for (BitOp op : {BitOp::And, BitOp::Or, BitOp::Xor}) {
    for (std::size_t n : kLengths) {
      for (double density : kDensities) {
        SCOPED_TRACE(::testing::Message() << "op " << int(op) << " n " << n << " p " << density);
        const Bits a = random(n, density), b = random(n);
        const Bits want = naive::bitwise(op, a, b);
        const Handle ha = make(a), hb = make(b), hd = make(random(7));
        be->bitwise(op, hd, ha, hb);
        expectBits(hd, want);
        be->bitwise(op, ha, ha, hb);  // dst == a
        expectBits(ha, want);
        naive::upload(*be, ha, a);
        be->bitwise(op, hb, ha, hb);  // dst == b
        expectBits(hb, want);
        naive::upload(*be, hb, b);
        be->bitwise(op, hb, hb, hb);  // dst == a == b
        expectBits(hb, naive::bitwise(op, b, b));
      }
    }
  }
}

TEST_F(CpuBackendTest, BitNot) {
  for (std::size_t n : kLengths) {
    for (double density : kDensities) {
      SCOPED_TRACE(::testing::Message() << n << " " << density);
      const Bits a = random(n, density);
      const Handle ha = make(a), hd = be->createBits();
      be->bitNot(hd, ha);
      expectBits(hd, naive::bitNot(a));
      be->bitNot(ha, ha);
      expectBits(ha, naive::bitNot(a));
    }
  }
}

TEST_F(CpuBackendTest, FirstOnly) {
  for (std::size_t n : kLengths) {
    for (double density : kDensities) {
      SCOPED_TRACE(::testing::Message() << n << " " << density);
      const Bits a = random(n, density);
      const Handle ha = make(a), hd = make(random(n + 3));
      be->firstOnly(hd, ha);
      expectBits(hd, naive::firstOnly(a));
      be->firstOnly(ha, ha);
      expectBits(ha, naive::firstOnly(a));
    }
  }
}

TEST_F(CpuBackendTest, GetSetBit) {
  for (std::size_t n : kLengths) {
    SCOPED_TRACE(n);
    Bits a = random(n);
    const Handle h = make(a);
    for (int k = 0; k < 50 && n > 0; ++k) {
      const std::size_t i = below(n - 1);
      const bool bit = rng() & 1;
      be->setBit(h, i, bit);
      a[i] = bit;
      const std::size_t j = below(n - 1);
      EXPECT_EQ(be->getBit(h, j), a[j]) << j;
    }
    if (n > 0) {  // both ends
      be->setBit(h, 0, true);
      be->setBit(h, n - 1, true);
      a[0] = a[n - 1] = true;
      EXPECT_TRUE(be->getBit(h, 0));
      EXPECT_TRUE(be->getBit(h, n - 1));
    }
    expectBits(h, a);
  }
}

TEST_F(CpuBackendTest, FindFirstCountAny) {
  for (std::size_t n : kLengths) {
    for (double density : kDensities) {
      SCOPED_TRACE(::testing::Message() << n << " " << density);
      const Bits a = random(n, density);
      const Handle h = make(a);
      EXPECT_EQ(be->findFirst(h), naive::findFirst(a));
      EXPECT_EQ(be->count(h), naive::count(a));
      EXPECT_EQ(be->any(h), naive::count(a) > 0);
      expectBits(h, a);  // unchanged
    }
    if (n > 0) {  // a single 1 at the last index
      Bits a(n);
      a[n - 1] = true;
      const Handle h = make(a);
      EXPECT_EQ(be->findFirst(h), static_cast<std::int64_t>(n - 1));
      EXPECT_TRUE(be->any(h));
    }
  }
}

TEST_F(CpuBackendTest, StepDrainsInOrder) {
  for (std::size_t n : kLengths) {
    for (double density : kDensities) {
      SCOPED_TRACE(::testing::Message() << n << " " << density);
      Bits a = random(n, density);
      const Handle h = make(a);
      for (std::int64_t want = naive::findFirst(a); want >= 0; want = naive::findFirst(a)) {
        ASSERT_EQ(be->step(h), want);
        a[static_cast<std::size_t>(want)] = false;
      }
      EXPECT_EQ(be->step(h), -1);
      expectBits(h, Bits(n));
    }
  }
  EXPECT_EQ(be->step(be->createBits()), -1);  // empty vector
}

TEST_F(CpuBackendTest, Trim) {
  for (std::size_t n : kLengths) {
    const Bits w = random(n);
    const Handle hw = make(w), hd = make(random(5));
    std::vector<std::pair<std::size_t, std::size_t>> cases = {{0, n}, {0, 0}, {n, 0}};
    for (int k = 0; k < 40; ++k) {
      const std::size_t len = below(n);
      cases.push_back({0, len});        // from the start
      cases.push_back({n - len, len});  // up to the end
      cases.push_back({below(n - len), len});
    }
    for (auto [from, len] : cases) {
      SCOPED_TRACE(::testing::Message() << n << " " << from << " " << len);
      be->trim(hd, hw, from, len);
      expectBits(hd, naive::trim(w, from, len));
    }
    expectBits(hw, w);
  }
}

TEST_F(CpuBackendTest, Replace) {
  for (std::size_t n : kLengths) {
    Bits w = random(n);
    const Handle hw = make(w), hv = be->createBits();
    std::vector<std::pair<std::size_t, std::size_t>> cases = {{0, n}, {0, 0}, {n, 0}};
    for (int k = 0; k < 40; ++k) {
      const std::size_t len = below(n);
      cases.push_back({0, len});
      cases.push_back({n - len, len});
      cases.push_back({below(n - len), len});
    }
    for (auto [from, len] : cases) {
      SCOPED_TRACE(::testing::Message() << n << " " << from << " " << len);
      const Bits v = random(len, (rng() & 1) ? 1.0 : 0.5);
      naive::upload(*be, hv, v);
      be->replace(hw, from, hv);
      w = naive::replace(w, from, v);
      expectBits(hw, w);
    }
  }
}

TEST_F(CpuBackendTest, Compare) {
  for (std::size_t n : kLengths) {
    SCOPED_TRACE(n);
    for (int k = 0; k < 30; ++k) {
      const Bits a = random(n);
      Bits b = (k % 3 == 0) ? random(n) : a;
      if (k % 3 == 1 && n > 0) b[below(n - 1)].flip();  // one differing bit anywhere
      if (k % 3 == 2 && n > 0) b[n - 1].flip();         // least significant bit only
      const Handle ha = make(a), hb = make(b);
      EXPECT_EQ(be->compare(ha, hb), naive::compare(a, b));
      EXPECT_EQ(be->compare(hb, ha), naive::compare(b, a));
      EXPECT_EQ(be->compare(ha, ha), 0);
    }
    if (n > 1) {  // bit 0 is the most significant: 10...0 > 01...1
      Bits a(n), b(n, true);
      a[0] = true;
      b[0] = false;
      EXPECT_EQ(be->compare(make(a), make(b)), 1);
    }
  }
}

// Random, all-ones and single-bit operands, so carries and borrows cross every word.
std::vector<std::pair<Bits, Bits>> arithmeticCases(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::pair<Bits, Bits>> cases;
  Bits one(n), ones(n, true);
  if (n > 0) one[n - 1] = true;
  cases.push_back({ones, one});
  cases.push_back({one, ones});
  cases.push_back({Bits(n), one});
  cases.push_back({ones, ones});
  for (double density : kDensities) {
    for (int k = 0; k < 10; ++k) {
      cases.push_back({naive::randomBits(rng, n, density), naive::randomBits(rng, n)});
    }
  }
  return cases;
}

TEST_F(CpuBackendTest, Add) {
  for (std::size_t n : kLengths) {
    for (const auto& [a, b] : arithmeticCases(rng, n)) {
      SCOPED_TRACE(n);
      const Bits want = naive::add(a, b);
      const Handle ha = make(a), hb = make(b), hd = be->createBits();
      be->add(hd, ha, hb);
      expectBits(hd, want);
      be->add(hb, ha, hb);  // dst == b
      expectBits(hb, want);
      be->add(ha, ha, ha);  // dst == a == b: doubling
      expectBits(ha, naive::add(a, a));
    }
  }
}

TEST_F(CpuBackendTest, Sub) {
  for (std::size_t n : kLengths) {
    for (const auto& [a, b] : arithmeticCases(rng, n)) {
      SCOPED_TRACE(n);
      const Bits want = naive::sub(a, b);
      const Handle ha = make(a), hb = make(b), hd = be->createBits();
      be->sub(hd, ha, hb);
      expectBits(hd, want);
      be->sub(ha, ha, hb);  // dst == a
      expectBits(ha, want);
      be->sub(hb, hb, hb);
      expectBits(hb, Bits(n));
      // a - b + b == a
      naive::upload(*be, hb, b);
      be->add(ha, ha, hb);
      expectBits(ha, a);
    }
  }
}

TEST_F(CpuBackendTest, ArithmeticExamples) {
  // 8-bit words written most significant bit first: 0b00000011 + 0b00000001 = 0b00000100.
  const Handle a = make(naive::parse("00000011")), b = make(naive::parse("00000001"));
  const Handle d = be->createBits();
  be->add(d, a, b);
  expectBits(d, naive::parse("00000100"));
  be->sub(d, b, a);  // 1 - 3 = -2
  expectBits(d, naive::parse("11111110"));
  EXPECT_EQ(be->compare(a, b), 1);
}

TEST_F(CpuBackendTest, CopyTable) {
  for (auto [r, c] : kShapes) {
    SCOPED_TRACE(::testing::Message() << r << "x" << c);
    const naive::Table t = naive::randomTable(rng, r, c);
    const Handle src = makeTable(t);
    const Handle dst = makeTable(naive::randomTable(rng, 3, 5));
    be->copyTable(dst, src);
    expectTable(dst, t);
    be->copyTable(src, src);
    expectTable(src, t);
  }
}

TEST_F(CpuBackendTest, GetSetCol) {
  for (auto [r, c] : kShapes) {
    SCOPED_TRACE(::testing::Message() << r << "x" << c);
    naive::Table t = naive::randomTable(rng, r, c);
    const Handle ht = makeTable(t), hv = make(random(9));
    for (std::size_t j = 0; j < c; ++j) {
      be->getCol(hv, ht, j);
      expectBits(hv, t.columns[j]);
    }
    for (int k = 0; k < 20 && c > 0; ++k) {
      const std::size_t j = below(c - 1);
      t.columns[j] = random(r);
      naive::upload(*be, hv, t.columns[j]);
      be->setCol(ht, j, hv);
    }
    expectTable(ht, t);
  }
}

TEST_F(CpuBackendTest, GetSetRow) {
  for (auto [r, c] : kShapes) {
    SCOPED_TRACE(::testing::Message() << r << "x" << c);
    naive::Table t = naive::randomTable(rng, r, c);
    const Handle ht = makeTable(t), hv = make(random(9));
    for (std::size_t i = 0; i < r; ++i) {
      be->getRow(hv, ht, i);
      expectBits(hv, naive::getRow(t, i));
    }
    for (int k = 0; k < 20 && r > 0; ++k) {
      const std::size_t i = k == 0 ? 0 : k == 1 ? r - 1 : below(r - 1);
      const Bits row = random(c, k % 4 == 0 ? 1.0 : 0.5);
      naive::setRow(t, i, row);
      naive::upload(*be, hv, row);
      be->setRow(ht, i, hv);
    }
    expectTable(ht, t);
  }
}

TEST_F(CpuBackendTest, SteadyStateDoesNotAllocate) {
  const std::size_t n = 1000;
  const Handle a = make(random(n)), b = make(random(n)), d = make(random(n));
  const Handle t = makeTable(naive::randomTable(rng, 130, n)), t2 = makeTable({});
  const Handle row = make(random(n)), col = make(random(130));
  be->copyTable(t2, t);
  std::vector<std::uint64_t> out(wordsForBits(n));
  std::vector<std::uint64_t> tout(n * wordsForBits(130));

  g_allocations = 0;
  g_counting = true;
  be->fill(d, true);
  be->copyBits(d, a);
  be->bitwise(BitOp::Xor, d, a, b);
  be->bitwise(BitOp::And, d, d, b);
  be->bitNot(d, d);
  be->firstOnly(d, a);
  be->setBit(d, 999, true);
  (void)be->getBit(d, 999);
  (void)be->findFirst(a);
  (void)be->step(d);
  (void)be->count(a);
  (void)be->any(a);
  be->trim(d, a, 7, 500);  // shrinks d
  be->replace(a, 37, d);
  be->trim(d, a, 3, n - 3);
  be->resizeBits(d, 10);
  be->resizeBits(d, n);  // capacity is kept
  be->replace(a, 0, b);
  (void)be->compare(a, b);
  be->add(d, a, b);
  be->sub(d, d, b);
  be->copyTable(t2, t);
  be->getCol(col, t, 17);
  be->setCol(t, 18, col);
  be->getRow(row, t, 129);
  be->setRow(t, 64, row);
  be->resizeTable(t2, 100, n);
  be->readBits(a, out);
  be->readTable(t, tout);
  be->writeBits(b, n, out.data());
  be->writeTable(t, 130, n, tout.data());
  be->synchronize();
  (void)be->length(a);
  (void)be->rows(t);
  (void)be->cols(t);
  g_counting = false;
  EXPECT_EQ(g_allocations, 0);
}

// CLOSURE_DELETE's native re-closes pivot by pivot; a Ctrl-C between pivots stops it
// (Interrupted), as it stops the Star body and CLOSURE.
TEST_F(CpuBackendTest, ClosureDeleteStopsAtCtrlC) {
  const std::uint64_t n = 4;                    // the chain 0 -> 1 -> 2 -> 3, and its closure
  std::vector<std::uint64_t> a(n, 0), c(n, 0);  // one word a column
  for (std::uint64_t i = 0; i + 1 < n; ++i) a[i + 1] |= std::uint64_t{1} << i;
  for (std::uint64_t i = 0; i < n; ++i)
    for (std::uint64_t j = i + 1; j < n; ++j) c[j] |= std::uint64_t{1} << i;
  const Handle ah = be->createTable(), ch = be->createTable();
  auto reset = [&] {
    be->writeTable(ah, n, n, a.data());
    be->writeTable(ch, n, n, c.data());
  };
  reset();
  gInterruptRequested = true;
  EXPECT_THROW(be->nativeKernels()->closureDelete(ah, ch, 1, 2), Interrupted);
  gInterruptRequested = false;
  reset();
  EXPECT_TRUE(be->nativeKernels()->closureDelete(ah, ch, 1, 2));
  std::vector<std::uint64_t> after;
  be->readTable(ch, after);
  EXPECT_EQ(after[1], std::uint64_t{0b0001});  // 0 reaches 1
  EXPECT_EQ(after[2], std::uint64_t{0});       // nothing reaches 2 now
  EXPECT_EQ(after[3], std::uint64_t{0b0100});  // only 2 reaches 3
}

}  // namespace
}  // namespace star
