// stdlib/graphs.star against an independent oracle, the Boost Graph Library: FLOYD against
// floyd_warshall_all_pairs_shortest_paths, DIJKSTRA against dijkstra_shortest_paths,
// BELLMANFORD against bellman_ford_shortest_paths (distances and negative-cycle detection),
// PRIM against prim_minimum_spanning_tree and KRUSKAL against kruskal_minimum_spanning_tree
// (total tree weight: ties make the trees themselves differ). Each algorithm runs on at least
// 200 random graphs (fixed seeds) of varied size, density and weights, with loops, parallel
// arcs, zero weights and unreachable vertices, through the compiler and the VM on the CPU
// backend. Predecessors and chosen edges are checked for validity rather than equality:
// every predecessor arc is a tight arc of the graph and leads back to the source; every chosen
// tree edge is an edge of the graph and together they form a spanning tree (forest). The unit's
// WARSHALL and WARSHALL_C are checked against breadth-first search on 200 random digraphs.
// The whole suite runs in a few seconds on one core.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/unit/support/GraphOracle.h"

namespace star {
namespace {

// Arc weights are signed here: the graph file (dimacs) holds |w|, the sign file the sign.
using startest::Arc;
using startest::dimacs;
using startest::Graph;
using startest::kInf;
using startest::undirectedFile;

// ------------------------------------------------------------------ files

// The sign table of BELLMANFORD / GR_DISTTABLE: one row per arc, 1 for a negative weight.
std::string signs(const Graph& g) {
  std::string s;
  for (const Arc& a : g.arcs) s += a.w < 0 ? "1\n" : "0\n";
  return s;
}

bool hasNegative(const Graph& g) {
  return std::any_of(g.arcs.begin(), g.arcs.end(), [](const Arc& a) { return a.w < 0; });
}

// ------------------------------------------------------------------ Star side

// Args: graph file, n, source, sign file or "-". Prints "v dist pred" or "v - pred".
const char* kDijkstraDriver = R"(program DijkstraDriver;
uses graphs;
var E, D, P: table; vb, wb, n, s, v: integer;
begin
  LOADEDGES(E, ParamStr(1), vb, wb);
  n := StrToInt(ParamStr(2));
  s := StrToInt(ParamStr(3));
  DIJKSTRA(E, vb, wb, n, s, D, P);
  for v := 1 to n do
    if GR_REACHED(D, v) then writeln(v, ' ', GR_DIST(D, v), ' ', GR_PRED(P, v))
    else writeln(v, ' - ', GR_PRED(P, v))
end.
)";

const char* kBellmanFordDriver = R"(program BellmanFordDriver;
uses graphs;
var E, D, P, SG: table; NEG: slice; vb, wb, n, s, v: integer;
begin
  LOADEDGES(E, ParamStr(1), vb, wb);
  n := StrToInt(ParamStr(2));
  s := StrToInt(ParamStr(3));
  if ParamStr(4) <> '-' then begin LOAD(SG, ParamStr(4)); NEG := COL(1, SG) end;
  if BELLMANFORD(E, vb, wb, NEG, n, s, D, P) then
  begin
    writeln('ok');
    for v := 1 to n do
      if GR_REACHED(D, v) then writeln(v, ' ', GR_DIST(D, v), ' ', GR_PRED(P, v))
      else writeln(v, ' - ', GR_PRED(P, v))
  end
  else writeln('negative cycle')
end.
)";

// Args: graph file, n, sign file or "-". Prints n lines of n distances ("-" for none).
const char* kFloydDriver = R"(program FloydDriver;
uses graphs;
var E, D, SG: table; NEG: slice; vb, wb, n, i, j: integer;
begin
  LOADEDGES(E, ParamStr(1), vb, wb);
  n := StrToInt(ParamStr(2));
  if ParamStr(3) <> '-' then begin LOAD(SG, ParamStr(3)); NEG := COL(1, SG) end;
  GR_DISTTABLE(E, vb, wb, NEG, n, D);
  if FLOYD(n, D) then
  begin
    writeln('ok');
    for i := 1 to n do
    begin
      for j := 1 to n do
        if GR_REACHED2(D, i, j) then write(GR_DIST2(D, i, j), ' ') else write('- ');
      writeln
    end
  end
  else writeln('negative cycle')
