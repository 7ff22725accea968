// Helpers shared by the graph oracle tests (stdlib_graphs_test, stdlib_trees_test,
// stdlib_dynpaths_test, warshall_oracle_test): the Boost Graph Library with its GCC warning
// silenced, arcs, the weighted BGL graph types and the Chu-Liu/Edmonds reference (from
// GraphReference.h, which the benchmarks share), graphs as the tests generate them, the graph
// files the stdlib's LOADEDGES reads (DIMACS .gr, Matrix Market .mtx) and the 0/1 tables LOAD
// reads, the BGL references the tests share (Dijkstra, Kruskal's weight, the transitive
// closure), the check of a shortest-path predecessor table, and a fixture that compiles a Star
// driver with the stdlib units and runs it on a graph file.
#pragma once

#include <gtest/gtest.h>

// The Boost Graph Library (its GCC warning silenced, every header the oracle tests use), the
// arc type, the weighted graph types and the Chu-Liu/Edmonds reference.
#include "tests/unit/support/GraphReference.h"

#include <cstddef>
#include <iterator>
#include <limits>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "tests/unit/support/StarTestUtil.h"

namespace startest {

struct Graph {
  int n = 0;
  std::vector<Arc> arcs;
};

// The bits of the field that holds x (as LOADEDGES sizes its fields): at least 1.
inline int bitsOf(long x) {
  int k = 1;
  while (x >= 2) x /= 2, ++k;
  return k;
}

// ------------------------------------------------------------------ files

// A DIMACS shortest-path file ("p sp n m", an "a tail head weight" line per arc). The file holds
// the weights' magnitudes: a test with negative weights passes their signs separately.
inline std::string dimacs(int n, const std::vector<Arc>& arcs) {
  std::string s =
      "c random test graph\np sp " + std::to_string(n) + " " + std::to_string(arcs.size()) + "\n";
  for (const Arc& a : arcs)
    s += "a " + std::to_string(a.u) + " " + std::to_string(a.v) + " " +
         std::to_string(a.w < 0 ? -a.w : a.w) + "\n";
  return s;
}

inline std::string dimacs(const Graph& g) {
  return dimacs(g.n, g.arcs);
}

// An undirected graph (non-negative weights) as a file, in one of three forms (by `form`): each
// edge once (DIMACS), both directions (DIMACS, as road graphs list them), or a symmetric Matrix
// Market file (the loader adds the reverse arcs). `rows` := the rows of the edge list LOADEDGES
// makes of it, in order (parallel copies included).
inline std::string undirectedFile(const TempDir& dir, const Graph& g, int form,
                                  std::vector<Arc>& rows) {
  rows.clear();
  if (form == 0) {
    rows = g.arcs;
    return dir.write("graph.gr", dimacs(g));
  }
  if (form == 1) {
    Graph both = g;
    for (const Arc& a : g.arcs)
      if (a.u != a.v) both.arcs.push_back({a.v, a.u, a.w});
    rows = both.arcs;
    return dir.write("graph.gr", dimacs(both));
  }
  std::string s = "%%MatrixMarket matrix coordinate integer symmetric\n% test\n" +
                  std::to_string(g.n) + " " + std::to_string(g.n) + " " +
                  std::to_string(g.arcs.size()) + "\n";
  for (const Arc& a : g.arcs) {
    s += std::to_string(a.u) + " " + std::to_string(a.v) + " " + std::to_string(a.w) + "\n";
    rows.push_back(a);
    if (a.u != a.v) rows.push_back({a.v, a.u, a.w});
  }
  return dir.write("graph.mtx", s);
}

inline std::string undirectedFile(const TempDir& dir, const Graph& g, int form) {
  std::vector<Arc> rows;
  return undirectedFile(dir, g, form, rows);
}

// A 0/1 adjacency (or closure) table m[i][j], 0-based, and its text as LOAD reads it and
// writeln prints it: a line of '0' and '1' per row.
using Matrix = std::vector<std::vector<bool>>;

inline std::string tableText(const Matrix& m) {
  std::string s;
  for (auto& row : m) {
    for (bool b : row) s += b ? '1' : '0';
    s += '\n';
  }
  return s;
}

// ------------------------------------------------------------------ references

struct UnionFind {
  std::vector<int> parent;
  explicit UnionFind(int n) : parent(n + 1) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int x) { return parent[x] == x ? x : parent[x] = find(parent[x]); }
  bool join(int a, int b) {
    a = find(a), b = find(b);
    if (a == b) return false;
    parent[a] = b;
    return true;
  }
};

// The arcs on vertices 0..n-1 (arc u -> v is BGL's u - 1 -> v - 1), with their weights.
inline Directed toDirected(int n, const std::vector<Arc>& arcs) {
  Directed d(static_cast<std::size_t>(n));
  for (const Arc& a : arcs) boost::add_edge(a.u - 1, a.v - 1, a.w, d);
  return d;
}

