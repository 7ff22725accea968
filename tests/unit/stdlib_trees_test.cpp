// stdlib/trees.star against independent references, through the compiler and the VM on the test
// backend (the CPU backend unless $STAR_TEST_BACKEND says otherwise):
//  * EDMONDS against a Chu-Liu/Edmonds implementation (tests/unit/support/GraphReference.h: the
//    O(VE) contraction algorithm, weight only) on random digraphs with loops, parallel arcs, arcs
//    into the root, zero weights and unreachable vertices; the chosen arcs must form a spanning
//    arborescence of the rows they name and weigh what the result says;
//  * GABOW (degree of r at most k, and exactly k) against exhaustive search over all spanning
//    trees of small graphs (n <= 7), and against a Lagrangian reference (Kruskal with the edges
//    at r shifted by lambda, maximised over lambda) on larger ones; the chosen edges must be a
//    spanning tree with the degree asked for;
//  * the dynamic routines (DMST_INSERT, DMST_DELETE, DMST_ADDVERTEX, DMST_DELVERTEX, after KRUSKAL
//    or PRIM and DMST_INIT) on sequences of random updates, each state checked after every
//    update: the forest's weight against Boost's kruskal_minimum_spanning_tree of the current
//    graph from scratch, the forest a spanning forest of the current graph (its edges are edges
//    of the graph, no cycle, the same components), and the vertex table P a rooting of it.
// Fixed seeds; the whole suite runs in well under a minute on one core.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "tests/unit/support/GraphOracle.h"

namespace star {
namespace {

using startest::Arc;
using startest::bitsOf;
using startest::chuLiuEdmonds;  // weight only, 0-based vertices
using startest::dimacs;
using startest::Graph;
using startest::undirectedFile;  // `rows` := the rows of the edge list LOADEDGES makes of the file
using startest::UnionFind;

// Chosen rows printed by the drivers: "row tail head weight".
struct Chosen {
  int row;
  Arc arc;
};

// ------------------------------------------------------------------ Star side

// A driver for a routine that chooses rows of E. Args: graph, n, r, then the routine's own;
// `call` computes `total` and the slice B of the chosen rows from E, n and r. Prints
// "total LEN(B) NUMB(B)", then the chosen rows.
std::string chosenRowsDriver(const std::string& name, const std::string& call) {
  return "program " + name + R"(;
uses trees;
var E: table; B: slice; vb, wb, n, r, ei, total: integer;
begin
  LOADEDGES(E, ParamStr(1), vb, wb);
  n := StrToInt(ParamStr(2));
  r := StrToInt(ParamStr(3));
  total := )" + call + R"(;
  writeln(total, ' ', LEN(B), ' ', NUMB(B));
  ei := STEP(B);
  while ei > 0 do
  begin
    writeln(ei, ' ', GR_FIELD(E, ei, 1, vb), ' ', GR_FIELD(E, ei, vb + 1, vb), ' ', GR_FIELD(E, ei, 2 * vb + 1, wb));
    ei := STEP(B)
  end
end.
)";
}

// Args: graph, n, root.
const std::string kEdmondsDriver = chosenRowsDriver("EdmondsDriver", "EDMONDS(E, vb, wb, n, r, B)");

// Args: graph, n, r, k, exact (0 or 1).
const std::string kGabowDriver = chosenRowsDriver(
    "GabowDriver", "GABOW(E, vb, wb, n, r, StrToInt(ParamStr(4)), ParamStr(5) = '1', B)");

// Args: graph, n, updates file, nvb, nwb, 'prim' or 'kruskal'. After the first tree and after
// each update prints "= weight NUMB(T) LEN(T) ROWS(P)", a line "t row tail head weight" per tree
// row and a line "p v present parent weight" per row of P.
const char* kDynamicDriver = R"(program DynamicDriver;
uses trees;
var E, U, P: table; T: slice; vb, wb, n, i, j, op, x, y, w, total: integer;

func FIELD(i, k: integer): integer;
begin
  FIELD := VAL(TRIM(32 * k - 31, 32 * k, ROW(i, U)))
end;

proc SHOW;
var X: slice; ei, v: integer; pw: word;
begin
  writeln('= ', DMST_WEIGHT(E, vb, wb, T), ' ', NUMB(T), ' ', LEN(T), ' ', ROWS(P));
  X := T;
  ei := STEP(X);
  while ei > 0 do
  begin
    writeln('t ', ei, ' ', GR_FIELD(E, ei, 1, vb), ' ', GR_FIELD(E, ei, vb + 1, vb), ' ', GR_FIELD(E, ei, 2 * vb + 1, wb));
    ei := STEP(X)
  end;
  for v := 1 to ROWS(P) do
  begin
    pw := ROW(v, P);
    writeln('p ', v, ' ', pw(1), ' ', VAL(TRIM(2, vb + 1, pw)), ' ', VAL(TRIM(vb + 2, vb + 1 + wb, pw)))
  end
end;

proc ADDVERTEX(v, i, j: integer);
var NB: slice(P); WT: table(ROWS(P), wb); k, u: integer;
begin
  for k := i to j do
  begin
    u := FIELD(k, 3);
    if u > 0 then
    begin
      NB(u) := 1;
      ROW(u, WT) := BIN(FIELD(k, 4), wb)
    end
  end;
  DMST_ADDVERTEX(E, vb, wb, T, P, v, NB, WT)
end;

begin
  LOADEDGES(E, ParamStr(1), vb, wb);
  n := StrToInt(ParamStr(2));
  LOADNUM(U, ParamStr(3), 'u32 u32 u32 u32');
  DMST_WIDEN(E, vb, wb, StrToInt(ParamStr(4)), StrToInt(ParamStr(5)));
  if ParamStr(6) = 'prim' then total := PRIM(E, vb, wb, 1, T) else total := KRUSKAL(E, vb, wb, T);
  DMST_INIT(E, vb, wb, n, T, P);
  SHOW;
  i := 1;
  while i <= ROWS(U) do
  begin
    op := FIELD(i, 1);
    x := FIELD(i, 2);
    y := FIELD(i, 3);
    w := FIELD(i, 4);
    j := i;
    if op = 1 then DMST_INSERT(E, vb, wb, T, P, x, y, w);
    if op = 2 then DMST_DELETE(E, vb, wb, T, P, x, y, w);
    if op = 3 then
    begin
      while j < ROWS(U) do
      begin
        if (FIELD(j + 1, 1) <> 3) or (FIELD(j + 1, 2) <> x) then break;
        j := j + 1
      end;
      ADDVERTEX(x, i, j)
    end;
    if op = 4 then DMST_DELVERTEX(E, vb, wb, T, P, x);
    SHOW;
    i := j + 1
  end
end.
)";