end.
)";

// Args: graph file, root (PRIM only). Prints the total, then "tail head weight" per tree edge.
// A spanning-tree driver: `call` computes `total` and the tree slice T from the edge list E.
std::string treeDriver(const std::string& name, const std::string& call) {
  return "program " + name + R"(;
uses graphs;
var E: table; T: slice; vb, wb, ei, total: integer;
begin
  LOADEDGES(E, ParamStr(1), vb, wb);
  )" + call + R"(;
  writeln(total);
  ei := STEP(T);
  while ei > 0 do
  begin
    writeln(GR_FIELD(E, ei, 1, vb), ' ', GR_FIELD(E, ei, vb + 1, vb), ' ', GR_FIELD(E, ei, 2 * vb + 1, wb));
    ei := STEP(T)
  end
end.
)";
}
const std::string kPrimDriver =
    treeDriver("PrimDriver", "total := PRIM(E, vb, wb, StrToInt(ParamStr(2)), T)");
const std::string kKruskalDriver = treeDriver("KruskalDriver", "total := KRUSKAL(E, vb, wb, T)");

// Args: adjacency table file. Prints WARSHALL's closure, an empty line, WARSHALL_C's.
const char* kWarshallDriver = R"(program WarshallDriver;
uses graphs;
var P, Q: table;
begin
  LOAD(P, ParamStr(1));
  Q := P;
  WARSHALL(ROWS(P), P);
  WARSHALL_C(ROWS(Q), Q);
  writeln(P);
  writeln;
  writeln(Q)
end.
)";

// ------------------------------------------------------------------ BGL side

using startest::Directed;
using startest::Undirected;

Directed toDirected(const Graph& g) { return startest::toDirected(g.n, g.arcs); }

// BGL's Prim relaxes a loop u -- u while u is being examined and can overwrite u's distance
// with the loop's weight; loops are never in a spanning tree, so the oracle leaves them out.
Undirected toUndirected(const Graph& g) {
  Undirected d(static_cast<std::size_t>(g.n));
  for (const Arc& a : g.arcs)
    if (a.u != a.v) boost::add_edge(a.u - 1, a.v - 1, a.w, d);
  return d;
}

// Returns false on a negative cycle reachable from s.
bool bglBellmanFord(const Graph& g, int s, std::vector<long>& dist) {
  Directed d = toDirected(g);
  dist.assign(g.n, kInf);
  dist[s - 1] = 0;
  std::vector<Directed::vertex_descriptor> pred(g.n);
  std::iota(pred.begin(), pred.end(), 0);
  return boost::bellman_ford_shortest_paths(d, static_cast<std::size_t>(g.n),
                                            boost::weight_map(boost::get(boost::edge_weight, d))
                                                .distance_map(dist.data())
                                                .predecessor_map(pred.data()));
}

bool bglFloyd(const Graph& g, std::vector<std::vector<long>>& dist) {
  Directed d = toDirected(g);
  dist.assign(g.n, std::vector<long>(g.n, kInf));
  return boost::floyd_warshall_all_pairs_shortest_paths(d, dist);
}

long bglPrim(const Graph& g, int root) {
  Undirected u = toUndirected(g);
  std::vector<Undirected::vertex_descriptor> pred(g.n);
  std::vector<long> dist(g.n);
  boost::prim_minimum_spanning_tree(u, pred.data(), boost::distance_map(dist.data()).root_vertex(root - 1));
  long total = 0;
  for (int v = 0; v < g.n; ++v)
    if (v != root - 1 && pred[v] != static_cast<std::size_t>(v)) total += dist[v];
  return total;
}

long bglKruskal(const Graph& g) { return startest::bglKruskalWeight(toUndirected(g)); }

// ------------------------------------------------------------------ random graphs

struct Case {
  int n;
  int m;
  long maxWeight;     // weights 0..maxWeight (magnitudes)
  double negative;    // probability of a negative weight
  std::uint64_t seed;
  bool dag = false;   // arcs only from lower to higher numbers: no cycles, loops non-negative
};