// BGL's distances from s (1-based) over the arcs; kInf for unreachable vertices.
inline std::vector<long> bglDijkstra(int n, const std::vector<Arc>& arcs, int s) {
  Directed d = toDirected(n, arcs);
  std::vector<long> dist(n);
  std::vector<Directed::vertex_descriptor> pred(n);
  boost::dijkstra_shortest_paths(d, s - 1,
                                 boost::distance_map(dist.data()).predecessor_map(pred.data()));
  return dist;  // kInf (max) for unreachable vertices
}

// The weight of BGL's minimum spanning forest of u.
inline long bglKruskalWeight(const Undirected& u) {
  std::vector<Undirected::edge_descriptor> tree;
  boost::kruskal_minimum_spanning_tree(u, std::back_inserter(tree));
  long total = 0;
  for (auto& e : tree) total += boost::get(boost::edge_weight, u, e);
  return total;
}

// BGL's transitive closure of the digraph `adj` (paths of at least one arc); `closureVertices`,
// when given, := the closure graph's vertex count (n: vertex i of it is vertex i of adj).
//
// The diagonal: boost/graph/transitive_closure.hpp (Boost 1.74, the one installed here) puts
// the loop (u, u) into the closure exactly when u's strongly connected component has more than
// one vertex, or when the input graph has the loop u -> u ("Find loopbacks in the original
// graph" at the end of the algorithm). Both mean that u lies on a cycle, which is precisely
// when Warshall's listings set P(u, u) = 1. A Boost without the loopback pass would drop an
// input self-loop on a vertex that is its own component; OR-ing the input diagonal into the
// expectation covers that (for this Boost it changes nothing), and warshall_oracle_test's
// DiagonalSemantics checks the rule itself against a breadth-first search.
inline Matrix bglClosure(const Matrix& adj, std::size_t* closureVertices = nullptr) {
  const std::size_t n = adj.size();
  Digraph g(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (adj[i][j]) boost::add_edge(i, j, g);
  Digraph tc;
  boost::transitive_closure(g, tc);
  if (closureVertices) *closureVertices = boost::num_vertices(tc);
  // The closure's vertices are added in the order of g's vertices, so vertex i of tc is
  // vertex i of g (vecS: descriptors are indices 0..n-1).
  Matrix out(n, std::vector<bool>(n, false));
  for (auto [e, end] = boost::edges(tc); e != end; ++e)
    out[boost::source(*e, tc)][boost::target(*e, tc)] = true;
  for (std::size_t i = 0; i < n; ++i)
    if (adj[i][i]) out[i][i] = true;  // see above
  return out;
}

// A shortest-path predecessor table from s (1-based vertices, pred 0 for none) against its
// distances `dist` (kInf: unreachable): every reached vertex other than s has a predecessor p
// with a tight arc p -> v, and following predecessors from any vertex reaches s; s and
// unreachable vertices have none. "" when it holds, else what is wrong.
inline std::string checkPredecessors(int n, const std::vector<Arc>& arcs, int s,
                                     const std::vector<long>& dist, const std::vector<int>& pred) {
  for (int v = 1; v <= n; ++v) {
    int p = pred[v - 1];
    if (v == s || dist[v - 1] == kInf) {
      if (p != 0) return "vertex " + std::to_string(v) + " has predecessor " + std::to_string(p);
      continue;
    }
    if (p < 1 || p > n || dist[p - 1] == kInf)
      return "vertex " + std::to_string(v) + ": bad predecessor " + std::to_string(p);
    bool tight = false;
    for (const Arc& a : arcs)
      tight = tight || (a.u == p && a.v == v && dist[p - 1] + a.w == dist[v - 1]);
    if (!tight)
      return "vertex " + std::to_string(v) + ": no tight arc from its predecessor " +
             std::to_string(p);
    int u = v, steps = 0;
    while (u != s && steps <= n) u = pred[u - 1], ++steps;
    if (u != s) return "the predecessors of " + std::to_string(v) + " do not lead to the source";
  }
  return "";
}

// ------------------------------------------------------------------ Star side

// Runs the compiled driver with `args` on `vm` and returns what it printed; a runtime error
// fails the test.
inline std::string runOutput(Vm& vm, const Compiled& c, std::vector<std::string> args) {
  RunResult r = vm.run(c.module, std::move(args));
  EXPECT_FALSE(r.error) << *r.error << " at line " << r.loc.line;
  return r.output;
}

// The fixture of the stdlib oracle tests: a temporary directory for the graph files, compile()
// of a driver with the stdlib units on the search path (a compile error fails the test), and
// run() of it on a fresh interpreter.
class StdlibOracleTest : public ::testing::Test {
 protected:
  Compiled compile(const std::string& source, const std::string& name) {
    Compiled c = compileWithStdlib(dir, source, name, true);
    EXPECT_TRUE(c.ok) << c.diagnostics;
    return c;
  }

  std::string run(const Compiled& c, std::vector<std::string> args) {
    Vm vm;
    return runOutput(vm, c, std::move(args));
  }

  TempDir dir;
};

}  // namespace startest
