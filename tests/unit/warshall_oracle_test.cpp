// examples/warshall.star against an independent oracle: the Boost Graph Library's
// transitiveClosure, on a few hundred random digraphs (fixed seeds). Both listings of the
// paper (WARSHALL on rows, WARSHALL_C on columns) run through the compiler and the VM on the
// CPU backend, and their printed closures are compared bit for bit with BGL's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "tests/unit/support/GraphOracle.h"
#include "vm/io/TableText.h"

namespace star {
namespace {

using startest::Matrix;  // m[i][j]: arc (or path) i -> j, 0-based
using startest::tableText;

// BGL's transitive closure of the digraph `adj`, with the diagonal rule startest::bglClosure
// describes (DiagonalSemantics below checks the rule itself against a breadth-first search); its
// closure graph has vertex i of adj as vertex i.
Matrix bglClosure(const Matrix& adj) {
  std::size_t closureVertices = 0;
  Matrix out = startest::bglClosure(adj, &closureVertices);
  EXPECT_EQ(closureVertices, adj.size());
  return out;
}

// Paths of at least one arc, by breadth-first search from each vertex's successors.
Matrix bfsClosure(const Matrix& adj) {
  const std::size_t n = adj.size();
  Matrix reach(n, std::vector<bool>(n, false));
  for (std::size_t s = 0; s < n; ++s) {
    std::deque<std::size_t> queue;
    for (std::size_t j = 0; j < n; ++j)
      if (adj[s][j] && !reach[s][j]) {
        reach[s][j] = true;
        queue.push_back(j);
      }
    while (!queue.empty()) {
      std::size_t u = queue.front();
      queue.pop_front();
      for (std::size_t j = 0; j < n; ++j)
        if (adj[u][j] && !reach[s][j]) {
          reach[s][j] = true;
          queue.push_back(j);
        }
    }
  }
  return reach;
}

struct Case {
  std::size_t n;
  double density;  // probability of each ordered pair (i, j), loops included; 1 = complete
  std::uint64_t seed;
};

Matrix randomDigraph(const Case& c) {
  std::mt19937_64 rng(c.seed);
  std::bernoulli_distribution arc(c.density);
  Matrix m(c.n, std::vector<bool>(c.n, false));
  for (std::size_t i = 0; i < c.n; ++i)
    for (std::size_t j = 0; j < c.n; ++j) m[i][j] = c.density >= 1.0 || arc(rng);
  return m;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  std::uint64_t seed = 1000;
  // The word-boundary sizes and the extremes, each from empty to complete.
  for (std::size_t n : {1, 2, 3, 63, 64, 65, 90})
    for (double d : {0.0, 0.01, 0.03, 0.1, 0.3, 1.0}) out.push_back({n, d, seed++});
  // Random sizes and densities.
  std::mt19937_64 rng(20240917);
  std::uniform_int_distribution<std::size_t> size(1, 90);
  std::uniform_real_distribution<double> density(0.0, 0.3);
  while (out.size() < 220) {
    std::size_t n = size(rng);
    // Sparse graphs have the most interesting closures: bias half of them to about 1/n.
    double d = out.size() % 2 ? density(rng) : std::min(0.3, density(rng) * 3.0 / static_cast<double>(n));
    out.push_back({n, d, seed++});
  }
  return out;
}

Matrix parseClosure(const std::string& text, std::size_t n) {
  TableData t = parseTableText(text, "output");
  EXPECT_EQ(t.rows, n);
  EXPECT_EQ(t.cols, n);
  Matrix m(t.rows, std::vector<bool>(t.cols, false));
  for (std::uint64_t i = 0; i < t.rows; ++i)
    for (std::uint64_t j = 0; j < t.cols; ++j) m[i][j] = t.get(i, j);
  return m;
}

std::string firstDifference(const Matrix& got, const Matrix& want) {
  for (std::size_t i = 0; i < want.size() && i < got.size(); ++i)
    for (std::size_t j = 0; j < want[i].size() && j < got[i].size(); ++j)
      if (got[i][j] != want[i][j])
        return "P(" + std::to_string(i + 1) + ", " + std::to_string(j + 1) + ") is " +
               (got[i][j] ? "1" : "0") + ", BGL says " + (want[i][j] ? "1" : "0");
  return "shapes differ";
}

class WarshallOracle : public ::testing::Test {
 protected:
  static std::string examplePath() { return startest::sourceDir() + "/examples/warshall.star"; }

  // A driver that keeps the example's declarations and procedures verbatim and replaces its
  // main body: both listings on copies of the loaded table, each closure printed separately.
  static std::string driverSource() {
    std::string src = startest::readFile(examplePath());
    std::size_t main = src.rfind("\nbegin\n");
    EXPECT_NE(main, std::string::npos);
    return src.substr(0, main + 1) +
           "begin\n"
           "  LOAD(P, ParamStr(1));\n"
           "  Q := P;\n"
           "  WARSHALL(ROWS(P), P);\n"
           "  WARSHALL_C(ROWS(Q), Q);\n"
           "  writeln(P);\n"
           "  writeln;\n"
           "  writeln(Q)\n"
           "end.\n";
  }