Graph randomGraph(const Case& c) {
  std::mt19937_64 rng(c.seed);
  std::uniform_int_distribution<int> vertex(1, c.n);
  std::uniform_int_distribution<long> weight(0, c.maxWeight);
  std::bernoulli_distribution neg(c.negative);
  Graph g;
  g.n = c.n;
  for (int i = 0; i < c.m; ++i) {
    Arc a{vertex(rng), vertex(rng), weight(rng)};
    if (c.dag && a.u > a.v) std::swap(a.u, a.v);
    if (neg(rng) && !(c.dag && a.u == a.v)) a.w = -a.w;
    g.arcs.push_back(a);
  }
  return g;
}

// Sizes from 1 to maxN, arcs from none to about 6 per vertex, weights from 0..1 to 0..2^20.
std::vector<Case> cases(std::uint64_t seed, int count, int maxN, double negative, bool dag = false) {
  std::vector<Case> out;
  // The corners first: one vertex, no arcs, all weights zero, dense, heavy.
  out.push_back({1, 0, 5, negative, seed++});
  out.push_back({1, 2, 5, negative, seed++});
  out.push_back({2, 1, 0, negative, seed++});
  out.push_back({5, 0, 3, negative, seed++});
  out.push_back({maxN, maxN * maxN / 2, 1, negative, seed++});
  out.push_back({maxN, 3 * maxN, (1L << 20) - 1, negative, seed++});
  out.push_back({7, 30, 0, negative, seed++});
  std::mt19937_64 rng(seed * 7919);
  std::uniform_int_distribution<int> size(1, maxN);
  std::uniform_real_distribution<double> perVertex(0.0, 6.0);
  std::uniform_int_distribution<int> weightBits(0, 12);
  while (static_cast<int>(out.size()) < count) {
    int n = size(rng);
    int m = static_cast<int>(perVertex(rng) * n);
    long maxW = (1L << weightBits(rng)) - 1;
    if (maxW == 0 && out.size() % 3) maxW = 9;
    out.push_back({n, m, maxW, negative, seed++, dag});
  }
  for (Case& c : out) c.dag = dag;
  return out;
}

std::string describe(const Case& c) {
  return "n = " + std::to_string(c.n) + ", m = " + std::to_string(c.m) + ", weights <= " +
         std::to_string(c.maxWeight) + ", seed " + std::to_string(c.seed);
}

// ------------------------------------------------------------------ output parsing

struct SingleSource {
  std::vector<long> dist;  // kInf: unreachable
  std::vector<int> pred;
};

bool parseSingleSource(std::istream& in, int n, SingleSource& out) {
  out.dist.assign(n, kInf);
  out.pred.assign(n, -1);
  for (int i = 0; i < n; ++i) {
    int v;
    std::string d;
    int p;
    if (!(in >> v >> d >> p) || v != i + 1) return false;
    out.dist[i] = d == "-" ? kInf : std::stol(d);
    out.pred[i] = p;
  }
  return true;
}

// Every reached vertex other than s has a predecessor u with a tight arc u -> v, and following
// predecessors from any vertex reaches s; s and unreachable vertices have none (0).
std::string checkPredecessors(const Graph& g, int s, const SingleSource& r) {
  return startest::checkPredecessors(g.n, g.arcs, s, r.dist, r.pred);
}

// Tree edges printed by the MST drivers: a total, then "tail head weight" lines.
struct Tree {
  long total = -1;
  std::vector<Arc> edges;
};

Tree parseTree(const std::string& text) {
  Tree t;
  std::istringstream in(text);
  in >> t.total;
  Arc a;
  while (in >> a.u >> a.v >> a.w) t.edges.push_back(a);
  return t;
}

using startest::UnionFind;