// "total len numb" then the rows.
struct TreeOut {
  long total = -2;
  int len = -1, numb = -1;
  std::vector<Chosen> rows;
};

TreeOut parseTreeOut(const std::string& text) {
  TreeOut t;
  std::istringstream in(text);
  in >> t.total >> t.len >> t.numb;
  Chosen c;
  while (in >> c.row >> c.arc.u >> c.arc.v >> c.arc.w) t.rows.push_back(c);
  return t;
}

// ------------------------------------------------------------------ random graphs

struct Case {
  int n;
  int m;
  long maxWeight;
  std::uint64_t seed;
  bool spanning = false;  // start with a random spanning tree (arborescence from the root)
  int root = 1;
};

std::string describe(const Case& c) {
  return "n = " + std::to_string(c.n) + ", m = " + std::to_string(c.m) + ", weights <= " + std::to_string(c.maxWeight) +
         ", seed " + std::to_string(c.seed) + (c.spanning ? ", spanning" : "") + ", root " + std::to_string(c.root);
}

// m random arcs (loops and parallel arcs included); with `spanning`, first a random tree whose
// arcs lead away from the root (an arborescence: every vertex reachable; as undirected edges a
// spanning tree), the rows shuffled.
Graph randomGraph(const Case& c) {
  std::mt19937_64 rng(c.seed);
  std::uniform_int_distribution<int> vertex(1, c.n);
  std::uniform_int_distribution<long> weight(0, c.maxWeight);
  Graph g;
  g.n = c.n;
  if (c.spanning) {
    std::vector<int> order(c.n);
    std::iota(order.begin(), order.end(), 1);
    std::shuffle(order.begin(), order.end(), rng);
    std::swap(*std::find(order.begin(), order.end(), c.root), order[0]);
    for (int i = 1; i < c.n; ++i) {
      int p = order[std::uniform_int_distribution<int>(0, i - 1)(rng)];
      g.arcs.push_back({p, order[i], weight(rng)});
    }
  }
  for (int i = 0; i < c.m; ++i) g.arcs.push_back({vertex(rng), vertex(rng), weight(rng)});
  std::shuffle(g.arcs.begin(), g.arcs.end(), rng);
  return g;
}

std::vector<Case> cases(std::uint64_t seed, int count, int minN, int maxN, double perVertexMax) {
  std::vector<Case> out;
  std::mt19937_64 rng(seed * 7919);
  std::uniform_int_distribution<int> size(minN, maxN);
  std::uniform_real_distribution<double> perVertex(0.0, perVertexMax);
  std::uniform_int_distribution<int> weightBits(0, 12);
  while (static_cast<int>(out.size()) < count) {
    Case c;
    c.n = size(rng);
    c.m = static_cast<int>(perVertex(rng) * c.n);
    c.maxWeight = (1L << weightBits(rng)) - 1;
    if (c.maxWeight == 0 && out.size() % 3) c.maxWeight = 9;
    c.seed = seed++;
    c.spanning = out.size() % 2 == 0;
    c.root = std::uniform_int_distribution<int>(1, c.n)(rng);
    out.push_back(c);
  }
  return out;
}

