// Tests of CpuBackend::transitiveClosure (the native WARSHALL) against a closure by graph
// search, on random digraphs with fixed seeds: every n mod 64 class near the word boundaries,
// densities from none to nearly complete, and the special shapes (cycles, paths, empty, not
// square).
#include <gtest/gtest.h>

#include <cstddef>
#include <iterator>
#include <memory>
#include <random>
#include <vector>

#include "runtime-cpu/CpuBackend.h"
#include "tests/unit/support/NaiveBits.h"
#include "vm/backend/NativeKernels.h"

namespace star {
namespace {

using naive::Bits;

class CpuClosureTest : public ::testing::Test {
 protected:
  Handle makeTable(const naive::Table& t) {
    const Handle h = be->createTable();
    naive::uploadTable(*be, h, t);
    return h;
  }
  std::size_t below(std::size_t n) {  // uniform in [0, n]
    return std::uniform_int_distribution<std::size_t>(0, n)(rng);
  }
  // Checks shape, contents and that the unused high bits of every column are 0.
  void expectTable(Handle h, const naive::Table& want) {
    EXPECT_EQ(be->rows(h), want.rows);
    EXPECT_EQ(be->cols(h), want.cols);
    std::vector<std::uint64_t> w;
    be->readTable(h, w);
    ASSERT_EQ(w.size(), want.cols * wordsForBits(want.rows));
    const std::size_t wpc = wordsForBits(want.rows);
    for (std::size_t j = 0; j < want.cols; ++j) {
      const std::vector<std::uint64_t> col(w.begin() + j * wpc, w.begin() + (j + 1) * wpc);
      ASSERT_TRUE(naive::tailClear(col, want.rows)) << "column " << j;
    }
    EXPECT_TRUE(naive::unpackTable(w.data(), want.rows, want.cols) == want);
  }

  std::unique_ptr<Backend> be = makeCpuBackend();
  std::mt19937_64 rng{20240917};
};

// The closure by graph search, independent of Warshall: P*(i, j) = 1 iff j is reached from i by
// one or more arcs (a depth-first search from the successors of i).
naive::Table reachability(const naive::Table& p) {
  const std::size_t n = p.rows;
  naive::Table r{n, n, std::vector<Bits>(n, Bits(n))};
  std::vector<std::size_t> stack;
  for (std::size_t i = 0; i < n; ++i) {
    Bits seen(n);
    for (std::size_t j = 0; j < n; ++j) {
      if (p.columns[j][i]) {
        seen[j] = true;
        stack.push_back(j);
      }
    }
    while (!stack.empty()) {
      const std::size_t v = stack.back();
      stack.pop_back();
      for (std::size_t j = 0; j < n; ++j) {
        if (p.columns[j][v] && !seen[j]) {
          seen[j] = true;
          stack.push_back(j);
        }
      }
    }
    for (std::size_t j = 0; j < n; ++j) r.columns[j][i] = seen[j];
  }
  return r;
}

naive::Table randomDigraph(std::mt19937_64& rng, std::size_t n, double density) {
  naive::Table t{n, n, {}};
  for (std::size_t j = 0; j < n; ++j) t.columns.push_back(naive::randomBits(rng, n, density));
  return t;
}

// 240 random digraphs, n from 1 to 200 (every word-boundary class among them), densities from 0
// (no arcs) through the sparse range where the closure is patchy to 0.3 (nearly complete).
TEST_F(CpuClosureTest, TransitiveClosureMatchesGraphSearch) {
  constexpr std::size_t kSizes[] = {1,   2,   3,   31,  63,  64,  65, 100,
                                    127, 128, 129, 191, 192, 193, 200};
  constexpr double kArcDensities[] = {0.0, 0.003, 0.01, 0.02, 0.05, 0.1, 0.3};
  for (int c = 0; c < 240; ++c) {
    const std::size_t n = c < 105 ? kSizes[c % std::size(kSizes)] : 1 + below(199);
    const double density = kArcDensities[(c / 3 + c) % std::size(kArcDensities)];
    SCOPED_TRACE(::testing::Message() << "case " << c << ": n " << n << ", density " << density);
    const naive::Table p = randomDigraph(rng, n, density);
    const Handle h = makeTable(p);
    ASSERT_TRUE(be->nativeKernels()->transitiveClosure(h));
    expectTable(h, reachability(p));
    be->destroy(h);
  }
}

TEST_F(CpuClosureTest, TransitiveClosureSpecialCases) {
  // A cycle through every vertex: everything reaches everything, the diagonal included.
  for (std::size_t n : {1u, 64u, 65u, 130u}) {
    naive::Table p{n, n, std::vector<Bits>(n, Bits(n))};
    for (std::size_t i = 0; i < n; ++i) p.columns[(i + 1) % n][i] = true;
    const Handle h = makeTable(p);
    ASSERT_TRUE(be->nativeKernels()->transitiveClosure(h));
    expectTable(h, naive::Table{n, n, std::vector<Bits>(n, Bits(n, true))});
    be->destroy(h);
  }
  // A path 0 -> 1 -> ... -> n-1: P*(i, j) = 1 iff i < j.
  for (std::size_t n : {2u, 63u, 64u, 65u, 129u}) {
    naive::Table p{n, n, std::vector<Bits>(n, Bits(n))}, want = p;
    for (std::size_t i = 0; i + 1 < n; ++i) p.columns[i + 1][i] = true;
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t i = 0; i < j; ++i) want.columns[j][i] = true;
    const Handle h = makeTable(p);
    ASSERT_TRUE(be->nativeKernels()->transitiveClosure(h));
    expectTable(h, want);
    be->destroy(h);
  }
  // Empty, and not square (refused, the table untouched).
  const Handle e = makeTable(naive::Table{});
  EXPECT_TRUE(be->nativeKernels()->transitiveClosure(e));
  expectTable(e, naive::Table{});
  const naive::Table r = naive::randomTable(rng, 65, 64);
  const Handle h = makeTable(r);
  EXPECT_FALSE(be->nativeKernels()->transitiveClosure(h));
  expectTable(h, r);
}

}  // namespace
}  // namespace star