// The chosen edges are edges of g, sum to the total, and form a forest; with `root` > 0 they
// span exactly root's component, otherwise every component.
std::string checkTree(const Graph& g, const Tree& t, int root) {
  long sum = 0;
  UnionFind chosen(g.n);
  for (const Arc& e : t.edges) {
    bool found = false;
    for (const Arc& a : g.arcs)
      found = found || (a.w == e.w && ((a.u == e.u && a.v == e.v) || (a.u == e.v && a.v == e.u)));
    if (!found) return "tree edge " + std::to_string(e.u) + "-" + std::to_string(e.v) + " is not in the graph";
    if (!chosen.join(e.u, e.v)) return "the tree edges close a cycle";
    sum += e.w;
  }
  if (sum != t.total) return "the tree edges weigh " + std::to_string(sum) + ", the result says " + std::to_string(t.total);
  UnionFind all(g.n);
  for (const Arc& a : g.arcs) all.join(a.u, a.v);
  for (int v = 1; v <= g.n; ++v) {
    bool inGraphComponent = root > 0 ? all.find(v) == all.find(root) : true;
    bool spanned = root > 0 ? chosen.find(v) == chosen.find(root) : chosen.find(v) == chosen.find(v);
    if (inGraphComponent != spanned) return "vertex " + std::to_string(v) + " is wrongly (not) spanned";
    if (root == 0)
      for (int u = 1; u < v; ++u)
        if ((all.find(u) == all.find(v)) != (chosen.find(u) == chosen.find(v)))
          return "vertices " + std::to_string(u) + " and " + std::to_string(v) + ": forest and graph components differ";
  }
  return "";
}

// ------------------------------------------------------------------ fixture

class StdlibGraphs : public startest::StdlibOracleTest {
 protected:
  std::string signFile(const Graph& g) {
    return hasNegative(g) ? dir.write("graph.sign", signs(g)) : std::string("-");
  }
};

TEST_F(StdlibGraphs, DijkstraMatchesBgl) {
  startest::Compiled driver = compile(kDijkstraDriver, "dijkstra.star");
  ASSERT_TRUE(driver.ok);
  int checked = 0, withUnreachable = 0;
  for (const Case& c : cases(5000, 220, 100, 0.0)) {
    SCOPED_TRACE(describe(c));
    Graph g = randomGraph(c);
    std::mt19937 rng(static_cast<unsigned>(c.seed));
    int s = std::uniform_int_distribution<int>(1, c.n)(rng);
    std::string out = run(driver, {dir.write("graph.gr", dimacs(g)), std::to_string(c.n), std::to_string(s)});
    std::istringstream in(out);
    SingleSource got;
    ASSERT_TRUE(parseSingleSource(in, c.n, got)) << out;
    std::vector<long> want = startest::bglDijkstra(g.n, g.arcs, s);
    EXPECT_EQ(got.dist, want) << out;
    std::string bad = checkPredecessors(g, s, got);
    EXPECT_EQ(bad, "") << out;
    withUnreachable += std::count(want.begin(), want.end(), kInf) > 0;
    ++checked;
  }
  std::printf("dijkstra: %d graphs, %d with unreachable vertices\n", checked, withUnreachable);
  EXPECT_GE(checked, 200);
  EXPECT_GE(withUnreachable, 50);
  EXPECT_LE(withUnreachable, checked - 50);
}

TEST_F(StdlibGraphs, BellmanFordMatchesBgl) {
  startest::Compiled driver = compile(kBellmanFordDriver, "bellman_ford.star");
  ASSERT_TRUE(driver.ok);
  int checked = 0, cycles = 0, negativeNoCycle = 0;
  std::vector<Case> all = cases(7000, 100, 60, 0.15);
  for (const Case& c : cases(8000, 40, 60, 0.4, true)) all.push_back(c);  // negative, acyclic
  for (const Case& c : cases(9000, 90, 60, 0.0)) all.push_back(c);  // LOADEDGES tables as they are
  for (const Case& c : all) {
    SCOPED_TRACE(describe(c));
    Graph g = randomGraph(c);
    std::mt19937 rng(static_cast<unsigned>(c.seed));
    int s = c.dag ? 1 : std::uniform_int_distribution<int>(1, c.n)(rng);  // a DAG's first vertex reaches most
    std::string out = run(driver, {dir.write("graph.gr", dimacs(g)), std::to_string(c.n), std::to_string(s), signFile(g)});
    std::vector<long> want;
    bool ok = bglBellmanFord(g, s, want);
    std::istringstream in(out);
    std::string first;
    in >> first;
    ++checked;
    if (!ok) {
      EXPECT_EQ(first, "negative") << out;
      ++cycles;
      continue;
    }
    ASSERT_EQ(first, "ok") << out;
    SingleSource got;
    ASSERT_TRUE(parseSingleSource(in, c.n, got)) << out;
    EXPECT_EQ(got.dist, want) << out;
    EXPECT_EQ(checkPredecessors(g, s, got), "") << out;
    negativeNoCycle += std::any_of(want.begin(), want.end(), [](long d) { return d < 0; });
  }
  std::printf("bellman-ford: %d graphs, %d with a negative cycle, %d with negative distances\n", checked, cycles, negativeNoCycle);
  EXPECT_GE(checked, 200);
  EXPECT_GE(cycles, 30);
  EXPECT_GE(negativeNoCycle, 30);
}