// The chosen rows are rows of the graph (as printed), n - 1 of them, one entering each vertex
// other than r, none entering r, and every vertex reaches r backwards; they weigh `total`.
std::string checkArborescence(const Graph& g, int r, const TreeOut& t) {
  if (static_cast<int>(t.rows.size()) != g.n - 1) return "the arborescence has " + std::to_string(t.rows.size()) + " arcs";
  std::vector<int> parent(g.n + 1, 0);
  long sum = 0;
  for (const Chosen& c : t.rows) {
    if (c.row < 1 || c.row > static_cast<int>(g.arcs.size())) return "row " + std::to_string(c.row) + " is out of range";
    const Arc& a = g.arcs[c.row - 1];
    if (a.u != c.arc.u || a.v != c.arc.v || a.w != c.arc.w) return "row " + std::to_string(c.row) + " is printed wrongly";
    if (a.v == r) return "an arc enters the root";
    if (parent[a.v] != 0) return "two arcs enter " + std::to_string(a.v);
    parent[a.v] = a.u;
    sum += a.w;
  }
  for (int v = 1; v <= g.n; ++v) {
    int x = v, steps = 0;
    while (x != r && steps <= g.n) x = parent[x], ++steps;
    if (x != r) return "vertex " + std::to_string(v) + " does not lead back to the root";
  }
  if (sum != t.total) return "the arcs weigh " + std::to_string(sum) + ", the result says " + std::to_string(t.total);
  return "";
}

// ------------------------------------------------------------------ Gabow references

// W[d] = the least weight of a spanning tree of the rows in which r has degree d (-1: none), by
// enumerating every spanning tree (n <= 7).
std::vector<long> exhaustiveByDegree(int n, int r, const std::vector<Arc>& rows) {
  std::vector<long> best(n + 1, -1);
  std::vector<Arc> edges;
  for (const Arc& a : rows)
    if (a.u != a.v) edges.push_back(a);
  if (n == 1) {
    best[0] = 0;
    return best;
  }
  struct Walk {
    const std::vector<Arc>& e;
    int n, r;
    std::vector<long>& best;
    void go(std::size_t i, int chosen, int degree, long weight, std::array<int, 8> comp) {
      if (chosen == n - 1) {
        if (best[degree] < 0 || weight < best[degree]) best[degree] = weight;
        return;
      }
      if (e.size() - i < static_cast<std::size_t>(n - 1 - chosen)) return;
      go(i + 1, chosen, degree, weight, comp);
      int a = comp[e[i].u], b = comp[e[i].v];
      if (a == b) return;
      for (int& c : comp)
        if (c == b) c = a;
      go(i + 1, chosen + 1, degree + (e[i].u == r || e[i].v == r), weight + e[i].w, comp);
    }
  };
  std::array<int, 8> comp{};
  std::iota(comp.begin(), comp.end(), 0);
  Walk{edges, n, r, best}.go(0, 0, 0, 0, comp);
  return best;
}

// From W[d]: the answer for "degree at most k" and "exactly k" (-1: none).
long fromByDegree(const std::vector<long>& W, int k, bool exact) {
  if (exact) return k < static_cast<int>(W.size()) ? W[k] : -1;
  long best = -1;
  for (int d = 0; d <= k && d < static_cast<int>(W.size()); ++d)
    if (W[d] >= 0 && (best < 0 || W[d] < best)) best = W[d];
  return best;
}

// The Lagrangian reference: with the edges at r shifted by lambda, the least weight of a
// spanning tree is min over d of W(d) + lambda d; W is convex in d (the exchange theorem), so
// W(d) = max over integer lambda in [-maxW - 1, maxW + 1] of (that minimum - lambda d), found by
// ternary search (the function of lambda is concave). Feasibility (connected, d0 <= d <= dmax) is
// decided directly: d0 = the components of the graph without r, dmax = r's distinct neighbours.
long kruskalShifted(int n, int r, const std::vector<Arc>& rows, long lambda) {
  std::vector<std::pair<long, int>> order;
  for (int i = 0; i < static_cast<int>(rows.size()); ++i)
    if (rows[i].u != rows[i].v)
      order.push_back({rows[i].w + ((rows[i].u == r || rows[i].v == r) ? lambda : 0), i});
  std::sort(order.begin(), order.end());
  UnionFind uf(n);
  long sum = 0;
  for (auto& [w, i] : order)
    if (uf.join(rows[i].u, rows[i].v)) sum += w;
  return sum;
}

long lagrangian(int n, int r, const std::vector<Arc>& rows, int k, bool exact) {
  UnionFind all(n), rest(n);
  std::set<int> neighbours;
  long maxW = 0;
  for (const Arc& a : rows) {
    maxW = std::max(maxW, a.w);
    if (a.u == a.v) continue;
    all.join(a.u, a.v);
    if (a.u != r && a.v != r) rest.join(a.u, a.v);
    if (a.u == r) neighbours.insert(a.v);
    if (a.v == r) neighbours.insert(a.u);
  }
  for (int v = 1; v <= n; ++v)
    if (all.find(v) != all.find(r)) return -1;
  std::set<int> comps;
  for (int v = 1; v <= n; ++v)
    if (v != r) comps.insert(rest.find(v));
  int d0 = static_cast<int>(comps.size()), dmax = static_cast<int>(neighbours.size());
  auto W = [&](int d) {
    auto g = [&](long lambda) { return kruskalShifted(n, r, rows, lambda) - lambda * d; };
    long lo = -maxW - 1, hi = maxW + 1;
    while (hi - lo > 2) {
      long m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
      if (g(m1) < g(m2)) lo = m1 + 1;
      else hi = m2;
    }
    long best = g(lo);
    for (long l = lo + 1; l <= hi; ++l) best = std::max(best, g(l));
    return best;
  };
  if (exact) return (k >= d0 && k <= dmax) ? W(k) : -1;
  if (k < d0) return -1;
  long best = -1;
  for (int d = d0; d <= std::min(k, dmax); ++d) {
    long w = W(d);
    if (best < 0 || w < best) best = w;
  }
  return best;
}