  startest::TempDir dir;
};

TEST_F(WarshallOracle, DiagonalSemantics) {
  // A loop on its own, a 2-cycle, a vertex that only reaches a cycle, an isolated vertex.
  Matrix adj(5, std::vector<bool>(5, false));
  adj[0][0] = true;                    // 1 -> 1
  adj[1][2] = adj[2][1] = true;        // 2 <-> 3
  adj[3][1] = true;                    // 4 -> 2, 4 is on no cycle
  Matrix bgl = bglClosure(adj);
  EXPECT_TRUE(bgl[0][0]);
  EXPECT_TRUE(bgl[1][1]);
  EXPECT_TRUE(bgl[2][2]);
  EXPECT_FALSE(bgl[3][3]);
  EXPECT_FALSE(bgl[4][4]);
  EXPECT_TRUE(bgl[3][2]);
  EXPECT_EQ(bgl, bfsClosure(adj));
  // Without the OR-ed input diagonal too: this Boost keeps the loop of a one-vertex component.
  startest::Digraph g(1), tc;
  boost::add_edge(0, 0, g);
  boost::transitive_closure(g, tc);
  EXPECT_TRUE(boost::edge(0, 0, tc).second);
}

TEST_F(WarshallOracle, BothListingsMatchBglOnRandomDigraphs) {
  startest::Compiled example = startest::compileFile(examplePath());
  ASSERT_TRUE(example.ok) << example.diagnostics;
  startest::Compiled driver = startest::compileSource(dir, driverSource(), "driver.star");
  ASSERT_TRUE(driver.ok) << driver.diagnostics;

  int checked = 0, withCycles = 0, nonTrivial = 0;
  for (const Case& c : cases()) {
    SCOPED_TRACE("n = " + std::to_string(c.n) + ", density " + std::to_string(c.density) +
                 ", seed " + std::to_string(c.seed));
    Matrix adj = randomDigraph(c);
    const std::string table = dir.write("graph.txt", tableText(adj));
    Matrix want = bglClosure(adj);
    Matrix bfs = bfsClosure(adj);
    ASSERT_EQ(want, bfs) << "the two oracles disagree";

    // The example itself: it runs both listings, compares them, prints WARSHALL's closure.
    startest::Vm vm1;
    startest::RunResult r = vm1.run(example.module, {table});
    ASSERT_FALSE(r.error) << *r.error;
    EXPECT_EQ(r.output.find("disagree"), std::string::npos) << r.output;
    Matrix got = parseClosure(r.output, c.n);
    EXPECT_TRUE(got == want) << firstDifference(got, want);

    // Each listing on its own.
    startest::Vm vm2;
    startest::RunResult d = vm2.run(driver.module, {table});
    ASSERT_FALSE(d.error) << *d.error;
    std::size_t split = d.output.find("\n\n");
    ASSERT_NE(split, std::string::npos) << d.output;
    Matrix rows = parseClosure(d.output.substr(0, split + 1), c.n);
    Matrix cols = parseClosure(d.output.substr(split + 2), c.n);
    EXPECT_TRUE(rows == want) << "WARSHALL: " << firstDifference(rows, want);
    EXPECT_TRUE(cols == want) << "WARSHALL_C: " << firstDifference(cols, want);

    ++checked;
    bool cycle = false, grew = false;
    for (std::size_t i = 0; i < c.n; ++i) {
      cycle = cycle || want[i][i];
      for (std::size_t j = 0; j < c.n; ++j) grew = grew || (want[i][j] && !adj[i][j]);
    }
    withCycles += cycle;
    nonTrivial += grew;
  }
  EXPECT_GE(checked, 200);
  // The suite exercises both acyclic and cyclic graphs, and closures larger than their graphs.
  EXPECT_GE(withCycles, 50);
  EXPECT_LE(withCycles, checked - 30);
  EXPECT_GE(nonTrivial, 100);
}

TEST_F(WarshallOracle, QuickStartGraphFromTheExamples) {
  // examples/graphs/two_cycles8.txt, the README's quick-start graph: two cycles, one arc between.
  startest::Compiled example = startest::compileFile(examplePath());
  ASSERT_TRUE(example.ok) << example.diagnostics;
  const std::string ring = startest::sourceDir() + "/examples/graphs/two_cycles8.txt";
  TableData input = readTableFile(ring);
  Matrix adj(input.rows, std::vector<bool>(input.cols, false));
  for (std::uint64_t i = 0; i < input.rows; ++i)
    for (std::uint64_t j = 0; j < input.cols; ++j) adj[i][j] = input.get(i, j);
  startest::Vm vm;
  startest::RunResult r = vm.run(example.module, {ring});
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(parseClosure(r.output, adj.size()), bglClosure(adj));
}

}  // namespace
}  // namespace star