TEST_F(StdlibGraphs, FloydMatchesBgl) {
  startest::Compiled driver = compile(kFloydDriver, "floyd.star");
  ASSERT_TRUE(driver.ok);
  int checked = 0, cycles = 0, negativeNoCycle = 0;
  std::vector<Case> all = cases(11000, 90, 24, 0.0);
  for (const Case& c : cases(12000, 40, 24, 0.4, true)) all.push_back(c);
  for (const Case& c : cases(13000, 90, 24, 0.12)) all.push_back(c);
  for (const Case& c : all) {
    SCOPED_TRACE(describe(c));
    Graph g = randomGraph(c);
    std::string out = run(driver, {dir.write("graph.gr", dimacs(g)), std::to_string(c.n), signFile(g)});
    std::vector<std::vector<long>> want;
    bool ok = bglFloyd(g, want);
    std::istringstream in(out);
    std::string first;
    in >> first;
    ++checked;
    if (!ok) {
      EXPECT_EQ(first, "negative") << out;
      ++cycles;
      continue;
    }
    ASSERT_EQ(first, "ok") << out;
    std::vector<std::vector<long>> got(c.n, std::vector<long>(c.n, kInf));
    for (int i = 0; i < c.n; ++i)
      for (int j = 0; j < c.n; ++j) {
        std::string d;
        ASSERT_TRUE(in >> d) << out;
        got[i][j] = d == "-" ? kInf : std::stol(d);
      }
    EXPECT_EQ(got, want) << out;
    negativeNoCycle += std::any_of(want.begin(), want.end(), [](const std::vector<long>& row) {
      return std::any_of(row.begin(), row.end(), [](long d) { return d < 0; });
    });
  }
  std::printf("floyd: %d graphs, %d with a negative cycle, %d with negative distances\n", checked, cycles, negativeNoCycle);
  EXPECT_GE(checked, 200);
  EXPECT_GE(cycles, 20);
  EXPECT_GE(negativeNoCycle, 30);
}

// The undirected graphs below go to Star as files in one of three forms, by the seed (see
// startest::undirectedFile): each edge once in a random direction, both directions as road graphs
// list them, or a symmetric Matrix Market file (the loader adds the reverse arcs).

TEST_F(StdlibGraphs, PrimMatchesBgl) {
  startest::Compiled driver = compile(kPrimDriver, "prim.star");
  ASSERT_TRUE(driver.ok);
  int checked = 0, partial = 0;
  for (const Case& c : cases(15000, 220, 100, 0.0)) {
    SCOPED_TRACE(describe(c));
    Graph g = randomGraph(c);
    std::mt19937 rng(static_cast<unsigned>(c.seed));
    int root = std::uniform_int_distribution<int>(1, c.n)(rng);
    std::string out =
        run(driver, {undirectedFile(dir, g, static_cast<int>(c.seed % 3)), std::to_string(root)});
    Tree t = parseTree(out);
    EXPECT_EQ(t.total, bglPrim(g, root)) << out;
    EXPECT_EQ(checkTree(g, t, root), "") << out;
    partial += static_cast<int>(t.edges.size()) + 1 < c.n;
    ++checked;
  }
  EXPECT_GE(checked, 200);
  EXPECT_GE(partial, 30);
}