// The chosen rows are rows of E, form a spanning tree (n - 1 of them, no loop, no cycle), r has
// degree <= k (= k when exact), and they weigh `total`.
std::string checkDegreeTree(int n, int r, int k, bool exact, const std::vector<Arc>& rows, const TreeOut& t) {
  if (static_cast<int>(t.rows.size()) != n - 1) return "the tree has " + std::to_string(t.rows.size()) + " edges";
  UnionFind uf(n);
  long sum = 0;
  int degree = 0;
  for (const Chosen& c : t.rows) {
    if (c.row < 1 || c.row > static_cast<int>(rows.size())) return "row " + std::to_string(c.row) + " is out of range";
    const Arc& a = rows[c.row - 1];
    if (a.u != c.arc.u || a.v != c.arc.v || a.w != c.arc.w) return "row " + std::to_string(c.row) + " is printed wrongly";
    if (!uf.join(a.u, a.v)) return "the tree edges close a cycle";
    degree += (a.u == r || a.v == r);
    sum += a.w;
  }
  if (exact ? degree != k : degree > k) return "r has degree " + std::to_string(degree);
  if (sum != t.total) return "the edges weigh " + std::to_string(sum) + ", the result says " + std::to_string(t.total);
  return "";
}

// c's random graph and then, drawn from `rng`, 0..maxExtra more edges at the root c.root (to
// random vertices, weights 0..maxExtraWeight): GABOW's graphs.
Graph withEdgesAtRoot(const Case& c, int maxExtra, long maxExtraWeight, std::mt19937_64& rng) {
  Graph g = randomGraph(c);
  int extra = std::uniform_int_distribution<int>(0, maxExtra)(rng);
  for (int i = 0; i < extra; ++i)
    g.arcs.push_back({c.root, std::uniform_int_distribution<int>(1, c.n)(rng),
                      std::uniform_int_distribution<long>(0, maxExtraWeight)(rng)});
  return g;
}

// ------------------------------------------------------------------ fixture

// The drivers run one after another on one interpreter.
class StdlibTrees : public startest::StdlibOracleTest {
 protected:
  std::string run(const startest::Compiled& c, std::vector<std::string> args) {
    return startest::runOutput(vm, c, std::move(args));
  }

  // GABOW's driver on c's graph `file`, r = c.root: r's degree at most k (exactly k when `exact`).
  TreeOut runGabow(const startest::Compiled& driver, const std::string& file, const Case& c, int k,
                   bool exact) {
    return parseTreeOut(run(driver, {file, std::to_string(c.n), std::to_string(c.root),
                                     std::to_string(k), exact ? "1" : "0"}));
  }

  startest::Vm vm;
};

TEST_F(StdlibTrees, EdmondsMatchesChuLiuEdmonds) {
  startest::Compiled driver = compile(kEdmondsDriver, "edmonds.star");
  ASSERT_TRUE(driver.ok);
  std::vector<Case> all = {{1, 0, 5, 1, false, 1}, {1, 3, 5, 2, false, 1}, {2, 0, 5, 3, false, 2},
                           {2, 1, 0, 4, true, 2},  {6, 40, 0, 5, true, 3},  {30, 90, (1L << 20) - 1, 6, true, 7}};
  for (const Case& c : cases(31000, 260, 1, 60, 6.0)) all.push_back(c);
  int checked = 0, none = 0, contracted = 0;
  for (const Case& c : all) {
    SCOPED_TRACE(describe(c));
    Graph g = randomGraph(c);
    std::string out = run(driver, {dir.write("graph.gr", dimacs(g)), std::to_string(c.n), std::to_string(c.root)});
    TreeOut t = parseTreeOut(out);
    std::vector<Arc> zero;
    for (const Arc& a : g.arcs) zero.push_back({a.u - 1, a.v - 1, a.w});
    long want = chuLiuEdmonds(c.n, c.root - 1, zero);
    EXPECT_EQ(t.total, want) << out;
    EXPECT_EQ(t.len, static_cast<int>(g.arcs.size())) << out;
    if (want < 0) {
      EXPECT_EQ(t.numb, 0) << out;
      ++none;
    } else {
      EXPECT_EQ(checkArborescence(g, c.root, t), "") << out;
      // The cheapest arcs into each vertex alone would not do: a cycle was contracted.
      long greedy = 0;
      for (int v = 1; v <= c.n; ++v) {
        long best = -1;
        for (const Arc& a : g.arcs)
          if (a.v == v && a.u != v && v != c.root && (best < 0 || a.w < best)) best = a.w;
        greedy += std::max(best, 0L);
      }
      contracted += want > greedy;
    }
    ++checked;
  }
  std::printf("edmonds: %d digraphs, %d without a spanning arborescence, %d needing a contraction\n", checked, none,
              contracted);
  EXPECT_GE(checked, 200);
  EXPECT_GE(none, 50);
  EXPECT_GE(checked - none, 100);
  EXPECT_GE(contracted, 50);
}

