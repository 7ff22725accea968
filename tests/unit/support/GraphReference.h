// The Boost Graph Library with its GCC warning silenced, and references that need neither gtest
// nor the Star test fixtures, so that the benchmarks (bench/GraphBench.h) share them with the
// graph oracle tests (tests/unit/support/GraphOracle.h includes this header): the arc type, the
// weighted BGL graph types and a Chu-Liu/Edmonds reference for minimum spanning arborescences.
#pragma once

// GCC 12 reports -Wmaybe-uninitialized inside Boost's edge iterators (a known false positive of
// boost::optional in adj_list_edge_iterator); it says nothing about the tests or benchmarks.
// Every Boost Graph header they use is included here, inside the one pragma block.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/bellman_ford_shortest_paths.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/floyd_warshall_shortest.hpp>
#include <boost/graph/graph_traits.hpp>
#include <boost/graph/kruskal_min_spanning_tree.hpp>
#include <boost/graph/prim_minimum_spanning_tree.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/graph/transitive_closure.hpp>
#include <boost/pending/disjoint_sets.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <limits>
#include <utility>
#include <vector>

namespace startest {

// A distance that was never reached (what BGL's Dijkstra leaves in an unreachable vertex).
inline constexpr long kInf = std::numeric_limits<long>::max();

struct Arc {
  int u, v;  // 1-based (chuLiuEdmonds: 0-based)
  long w;
};

using Digraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using Directed =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                          boost::property<boost::edge_weight_t, long>>;
using Undirected =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property,
                          boost::property<boost::edge_weight_t, long>>;

// Chu-Liu/Edmonds (the O(VE) contraction algorithm, weight only): the weight of a minimum
// spanning arborescence rooted at `root` (0-based vertices), -1 when there is none. Repeatedly:
// the cheapest arc into each vertex; no cycle among them: done; otherwise contract every cycle,
// reduce the arcs entering it by the arc they would replace, and go on with the contracted graph.
inline long chuLiuEdmonds(int n, int root, std::vector<Arc> arcs) {
  long result = 0;
  while (true) {
    std::vector<long> in(n, kInf);
    std::vector<int> pre(n, -1);
    for (const Arc& a : arcs)
      if (a.u != a.v && a.w < in[a.v]) in[a.v] = a.w, pre[a.v] = a.u;
    for (int v = 0; v < n; ++v)
      if (v != root && in[v] == kInf) return -1;
    int count = 0;
    std::vector<int> id(n, -1), seen(n, -1);
    in[root] = 0;
    for (int v = 0; v < n; ++v) {
      result += in[v];
      int x = v;
      while (seen[x] != v && id[x] == -1 && x != root) seen[x] = v, x = pre[x];
      if (x != root && id[x] == -1) {
        for (int y = pre[x]; y != x; y = pre[y]) id[y] = count;
        id[x] = count++;
      }
    }
    if (count == 0) break;
    for (int v = 0; v < n; ++v)
      if (id[v] == -1) id[v] = count++;
    std::vector<Arc> next;
    next.reserve(arcs.size());
    for (const Arc& a : arcs) {
      const int u = id[a.u], v = id[a.v];
      if (u != v) next.push_back({u, v, a.w - in[a.v]});
    }
    arcs = std::move(next);
    n = count;
    root = id[root];
  }
  return result;
}

}  // namespace startest