TEST_F(StdlibGraphs, KruskalMatchesBgl) {
  startest::Compiled driver = compile(kKruskalDriver, "kruskal.star");
  ASSERT_TRUE(driver.ok);
  int checked = 0, forests = 0;
  for (const Case& c : cases(17000, 220, 100, 0.0)) {
    SCOPED_TRACE(describe(c));
    Graph g = randomGraph(c);
    std::string out = run(driver, {undirectedFile(dir, g, static_cast<int>(c.seed % 3))});
    Tree t = parseTree(out);
    EXPECT_EQ(t.total, bglKruskal(g)) << out;
    EXPECT_EQ(checkTree(g, t, 0), "") << out;
    forests += static_cast<int>(t.edges.size()) + 1 < c.n;
    ++checked;
  }
  EXPECT_GE(checked, 200);
  EXPECT_GE(forests, 30);
}

// The unit's WARSHALL and WARSHALL_C (the listings of examples/warshall.star, which
// warshall_oracle_test checks against BGL) against paths of at least one arc found by
// breadth-first search, on the adjacency tables of random digraphs.
TEST_F(StdlibGraphs, WarshallListingsMatchBreadthFirstSearch) {
  startest::Compiled driver = compile(kWarshallDriver, "warshall.star");
  ASSERT_TRUE(driver.ok);
  int checked = 0;
  for (const Case& c : cases(19000, 200, 70, 0.0)) {
    SCOPED_TRACE(describe(c));
    Graph g = randomGraph(c);
    std::vector<std::string> adj(c.n, std::string(c.n, '0'));
    for (const Arc& a : g.arcs) adj[a.u - 1][a.v - 1] = '1';
    std::string table;
    for (auto& row : adj) table += row + "\n";
    std::vector<std::string> want(c.n, std::string(c.n, '0'));
    for (int s = 0; s < c.n; ++s) {
      std::vector<int> stack;
      for (int j = 0; j < c.n; ++j)
        if (adj[s][j] == '1' && want[s][j] == '0') want[s][j] = '1', stack.push_back(j);
      while (!stack.empty()) {
        int u = stack.back();
        stack.pop_back();
        for (int j = 0; j < c.n; ++j)
          if (adj[u][j] == '1' && want[s][j] == '0') want[s][j] = '1', stack.push_back(j);
      }
    }
    std::string expected;
    for (auto& row : want) expected += row + "\n";
    std::string out = run(driver, {dir.write("graph.txt", table)});
    EXPECT_EQ(out, expected + "\n" + expected);
    ++checked;
  }
  EXPECT_GE(checked, 200);
}

// Prim from every root of a connected graph and Kruskal give the same weight.
TEST_F(StdlibGraphs, PrimAndKruskalAgreeOnConnectedGraphs) {
  startest::Compiled prim = compile(kPrimDriver, "prim.star");
  startest::Compiled kruskal = compile(kKruskalDriver, "kruskal.star");
  ASSERT_TRUE(prim.ok && kruskal.ok);
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    Graph g = randomGraph({12, 0, 20, 0.0, seed});
    std::mt19937_64 rng(seed);
    for (int v = 2; v <= 12; ++v)  // a random spanning tree, then extra edges
      g.arcs.push_back({std::uniform_int_distribution<int>(1, v - 1)(rng), v, static_cast<long>(rng() % 20)});
    for (int i = 0; i < 15; ++i)
      g.arcs.push_back({static_cast<int>(rng() % 12) + 1, static_cast<int>(rng() % 12) + 1, static_cast<long>(rng() % 20)});
    std::string file = undirectedFile(dir, g, static_cast<int>(seed % 3));
    long want = parseTree(run(kruskal, {file})).total;
    EXPECT_EQ(want, bglKruskal(g));
    for (int root = 1; root <= 12; ++root) EXPECT_EQ(parseTree(run(prim, {file, std::to_string(root)})).total, want);
  }
}

}  // namespace
}  // namespace star