// Gabow on small graphs (n <= 7) against every spanning tree, for both forms and random k.
TEST_F(StdlibTrees, GabowMatchesExhaustiveSearch) {
  startest::Compiled driver = compile(kGabowDriver, "gabow.star");
  ASSERT_TRUE(driver.ok);
  int graphs = 0, runs = 0, impossible = 0, constrained = 0;
  std::mt19937_64 rng(4242);
  for (const Case& c : cases(41000, 250, 1, 7, 2.0)) {
    SCOPED_TRACE(describe(c));
    // Light edges at r, so that the minimum spanning tree often wants r's degree high.
    Graph g = withEdgesAtRoot(c, 3, c.maxWeight / 3, rng);
    std::vector<Arc> rows;
    std::string file = undirectedFile(dir, g, static_cast<int>(c.seed % 3), rows);
    if (rows.size() > 24) continue;  // keeps the enumeration small
    std::vector<long> W = exhaustiveByDegree(c.n, c.root, rows);
    long unconstrained = fromByDegree(W, c.n, false);
    for (int rep = 0; rep < 2; ++rep) {
      bool exact = rep == 1;
      int k = std::uniform_int_distribution<int>(0, std::min(c.n, 4))(rng);
      SCOPED_TRACE("k = " + std::to_string(k) + (exact ? " exactly" : " at most"));
      TreeOut t = runGabow(driver, file, c, k, exact);
      long want = fromByDegree(W, k, exact);
      EXPECT_EQ(t.total, want);
      EXPECT_EQ(t.len, static_cast<int>(rows.size()));
      if (want < 0) {
        EXPECT_EQ(t.numb, 0);
        ++impossible;
      } else {
        EXPECT_EQ(checkDegreeTree(c.n, c.root, k, exact, rows, t), "");
        constrained += want > unconstrained;
      }
      // The reference used on larger graphs agrees with the enumeration.
      EXPECT_EQ(lagrangian(c.n, c.root, rows, k, exact), want);
      ++runs;
    }
    ++graphs;
  }
  std::printf("gabow (exhaustive): %d graphs, %d runs, %d impossible, %d where the bound costs weight\n", graphs, runs,
              impossible, constrained);
  EXPECT_GE(graphs, 200);
  EXPECT_GE(impossible, 60);
  EXPECT_GE(runs - impossible, 150);
  EXPECT_GE(constrained, 30);
}

// Gabow on larger graphs (up to 40 vertices) against the Lagrangian reference.
TEST_F(StdlibTrees, GabowMatchesLagrangianReference) {
  startest::Compiled driver = compile(kGabowDriver, "gabow.star");
  ASSERT_TRUE(driver.ok);
  int runs = 0, impossible = 0, graphs = 0;
  std::mt19937_64 rng(777);
  for (const Case& c0 : cases(43000, 220, 8, 50, 5.0)) {
    Case c = c0;
    c.spanning = c.seed % 4 != 0;  // mostly connected
    SCOPED_TRACE(describe(c));
    // More edges at r, so that its degree has room to move.
    Graph g = withEdgesAtRoot(c, c.n / 2, c.maxWeight, rng);
    std::vector<Arc> rows;
    std::string file = undirectedFile(dir, g, static_cast<int>(c.seed % 3), rows);
    for (int rep = 0; rep < 2; ++rep) {
      bool exact = rep == 1;
      int k = std::uniform_int_distribution<int>(0, 8)(rng);
      SCOPED_TRACE("k = " + std::to_string(k) + (exact ? " exactly" : " at most"));
      TreeOut t = runGabow(driver, file, c, k, exact);
      long want = lagrangian(c.n, c.root, rows, k, exact);
      EXPECT_EQ(t.total, want);
      if (want < 0) {
        EXPECT_EQ(t.numb, 0);
        ++impossible;
      } else {
        EXPECT_EQ(checkDegreeTree(c.n, c.root, k, exact, rows, t), "");
      }
      ++runs;
    }
    ++graphs;
  }
  std::printf("gabow (lagrangian): %d graphs, %d runs, %d impossible\n", graphs, runs, impossible);
  EXPECT_GE(graphs, 200);
  EXPECT_GE(impossible, 50);
  EXPECT_GE(runs - impossible, 200);
}

// ------------------------------------------------------------------ dynamic MST

struct Update {
  int op, a, b;
  long w;
};

// The current graph of a sequence: edges as unordered pairs with weights (a multiset), and the
// vertices present.
struct DynGraph {
  std::multiset<std::tuple<int, int, long>> edges;  // (min end, max end, weight)
  std::set<int> present;
  static std::tuple<int, int, long> key(int u, int v, long w) { return {std::min(u, v), std::max(u, v), w}; }
};

long boostKruskal(const DynGraph& g, int maxCode) {
  startest::Undirected ug(static_cast<std::size_t>(maxCode + 1));
  for (auto& [u, v, w] : g.edges)
    if (u != v) boost::add_edge(u, v, w, ug);
  return startest::bglKruskalWeight(ug);
}

struct DynState {
  long weight = -1;
  int numb = -1, len = -1, prows = -1;
  std::vector<Chosen> tree;
  std::vector<std::array<long, 3>> p;  // present, parent, weight per row of P
};

bool parseStates(const std::string& out, std::vector<DynState>& states) {
  std::istringstream in(out);
  std::string tag;
  while (in >> tag) {
    if (tag == "=") {
      DynState s;
      if (!(in >> s.weight >> s.numb >> s.len >> s.prows)) return false;
      states.push_back(s);
    } else if (tag == "t" && !states.empty()) {
      Chosen c;
      if (!(in >> c.row >> c.arc.u >> c.arc.v >> c.arc.w)) return false;
      states.back().tree.push_back(c);
    } else if (tag == "p" && !states.empty()) {
      long v;
      std::array<long, 3> row;
      if (!(in >> v >> row[0] >> row[1] >> row[2])) return false;
      states.back().p.push_back(row);
    } else {
      return false;
    }
  }
  return true;
}

// The state is a minimum spanning forest of g: the tree rows are edges of g (as a multiset), no
// cycle, the same components as g, the weight Boost's; P roots it (each present vertex's parent
// edge is a tree edge, the parents lead to a root, absent vertices have no edges).
std::string checkDynState(const DynGraph& g, int maxCode, const DynState& s) {
  if (s.numb != static_cast<int>(s.tree.size())) return "NUMB(T) differs from the rows printed";
  std::multiset<std::tuple<int, int, long>> left = g.edges, treeEdges;
  UnionFind forest(maxCode), graph(maxCode);
  long sum = 0;
  for (const Chosen& c : s.tree) {
    auto k = DynGraph::key(c.arc.u, c.arc.v, c.arc.w);
    auto it = left.find(k);
    if (it == left.end()) return "tree row " + std::to_string(c.row) + " is not an edge of the graph";
    left.erase(it);
    treeEdges.insert(k);
    if (!forest.join(c.arc.u, c.arc.v)) return "the tree rows close a cycle";
    sum += c.arc.w;
  }
  if (sum != s.weight) return "DMST_WEIGHT says " + std::to_string(s.weight) + ", the rows weigh " + std::to_string(sum);
  long want = boostKruskal(g, maxCode);
  if (s.weight != want) return "weight " + std::to_string(s.weight) + ", Boost's Kruskal " + std::to_string(want);
  for (auto& [u, v, w] : g.edges) {
    graph.join(u, v);
    if (!g.present.count(u) || !g.present.count(v)) return "an edge at an absent vertex";
  }
  for (int u = 1; u <= maxCode; ++u)
    for (int v = u + 1; v <= maxCode; ++v)
      if ((graph.find(u) == graph.find(v)) != (forest.find(u) == forest.find(v)))
        return "vertices " + std::to_string(u) + " and " + std::to_string(v) + ": forest and graph components differ";
  if (static_cast<int>(s.p.size()) != s.prows) return "P rows missing";
  std::multiset<std::tuple<int, int, long>> parentEdges;
  for (int v = 1; v <= s.prows; ++v) {
    auto& row = s.p[v - 1];
    bool present = g.present.count(v) > 0;
    if (row[0] != (present ? 1 : 0)) return "P says vertex " + std::to_string(v) + " is " + (row[0] ? "present" : "absent");
    if (!present) {
      if (row[1] != 0 || row[2] != 0) return "absent vertex " + std::to_string(v) + " has a parent";
      continue;
    }
    if (row[1] == 0) continue;
    parentEdges.insert(DynGraph::key(v, static_cast<int>(row[1]), row[2]));
    int x = v, steps = 0;
    while (x != 0 && steps <= s.prows) x = static_cast<int>(s.p[x - 1][1]), ++steps;
    if (x != 0) return "the parents of " + std::to_string(v) + " do not lead to a root";
  }
  for (int v : g.present)
    if (v > s.prows) return "present vertex " + std::to_string(v) + " beyond P";
  if (parentEdges != treeEdges) return "the parent edges of P are not the edges of T";
  return "";
}

TEST_F(StdlibTrees, DynamicMstMatchesBoostAfterEveryUpdate) {
  startest::Compiled driver = compile(kDynamicDriver, "dynamic.star");
  ASSERT_TRUE(driver.ok);
  int sequences = 0, updates = 0, treeDeletions = 0, swaps = 0, links = 0;
  std::map<int, int> byOp;
  for (std::uint64_t seed = 1; seed <= 32; ++seed) {
    std::mt19937_64 rng(seed * 1000003);
    Case c;
    c.n = std::uniform_int_distribution<int>(2, 32)(rng);
    c.m = static_cast<int>(std::uniform_real_distribution<double>(0.5, 3.0)(rng) * c.n);
    c.maxWeight = seed % 4 == 0 ? 3 : (1L << std::uniform_int_distribution<int>(2, 10)(rng)) - 1;  // ties
    c.seed = seed;
    c.spanning = seed % 3 != 0;
    c.root = 1;
    SCOPED_TRACE(describe(c));
    Graph g0 = randomGraph(c);
    std::vector<Arc> rows;
    std::string file = undirectedFile(dir, g0, static_cast<int>(seed % 3), rows);
    int cap = c.n + 6;                // vertex codes the sequence may use
    int nvb = bitsOf(cap), nwb = bitsOf(c.maxWeight);
    int maxCode = (1 << nvb) - 1;
    DynGraph g;
    for (int v = 1; v <= c.n; ++v) g.present.insert(v);
    for (const Arc& a : rows) g.edges.insert(DynGraph::key(a.u, a.v, a.w));
    bool prim = c.spanning && seed % 2 == 0;  // PRIM's tree is a spanning forest when connected

    // The sequence, built against the model (deletions name existing edges and vertices).
    std::vector<Update> seq;
    std::vector<DynGraph> models{g};
    std::uniform_int_distribution<long> weight(0, c.maxWeight);
    auto randomPresent = [&]() {
      auto it = g.present.begin();
      std::advance(it, std::uniform_int_distribution<int>(0, static_cast<int>(g.present.size()) - 1)(rng));
      return *it;
    };
    while (seq.size() < 130) {
      int kind = std::uniform_int_distribution<int>(0, 99)(rng);
      if (g.present.empty()) kind = 85;
      if (kind < 38) {  // insert an edge (a loop now and then)
        int u = randomPresent(), v = kind < 3 ? u : randomPresent();
        long w = weight(rng);
        seq.push_back({1, u, v, w});
        g.edges.insert(DynGraph::key(u, v, w));
      } else if (kind < 76) {  // delete an edge
        if (g.edges.empty()) continue;
        auto it = g.edges.begin();
        std::advance(it, std::uniform_int_distribution<int>(0, static_cast<int>(g.edges.size()) - 1)(rng));
        auto [u, v, w] = *it;
        if (rng() % 2) std::swap(u, v);
        seq.push_back({2, u, v, w});
        g.edges.erase(it);
      } else if (kind < 86) {  // add a vertex with up to 4 edges
        std::vector<int> absent;
        for (int v = 1; v <= std::min(cap, maxCode); ++v)
          if (!g.present.count(v)) absent.push_back(v);
        if (absent.empty()) continue;
        int v = absent[std::uniform_int_distribution<int>(0, static_cast<int>(absent.size()) - 1)(rng)];
        std::set<int> nbs;
        int want = g.present.empty() ? 0 : std::uniform_int_distribution<int>(0, 4)(rng);
        for (int i = 0; i < want; ++i) nbs.insert(randomPresent());
        if (nbs.empty()) seq.push_back({3, v, 0, 0});
        for (int u : nbs) {
          long w = weight(rng);
          seq.push_back({3, v, u, w});
          g.edges.insert(DynGraph::key(v, u, w));
        }
        g.present.insert(v);
      } else {  // delete a vertex with its edges
        if (g.present.size() <= 1) continue;
        int v = randomPresent();
        seq.push_back({4, v, 0, 0});
        g.present.erase(v);
        for (auto it = g.edges.begin(); it != g.edges.end();)
          it = (std::get<0>(*it) == v || std::get<1>(*it) == v) ? g.edges.erase(it) : std::next(it);
      }
      // The graph after each line (the lines of one vertex addition all get the final graph).
      while (models.size() < seq.size() + 1) models.push_back(g);
    }
    // Group the vertex additions: consecutive lines 3 with the same vertex are one update, and
    // the models pushed for their lines but the last are dropped.
    std::vector<DynGraph> perUpdate{models[0]};
    std::string text;
    for (std::size_t i = 0; i < seq.size(); ++i) {
      const Update& up = seq[i];
      text += std::to_string(up.op) + " " + std::to_string(up.a) + " " + std::to_string(up.b) + " " + std::to_string(up.w) + "\n";
      bool continues = up.op == 3 && i + 1 < seq.size() && seq[i + 1].op == 3 && seq[i + 1].a == up.a;
      if (!continues) perUpdate.push_back(models[i + 1]), ++byOp[up.op];
    }
    std::string out = run(driver, {file, std::to_string(c.n), dir.write("updates.txt", text), std::to_string(nvb),
                                   std::to_string(nwb), prim ? "prim" : "kruskal"});
    std::vector<DynState> states;
    ASSERT_TRUE(parseStates(out, states)) << out.substr(0, 2000);
    ASSERT_EQ(states.size(), perUpdate.size()) << out.substr(out.size() > 3000 ? out.size() - 3000 : 0);
    for (std::size_t i = 0; i < states.size(); ++i) {
      SCOPED_TRACE("after update " + std::to_string(i));
      std::string bad = checkDynState(perUpdate[i], maxCode, states[i]);
      ASSERT_EQ(bad, "");
      if (i == 0) continue;
      // What the update did to the forest, for the counts below.
      std::multiset<std::tuple<int, int, long>> before, after;
      for (const Chosen& ch : states[i - 1].tree) before.insert(DynGraph::key(ch.arc.u, ch.arc.v, ch.arc.w));
      for (const Chosen& ch : states[i].tree) after.insert(DynGraph::key(ch.arc.u, ch.arc.v, ch.arc.w));
      if (before == after) continue;
      if (after.size() > before.size()) ++links;
      else if (after.size() == before.size()) ++swaps;
      if (after.size() <= before.size() && states[i].weight > states[i - 1].weight) ++treeDeletions;
    }
    updates += static_cast<int>(states.size()) - 1;
    EXPECT_GE(static_cast<int>(states.size()) - 1, 100);
    ++sequences;
  }
  std::printf("dynamic mst: %d sequences, %d updates (%d edge insertions, %d edge deletions, %d vertex additions, "
              "%d vertex deletions); %d forests changed by a swap, %d grew, %d tree deletions that cost weight\n",
              sequences, updates, byOp[1], byOp[2], byOp[3], byOp[4], swaps, links, treeDeletions);
  EXPECT_GE(sequences, 30);
  EXPECT_GE(byOp[1], 500);
  EXPECT_GE(byOp[2], 500);
  EXPECT_GE(byOp[3], 100);
  EXPECT_GE(byOp[4], 100);
  EXPECT_GE(swaps, 200);
  EXPECT_GE(links, 100);
  EXPECT_GE(treeDeletions, 100);
}

// The routines reject bad input with located errors before they change anything.
TEST_F(StdlibTrees, BadInputIsALocatedError) {
  struct Bad {
    std::string call;
    std::string message;
  };
  const std::vector<Bad> bad = {
      {"total := EDMONDS(E, vb, wb, 4, 5, B)", "EDMONDS: the root r is not a vertex 1..n"},
      {"total := EDMONDS(E, vb, wb, 2, 1, B)", "EDMONDS: an arc names a vertex outside 1..n"},
      {"total := GABOW(E, vb, wb, 4, 1, -1, false, B)", "GABOW: the degree bound k must not be negative"},
      {"total := GABOW(E, vb, wb, 4, 0, 1, true, B)", "GABOW: the vertex r is not a vertex 1..n"},
      {"DMST_INSERT(E, vb, wb, T, P, 1, 9, 1)", "DMST_INSERT: the vertex v does not exist"},
      {"DMST_INSERT(E, vb, wb, T, P, 1, 2, 99)", "DMST_INSERT: the weight must be 0..2^wb - 1"},
      {"DMST_DELETE(E, vb, wb, T, P, 1, 2, 7)", "DMST_DELETE: the graph has no edge u -- v of weight w"},
      {"DMST_DELETE(E, vb, wb, T, P, 0, 2, 5)", "DMST_DELETE: the vertex u does not exist"},
      {"DMST_DELVERTEX(E, vb, wb, T, P, 7)", "DMST_DELVERTEX: the vertex v does not exist"},
      {"DMST_INSERT(E, vb, wb, B, P, 1, 2, 1)", "DMST: the tree slice T must have one component per row of E"},
      {"DMST_ADDVERTEX(E, vb, wb, T, P, 2, B, P)", "DMST_ADDVERTEX: the vertex v exists already"},
  };
  startest::TempDir files;
  std::string graph = files.write("g.gr", "p sp 4 4\na 1 2 5\na 2 3 1\na 3 4 2\na 4 1 3\n");
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.call);
    std::string source = "program Bad;\nuses trees;\nvar E, P: table; T, B: slice; vb, wb, total: integer;\nbegin\n"
                         "  LOADEDGES(E, ParamStr(1), vb, wb);\n  total := KRUSKAL(E, vb, wb, T);\n"
                         "  DMST_INIT(E, vb, wb, 4, T, P);\n  B := CONVERT(%101);\n  writeln('before');\n  " +
                         b.call + ";\n  writeln('after')\nend.\n";
    startest::Compiled c = compile(source, "bad" + std::to_string(&b - bad.data()) + ".star");
    ASSERT_TRUE(c.ok);
    startest::Vm fresh;  // a new interpreter per program (the device engine keeps state per module)
    startest::RunResult r = fresh.run(c.module, {graph});
    ASSERT_TRUE(r.error.has_value());
    EXPECT_EQ(*r.error, b.message);
    EXPECT_EQ(r.output, "before\n");
    EXPECT_NE(c.module.files.at(r.loc.file).find("trees.star"), std::string::npos);
    ASSERT_FALSE(r.callers.empty());
    EXPECT_EQ(c.module.files.at(r.callers.back().loc.file), c.path);
    EXPECT_EQ(r.callers.back().loc.line, 10u);  // the call in the program
  }
}

}  // namespace
}  // namespace star
