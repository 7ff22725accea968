// Issue #29's targets: the dynamic graph procedures (stdlib/dynpaths.star, stdlib/trees.star)
// against recomputing with the static procedure on the same backend, and EDMONDS and GABOW
// against C++ references, all on random sparse graphs of --vertices vertices (fixed seeds).
//  * Dynamic problems. For each: the static procedure once on the first graph (the state the
//    updates start from) and once more on the final graph (the check), both timed; then
//    --updates deletions and as many insertions, alternating (a deletion first, so that the
//    graph keeps its size and the edge lists never have to grow), each one a separate call into
//    the VM, timed from the call to the backend's synchronize. The distribution (min, median,
//    p90, max, mean) of each kind is printed, with how many updates changed the maintained
//    result, "static / median", "/ p90" and "/ max": the faster static run over those (issue
//    #29 asks for at least 20x), and the slowest update of each kind with what it changed.
//      - closure: a random digraph of --closure-vertices vertices and about --degree arcs per
//        vertex; CLOSURE (the native closure, WARSHALL_C's reference body with --no-native) on
//        the adjacency table A; CLOSURE_INSERT of a random arc not in A, CLOSURE_DELETE of a
//        random arc of A. Check: the maintained C equals CLOSURE from scratch on the final A, bit
//        for bit, and both equal a host closure (strong components and reachability sets).
//      - sssp: a random digraph of --vertices vertices, about --degree arcs per vertex, weights
//        1..100, source 1; DIJKSTRA; SSSP_INSERT of a random arc (weight 1..100), SSSP_DELETE of
//        a random arc of E. Check: the maintained distances equal DIJKSTRA's from scratch on the
//        final E and BGL's dijkstra_shortest_paths.
//      - mst: a random undirected graph of --vertices vertices, about --degree edges at a vertex
//        (each edge once), weights 1..100; KRUSKAL (and DMST_INIT, reported apart); DMST_INSERT
//        of a random edge, DMST_DELETE of a random edge. Check: the maintained forest weighs what
//        KRUSKAL from scratch on the final E does, and BGL's kruskal_minimum_spanning_tree.
//  * EDMONDS on a random digraph of --vertices vertices (a random arborescence from vertex 1
//    plus random arcs, about --degree per vertex, weights 1..100, rows shuffled) against a C++
//    Chu-Liu/Edmonds (the O(VE) contraction algorithm, tests/unit/support/GraphReference.h's,
//    which tests/unit/stdlib_trees_test.cpp checks EDMONDS against too);
//    GABOW (degree of vertex 1 at most k, and exactly k) on a random connected undirected graph
//    (a random spanning tree plus random edges, plus 30 more edges at vertex 1) against a
//    Lagrangian reference: BGL's kruskal_minimum_spanning_tree with the edges at vertex 1
//    shifted by lambda, maximised over integer lambda by ternary search. The Star answer must be
//    a spanning arborescence / tree of the right kind weighing what it returned and what the
//    reference found.
// Every mismatch prints DIFFERS and makes the exit status 1; when all checks pass the last line
// is "all results agree". --check-each also compares every dynamic state with the host
// reference after every update (for small graphs: the smoke test).
// Backends: cpu (host engine unless --engine=device) and, in a build with CUDA and with a device
// present, cuda with the device engine; --backend=all (the default) runs the CPU and then the
// GPU where there is one, --backend=cuda without a GPU prints why and exits 0.
//   usage: dynamic_bench [--vertices=N] [--closure-vertices=N] [--updates=N] [--degree=D]
//                        [--backend=cpu|cuda|all] [--engine=host|device] [--no-native]
//                        [--problems=closure,sssp,mst,edmonds,gabow] [--check-each] [--seed=S]
//          (defaults: 10000 vertices, closure as many as --vertices, 100, 4.5, all, host on the
//          CPU / device on the GPU, natives on, every problem, seed 20261127). At the defaults
//          the whole run takes about 15 s on one core of this project's development machine.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include <unistd.h>

#include "bench/BenchUtil.h"
#include "bench/GraphBench.h"  // BGL (its warning silenced), Chu-Liu/Edmonds and the shared helpers
#include "core/BitLayout.h"
#include "vm/interp/Interpreter.h"
#include "vm/io/GraphFiles.h"

using namespace star;
using namespace star::bench;  // GraphBench.h's helpers, BGL's graph types, kInf

namespace {

constexpr std::int64_t kMaxWeight = 100;  // weights 1..kMaxWeight everywhere
constexpr int kExtraAtRoot = 30;          // GABOW's graph: more edges at vertex 1

// Every procedure behind one entry point: the host sets the globals (op and the arguments) and
// runs the program once per call; the state stays in the globals between calls.
const char* kDriver = R"(program DynamicBench;
uses graphs, dynpaths, trees;
var A, C, C2, E, D, P, D2, P2, F, Q, G, H: table; T, T2, B, TG: slice;
    op, n, s, vb, wb, fvb, fwb, gvb, gwb, hvb, hwb, u, v, w, r, k, ex, total: integer;
begin
  if op = 1 then C := A
  else if op = 2 then CLOSURE(C)
  else if op = 3 then C2 := A
  else if op = 4 then CLOSURE(C2)
  else if op = 5 then CLOSURE_INSERT(A, C, u, v)
  else if op = 6 then CLOSURE_DELETE(A, C, u, v)
  else if op = 11 then DIJKSTRA(E, vb, wb, n, s, D, P)
  else if op = 12 then DIJKSTRA(E, vb, wb, n, s, D2, P2)
  else if op = 13 then SSSP_INSERT(E, vb, wb, n, s, D, P, u, v, w)
  else if op = 14 then SSSP_DELETE(E, vb, wb, n, s, D, P, u, v)
  else if op = 21 then total := KRUSKAL(F, fvb, fwb, T)
  else if op = 22 then DMST_INIT(F, fvb, fwb, n, T, Q)
  else if op = 23 then total := KRUSKAL(F, fvb, fwb, T2)
  else if op = 24 then DMST_INSERT(F, fvb, fwb, T, Q, u, v, w)
  else if op = 25 then DMST_DELETE(F, fvb, fwb, T, Q, u, v, w)
  else if op = 26 then total := DMST_WEIGHT(F, fvb, fwb, T)
  else if op = 31 then total := EDMONDS(G, gvb, gwb, n, r, B)
  else if op = 41 then total := GABOW(H, hvb, hwb, n, r, k, ex = 1, TG)
end.
)";

enum Op {
  kNothing = 0,
  kCopyC = 1, kClosure = 2, kCopyC2 = 3, kClosure2 = 4, kClosureInsert = 5, kClosureDelete = 6,
  kDijkstra = 11, kDijkstra2 = 12, kSsspInsert = 13, kSsspDelete = 14,
  kKruskal = 21, kDmstInit = 22, kKruskal2 = 23, kDmstInsert = 24, kDmstDelete = 25,
  kDmstWeight = 26,
  kEdmonds = 31, kGabow = 41
};

struct Options {
  std::uint64_t vertices = 10000, closureVertices = 10000, updates = 100;
  double degree = 4.5;
  std::uint64_t seed = 20261127;
  std::string backend = "all", engine;  // engine "": host on the CPU, device on the GPU
  bool natives = true, checkEach = false;
  std::set<std::string> problems{"closure", "sssp", "mst", "edmonds", "gabow"};
};

// ------------------------------------------------------------------ the VM

// Whether the CUDA backend can run here; when not, *why says why.
bool cudaUsable(std::string* why) {
#ifdef STAR_HAVE_CUDA
  return cudaBackendAvailable(why);
#else
  *why = "this build has no CUDA backend (STAR_HAVE_CUDA off)";
  return false;
#endif
}

// One backend, one interpreter and the driver's globals.
class Session {
 public:
  Session(const Module& m, const std::string& backendName, const std::string& engine, bool natives)
      : m_(m), backend_(makeBackend(backendName)), vm_(*backend_, out_) {
    vm_.enableNatives(natives);
    if (engine == "device") {
      vm_.enableDeviceEngine(true);
      if (!vm_.deviceEngineOn()) {
        std::fprintf(stderr, "backend %s has no device engine\n", backendName.c_str());
        std::exit(1);
      }
    }
    vm_.allocateGlobals(m_);
  }
  Backend& backend() { return *backend_; }

  std::uint32_t index(const std::string& name) const { return globalIndex(m_, name); }
  void setInt(const std::string& name, std::int64_t x) { vm_.globals()[index(name)].i = x; }
  std::int64_t getInt(const std::string& name) { return vm_.globals()[index(name)].i; }
  // The arc an update inserts or deletes: u -> v.
  void setArc(std::uint64_t u, std::uint64_t v) {
    setInt("u", static_cast<std::int64_t>(u));
    setInt("v", static_cast<std::int64_t>(v));
  }
  Handle handle(const std::string& name) {
    return static_cast<Handle>(vm_.globals()[index(name)].u);
  }
  void writeTable(const std::string& name, const TableData& t) {
    backend_->writeTable(handle(name), t.rows, t.cols, t.words.data());
  }
  std::vector<std::uint64_t> readTable(const std::string& name) {
    std::vector<std::uint64_t> w;
    backend_->readTable(handle(name), w);
    return w;
  }
  std::vector<std::uint64_t> readBits(const std::string& name) {
    std::vector<std::uint64_t> w;
    backend_->readBits(handle(name), w);
    return w;
  }
  std::uint64_t rows(const std::string& name) { return backend_->rows(handle(name)); }
  std::uint64_t cols(const std::string& name) { return backend_->cols(handle(name)); }

  // Runs the driver with op; the seconds from the call to the end of the backend's work. A
  // runtime error (or anything the program printed: it prints nothing unless it failed) stops
  // the benchmark.
  double call(int op) {
    setInt("op", op);
    const auto start = std::chrono::steady_clock::now();
    try {
      vm_.run(m_, m_.entry);
    } catch (const RuntimeError& err) {
      std::fprintf(stderr, "error: op %d: %s\n", op, err.what());
      std::exit(1);
    }
    backend_->synchronize();
    const double s = bench::secondsSince(start);
    if (!out_.str().empty()) {
      std::fprintf(stderr, "error: op %d printed: %s\n", op, out_.str().c_str());
      std::exit(1);
    }
    return s;
  }

 private:
  const Module& m_;
  std::ostringstream out_;
  std::unique_ptr<Backend> backend_;
  Interpreter vm_;
};

// ------------------------------------------------------------------ graphs

struct Arc {
  std::uint64_t u, v;  // 1-based
  std::int64_t w;
};

TableData edgeTable(std::uint64_t n, const std::vector<Arc>& arcs, std::uint64_t& vb,
                    std::uint64_t& wb) {
  Graph g;
  g.vertices = n;
  for (const Arc& a : arcs) g.edges.push_back({a.u, a.v, a.w});
  return edgeListTable(g, vb, wb, "dynamic_bench");
}

// The driver's table `table` := the edge list of the rows, its field widths in the globals
// `prefix`vb and `prefix`wb, and n := n.
void loadEdges(Session& s, const std::string& table, const std::string& prefix, std::uint64_t n,
               const std::vector<Arc>& rows) {
  std::uint64_t vb = 0, wb = 0;
  s.writeTable(table, edgeTable(n, rows, vb, wb));
  s.setInt(prefix + "vb", static_cast<std::int64_t>(vb));
  s.setInt(prefix + "wb", static_cast<std::int64_t>(wb));
  s.setInt("n", static_cast<std::int64_t>(n));
}

// The arcs about --degree a vertex (divided by `per`: 2 for undirected edges) make on n vertices.
std::uint64_t arcCount(double degree, std::uint64_t n, double per = 1) {
  return static_cast<std::uint64_t>(degree * static_cast<double>(n) / per);
}

// m random arcs u -> v, u != v, weights 1..kMaxWeight (parallel arcs possible).
std::vector<Arc> randomArcs(std::uint64_t n, std::uint64_t m, std::mt19937_64& rng) {
  std::uniform_int_distribution<std::uint64_t> pick(1, n);
  std::uniform_int_distribution<std::int64_t> weight(1, kMaxWeight);
  std::vector<Arc> arcs;
  while (arcs.size() < m) {
    const std::uint64_t u = pick(rng), v = pick(rng);
    if (u != v) arcs.push_back({u, v, weight(rng)});
  }
  return arcs;
}

// A random tree: vertex i of a random order hangs from a random earlier one; the arcs point away
// from vertex 1, which comes first.
std::vector<Arc> randomTree(std::uint64_t n, std::mt19937_64& rng) {
  std::vector<std::uint64_t> order(n);
  std::iota(order.begin(), order.end(), 1);
  std::shuffle(order.begin() + 1, order.end(), rng);
  std::uniform_int_distribution<std::int64_t> weight(1, kMaxWeight);
  std::vector<Arc> arcs;
  for (std::uint64_t i = 1; i < n; ++i) {
    std::uniform_int_distribution<std::uint64_t> parent(0, i - 1);
    arcs.push_back({order[parent(rng)], order[i], weight(rng)});
  }
  return arcs;
}

// A random tree (randomTree) plus random arcs, m rows in all (or the tree's n - 1 when more).
std::vector<Arc> treePlusArcs(std::uint64_t n, std::uint64_t m, std::mt19937_64& rng) {
  std::vector<Arc> rows = randomTree(n, rng);
  m = std::max<std::uint64_t>(rows.size(), m);
  for (const Arc& a : randomArcs(n, m - rows.size(), rng)) rows.push_back(a);
  return rows;
}

// Removes a random one of the arcs (the last takes its place) and returns it.
Arc takeRandom(std::vector<Arc>& arcs, std::mt19937_64& rng) {
  std::uniform_int_distribution<std::size_t> which(0, arcs.size() - 1);
  const std::size_t j = which(rng);
  const Arc a = arcs[j];
  arcs[j] = arcs.back();
  arcs.pop_back();
  return a;
}

// ------------------------------------------------------------------ host references

// The closure of the arcs (C(i, j) = 1 iff a path of one or more arcs leads from i to j), n x n,
// column-major as the backends exchange tables: the strong components (BGL), then each
// component's reachability set in reverse topological order of the condensation.
std::vector<std::uint64_t> hostClosure(std::uint64_t n, const std::vector<Arc>& arcs) {
  boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS> g(n);
  for (const Arc& a : arcs) boost::add_edge(a.u - 1, a.v - 1, g);
  std::vector<int> comp(n);
  const int c = boost::strong_components(g, comp.data());
  std::vector<std::vector<std::uint64_t>> members(c);
  std::vector<char> cyclic(c, 0);
  std::vector<std::uint64_t> size(c, 0);
  for (std::uint64_t v = 0; v < n; ++v) ++size[comp[v]];
  for (int x = 0; x < c; ++x) cyclic[x] = size[x] > 1;
  std::vector<std::vector<int>> out(c);
  std::vector<int> indegree(c, 0);
  for (const Arc& a : arcs) {
    const int x = comp[a.u - 1], y = comp[a.v - 1];
    if (x == y) {
      if (a.u == a.v) cyclic[x] = 1;
      continue;
    }
    out[x].push_back(y);
    ++indegree[y];
  }
  std::vector<int> order;  // topological
  for (int x = 0; x < c; ++x)
    if (indegree[x] == 0) order.push_back(x);
  for (std::size_t i = 0; i < order.size(); ++i)
    for (int y : out[order[i]])
      if (--indegree[y] == 0) order.push_back(y);
  const std::uint64_t wpc = wordsForBits(n);
  std::vector<std::vector<std::uint64_t>> reach(c, std::vector<std::uint64_t>(wpc, 0)),
      self(c, std::vector<std::uint64_t>(wpc, 0));
  for (std::uint64_t v = 0; v < n; ++v) self[comp[v]][v / 64] |= std::uint64_t{1} << (v % 64);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const int x = *it;
    if (cyclic[x]) reach[x] = self[x];
    for (int y : out[x])
      for (std::uint64_t q = 0; q < wpc; ++q) reach[x][q] |= reach[y][q] | self[y][q];
  }
  std::vector<std::uint64_t> words(n * wpc, 0);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::vector<std::uint64_t>& row = reach[comp[i]];
    for (std::uint64_t q = 0; q < wpc; ++q)
      for (std::uint64_t bits = row[q]; bits; bits &= bits - 1) {
        const std::uint64_t j = q * 64 + static_cast<std::uint64_t>(__builtin_ctzll(bits));
        words[j * wpc + i / 64] |= std::uint64_t{1} << (i % 64);
      }
  }
  return words;
}

// BGL's distances from vertex s (1-based) over the arcs; kInf where unreachable.
std::vector<long> bglDistances(std::uint64_t n, const std::vector<Arc>& arcs, std::uint64_t s) {
  Directed d(n);
  for (const Arc& a : arcs) boost::add_edge(a.u - 1, a.v - 1, a.w, d);
  std::vector<long> dist(n, kInf);
  boost::dijkstra_shortest_paths(
      d, s - 1, boost::distance_map(dist.data()).distance_inf(kInf));
  return dist;
}

// BGL's Kruskal: the weight of a minimum spanning forest of the edges.
long bglForestWeight(std::uint64_t n, const std::vector<Arc>& edges) {
  Undirected g(n);
  for (const Arc& a : edges) boost::add_edge(a.u - 1, a.v - 1, a.w, g);
  std::vector<Undirected::edge_descriptor> tree;
  boost::kruskal_minimum_spanning_tree(g, std::back_inserter(tree));
  const auto weight = boost::get(boost::edge_weight, g);
  long sum = 0;
  for (const auto& e : tree) sum += weight[e];
  return sum;
}

struct UnionFind {
  std::vector<std::uint64_t> parent;
  explicit UnionFind(std::uint64_t n) : parent(n + 1) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  std::uint64_t find(std::uint64_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  bool join(std::uint64_t a, std::uint64_t b) {
    a = find(a), b = find(b);
    if (a == b) return false;
    parent[a] = b;
    return true;
  }
};

// The Lagrangian reference for GABOW: with the edges at r shifted by lambda, BGL's Kruskal gives
// min over d of W(d) + lambda d, W(d) the least weight of a spanning tree in which r has degree
// d; W is convex, so min over d <= k of W(d) = max over lambda >= 0 of (that - lambda k), and
// W(k) = max over every lambda; integer lambda in [-maxW - 1, maxW + 1] suffice (ternary search:
// the function of lambda is concave). Feasibility is decided directly: connected, d0 <= k (d0 =
// the components of the graph without r), and for exactly k, k <= dmax (r's distinct
// neighbours). -1 where there is no such tree.
struct GabowRef {
  std::uint64_t d0 = 0, dmax = 0, mstDegree = 0;  // mstDegree: r's degree in BGL's free MST
  bool connected = false;
};
class Lagrangian {
 public:
  Lagrangian(std::uint64_t n, std::uint64_t r, const std::vector<Arc>& edges)
      : n_(n), r_(r), g_(n) {
    for (const Arc& a : edges) {
      const auto e = boost::add_edge(a.u - 1, a.v - 1, a.w, g_).first;
      if (a.u == r || a.v == r) atR_.push_back({e, a.w});
      maxW_ = std::max<long>(maxW_, a.w);
    }
    UnionFind all(n), rest(n);
    std::set<std::uint64_t> neighbours;
    for (const Arc& a : edges) {
      all.join(a.u, a.v);
      if (a.u != r && a.v != r) rest.join(a.u, a.v);
      if (a.u == r) neighbours.insert(a.v);
      if (a.v == r) neighbours.insert(a.u);
    }
    info.connected = true;
    std::set<std::uint64_t> comps;
    for (std::uint64_t v = 1; v <= n; ++v) {
      if (all.find(v) != all.find(r)) info.connected = false;
      if (v != r) comps.insert(rest.find(v));
    }
    info.d0 = comps.size();
    info.dmax = neighbours.size();
    std::uint64_t degree = 0;
    shifted(0, &degree);
    info.mstDegree = degree;
  }
  GabowRef info;

  long solve(std::uint64_t k, bool exact) {
    if (!info.connected || k < info.d0 || (exact && k > info.dmax)) return -1;
    const long kk = static_cast<long>(k);
    const auto f = [&](long lambda) { return shifted(lambda, nullptr) - lambda * kk; };
    long lo = exact ? -maxW_ - 1 : 0, hi = maxW_ + 1;
    while (hi - lo > 2) {
      const long m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
      if (f(m1) < f(m2))
        lo = m1 + 1;
      else
        hi = m2;
    }
    long best = f(lo);
    for (long l = lo + 1; l <= hi; ++l) best = std::max(best, f(l));
    return best;
  }

 private:
  // BGL's minimum spanning tree with the edges at r shifted by lambda: its shifted weight (and
  // r's degree in it).
  long shifted(long lambda, std::uint64_t* degree) {
    auto weight = boost::get(boost::edge_weight, g_);
    for (const auto& [e, w] : atR_) weight[e] = w + lambda;
    std::vector<Undirected::edge_descriptor> tree;
    boost::kruskal_minimum_spanning_tree(g_, std::back_inserter(tree));
    long sum = 0;
    std::uint64_t d = 0;
    for (const auto& e : tree) {
      sum += weight[e];
      d += boost::source(e, g_) == r_ - 1 || boost::target(e, g_) == r_ - 1;
    }
    if (degree) *degree = d;
    return sum;
  }
  std::uint64_t n_, r_;
  Undirected g_;
  std::vector<std::pair<Undirected::edge_descriptor, long>> atR_;
  long maxW_ = 0;
};

// ------------------------------------------------------------------ reading the Star state

std::vector<long> starDistances(Session& s, const std::string& name, std::uint64_t n) {
  const std::uint64_t b = s.cols(name), wpc = wordsForBits(n);
  const std::vector<std::uint64_t> words = s.readTable(name);
  std::vector<long> dist(n);
  for (std::uint64_t v = 0; v < n; ++v) dist[v] = distanceField(words, wpc, v, 0, b);
  return dist;
}

std::vector<std::uint64_t> setBits(const std::vector<std::uint64_t>& words, std::uint64_t len) {
  std::vector<std::uint64_t> rows;
  for (std::uint64_t q = 0; q < words.size(); ++q)
    for (std::uint64_t bits = words[q]; bits; bits &= bits - 1) {
      const std::uint64_t i = q * 64 + static_cast<std::uint64_t>(__builtin_ctzll(bits));
      if (i < len) rows.push_back(i);
    }
  return rows;
}

// Slices compared by their 1s (the lengths may differ when a table grew).
bool sameOnes(std::vector<std::uint64_t> a, std::vector<std::uint64_t> b) {
  const std::size_t len = std::max(a.size(), b.size());
  a.resize(len, 0);
  b.resize(len, 0);
  return a == b;
}

// ------------------------------------------------------------------ reporting

std::string ms(double seconds) {
  return seconds >= 0.1 ? fixed(seconds * 1e3, 0) : seconds >= 0.001 ? fixed(seconds * 1e3, 2)
                                                                      : fixed(seconds * 1e3, 3);
}

std::string withCommas(std::uint64_t x) {
  std::string s = std::to_string(x), out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i > 0 && (s.size() - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return out;
}

// "N vertices, M arcs" (or edges), as the tables describe a graph.
std::string graphText(std::uint64_t n, std::uint64_t m, const char* arcs) {
  return withCommas(n) + " vertices, " + withCommas(m) + " " + arcs;
}

// f()'s result; the seconds it took in `seconds`.
template <class F>
auto timed(double& seconds, F f) {
  const auto start = std::chrono::steady_clock::now();
  auto result = f();
  seconds = bench::secondsSince(start);
  return result;
}

struct Distribution {
  std::vector<double> seconds;
  std::vector<char> changed;
  std::vector<std::string> what;  // each update and what it changed
  double quantile(double q) const {  // nearest rank
    std::vector<double> v = seconds;
    std::sort(v.begin(), v.end());
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
    return v[std::min(v.size(), std::max<std::size_t>(rank, 1)) - 1];
  }
  double median() const {
    std::vector<double> v = seconds;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
  double changedMedian() const {
    Distribution d;
    for (std::size_t i = 0; i < seconds.size(); ++i)
      if (changed[i]) d.seconds.push_back(seconds[i]);
    return d.seconds.empty() ? -1 : d.median();
  }
  std::size_t changes() const {
    return static_cast<std::size_t>(std::count(changed.begin(), changed.end(), 1));
  }
};

struct StaticRow {
  std::string problem, graph, procedure;
  double first = -1, last = -1;  // on the first graph, on the final graph
  double peer = -1;              // BGL from scratch, on the final graph (-1: none)
  std::string peerName{};  // {}: the problems brace-initialise the first three fields
  std::string note{};
};

struct UpdateRow {
  std::string problem, procedure;
  Distribution d;
  double recompute = -1;  // the faster static run
};

struct TreeRow {
  std::string procedure, graph, reference, weight{};
  double star = -1, ref = -1;
  bool agree = false;
};

struct Report {
  std::vector<StaticRow> statics;
  std::vector<UpdateRow> updates;
  std::vector<TreeRow> trees;
  bool mismatch = false;
  void differs(const std::string& what) {
    std::printf("DIFFERS: %s\n", what.c_str());
    std::fflush(stdout);
    mismatch = true;
  }
  // A dynamic problem's rows: its static procedure, then its insertions and deletions, measured
  // against the faster static run.
  void addDynamic(const StaticRow& st, UpdateRow ins, UpdateRow del) {
    ins.recompute = del.recompute = std::min(st.first, st.last);
    statics.push_back(st);
    updates.push_back(std::move(ins));
    updates.push_back(std::move(del));
  }
};

// ------------------------------------------------------------------ the problems

void closureProblem(Session& s, const Options& o, Report& rep) {
  const std::uint64_t n = o.closureVertices;
  std::mt19937_64 rng(o.seed + 1);
  std::vector<Arc> arcs;
  std::unordered_set<std::uint64_t> present;
  const auto key = [&](std::uint64_t u, std::uint64_t v) { return (u - 1) * n + (v - 1); };
  for (const Arc& a : randomArcs(n, arcCount(o.degree, n), rng))
    if (present.insert(key(a.u, a.v)).second) arcs.push_back(a);
  const std::uint64_t firstArcs = arcs.size();
  {
    Graph g;
    g.vertices = n;
    for (const Arc& a : arcs) g.edges.push_back({a.u, a.v, 1});
    s.writeTable("a", adjacencyTable(g));
  }
  s.call(kCopyC);
  StaticRow st{"closure", graphText(n, firstArcs, "arcs"),
               o.natives ? "CLOSURE (native)" : "CLOSURE (Star body)"};
  st.first = s.call(kClosure);
  std::uint64_t ones = 0;
  for (std::uint64_t w : s.readTable("c")) ones += static_cast<std::uint64_t>(__builtin_popcountll(w));
  st.note = "closure density " + fixed(static_cast<double>(ones) / static_cast<double>(n * n), 3);
  std::fprintf(stderr, "closure: CLOSURE %.3f s\n", st.first);

  UpdateRow ins{"closure", "CLOSURE_INSERT", {}}, del{"closure", "CLOSURE_DELETE", {}};
  std::uniform_int_distribution<std::uint64_t> pick(1, n);
  std::vector<std::uint64_t> before = s.readTable("c");
  Arc lastDeleted{};
  for (std::uint64_t i = 0; i < 2 * o.updates; ++i) {
    const bool deletion = i % 2 == 0;
    if (deletion) {
      const Arc a = takeRandom(arcs, rng);
      lastDeleted = a;
      present.erase(key(a.u, a.v));
      s.setArc(a.u, a.v);
      del.d.seconds.push_back(s.call(kClosureDelete));
    } else {
      std::uint64_t u, v;
      do u = pick(rng), v = pick(rng);
      while (u == v || present.count(key(u, v)));
      arcs.push_back({u, v, 1});
      present.insert(key(u, v));
      s.setArc(u, v);
      ins.d.seconds.push_back(s.call(kClosureInsert));
    }
    std::vector<std::uint64_t> after = s.readTable("c");
    (deletion ? del : ins).d.changed.push_back(after != before);
    {
      std::uint64_t flipped = 0;
      for (std::size_t q = 0; q < after.size() && q < before.size(); ++q)
        flipped += static_cast<std::uint64_t>(__builtin_popcountll(after[q] ^ before[q]));
      const Arc& a = deletion ? lastDeleted : arcs.back();
      std::uint64_t out = 0, in = 0;  // u's other arcs out, v's other arcs in
      for (const Arc& x : arcs) out += x.u == a.u, in += x.v == a.v;
      if (!deletion) --out, --in;
      (deletion ? del : ins).d.what.push_back(
          std::string(deletion ? "delete " : "insert ") + std::to_string(a.u) + " -> " +
          std::to_string(a.v) + " (u has " + std::to_string(out) + " other arcs out, v " +
          std::to_string(in) + " other arcs in): " + withCommas(flipped) +
          " entries of C changed");
    }
    if (o.checkEach && after != hostClosure(n, arcs)) {
      rep.differs("closure after update " + std::to_string(i + 1) +
                  ": the maintained closure is not the host's");
      return;
    }
    before = std::move(after);
  }
  s.call(kCopyC2);
  st.last = s.call(kClosure2);
  const std::vector<std::uint64_t> fresh = s.readTable("c2");
  if (before != fresh) rep.differs("closure: the maintained C is not CLOSURE's from scratch");
  const std::vector<std::uint64_t> host = timed(st.peer, [&] { return hostClosure(n, arcs); });
  st.peerName = "host SCC closure";
  if (fresh != host) rep.differs("closure: CLOSURE from scratch is not the host's closure");
  rep.addDynamic(st, std::move(ins), std::move(del));
}

void ssspProblem(Session& s, const Options& o, Report& rep) {
  const std::uint64_t n = o.vertices, source = 1;
  std::mt19937_64 rng(o.seed + 2);
  std::vector<Arc> rows =
      randomArcs(n, arcCount(o.degree, n), rng);
  loadEdges(s, "e", "", n, rows);
  s.setInt("s", static_cast<std::int64_t>(source));
  StaticRow st{"sssp", graphText(n, rows.size(), "arcs"), "DIJKSTRA"};
  st.first = s.call(kDijkstra);
  std::fprintf(stderr, "sssp: DIJKSTRA %.3f s\n", st.first);
  {
    const std::vector<long> d = starDistances(s, "d", n);
    const auto reached = std::count_if(d.begin(), d.end(), [](long x) { return x != kInf; });
    st.note = withCommas(static_cast<std::uint64_t>(reached)) + " vertices reached from 1";
  }

  UpdateRow ins{"sssp", "SSSP_INSERT", {}}, del{"sssp", "SSSP_DELETE", {}};
  std::uniform_int_distribution<std::uint64_t> pick(1, n);
  std::uniform_int_distribution<std::int64_t> weight(1, kMaxWeight);
  std::vector<std::uint64_t> beforeD = s.readTable("d"), beforeP = s.readTable("p");
  for (std::uint64_t i = 0; i < 2 * o.updates; ++i) {
    const bool deletion = i % 2 == 0;
    if (deletion) {
      std::uniform_int_distribution<std::size_t> which(0, rows.size() - 1);
      const Arc a = rows[which(rng)];
      // SSSP_DELETE removes the topmost row u -> v; the last row takes its place.
      const auto top = std::find_if(rows.begin(), rows.end(),
                                    [&](const Arc& x) { return x.u == a.u && x.v == a.v; });
      *top = rows.back();
      rows.pop_back();
      s.setArc(a.u, a.v);
      del.d.seconds.push_back(s.call(kSsspDelete));
    } else {
      std::uint64_t u, v;
      do u = pick(rng), v = pick(rng);
      while (u == v);
      const std::int64_t w = weight(rng);
      rows.push_back({u, v, w});
      s.setArc(u, v);
      s.setInt("w", w);
      ins.d.seconds.push_back(s.call(kSsspInsert));
    }
    std::vector<std::uint64_t> afterD = s.readTable("d"), afterP = s.readTable("p");
    (deletion ? del : ins).d.changed.push_back(afterD != beforeD || afterP != beforeP);
    {
      std::uint64_t moved = 0;  // distances changed
      const std::uint64_t b = s.cols("d"), wpc = wordsForBits(n);
      if (afterD.size() == beforeD.size())
        for (std::uint64_t x = 0; x < n; ++x)
          moved += distanceField(afterD, wpc, x, 0, b) != distanceField(beforeD, wpc, x, 0, b);
      (deletion ? del : ins).d.what.push_back(
          std::string(deletion ? "delete " : "insert ") + std::to_string(s.getInt("u")) +
          " -> " + std::to_string(s.getInt("v")) + ": " + withCommas(moved) +
          " distances changed");
    }
    if (o.checkEach) {
      if (s.rows("e") != rows.size()) {
        rep.differs("sssp after update " + std::to_string(i + 1) + ": E has " +
                    std::to_string(s.rows("e")) + " rows, the model " +
                    std::to_string(rows.size()));
        return;
      }
      if (starDistances(s, "d", n) != bglDistances(n, rows, source)) {
        rep.differs("sssp after update " + std::to_string(i + 1) +
                    ": the maintained distances are not BGL's");
        return;
      }
    }
    beforeD = std::move(afterD);
    beforeP = std::move(afterP);
  }
  st.last = s.call(kDijkstra2);
  const std::vector<long> maintained = starDistances(s, "d", n), fresh = starDistances(s, "d2", n);
  if (maintained != fresh) rep.differs("sssp: the maintained distances are not DIJKSTRA's from scratch");
  const std::vector<long> bgl = timed(st.peer, [&] { return bglDistances(n, rows, source); });
  st.peerName = "BGL dijkstra_shortest_paths (graph built)";
  if (fresh != bgl) rep.differs("sssp: DIJKSTRA from scratch is not BGL's");
  rep.addDynamic(st, std::move(ins), std::move(del));
}

void mstProblem(Session& s, const Options& o, Report& rep) {
  const std::uint64_t n = o.vertices;
  std::mt19937_64 rng(o.seed + 3);
  std::vector<Arc> edges =
      randomArcs(n, arcCount(o.degree, n, 2), rng);
  loadEdges(s, "f", "f", n, edges);
  StaticRow st{"mst", graphText(n, edges.size(), "edges"), "KRUSKAL"};
  st.first = s.call(kKruskal);
  const double init = s.call(kDmstInit);
  std::fprintf(stderr, "mst: KRUSKAL %.3f s, DMST_INIT %.3f s\n", st.first, init);
  st.note = "then DMST_INIT " + fixed(init, 3) + " s (once)";

  UpdateRow ins{"mst", "DMST_INSERT", {}}, del{"mst", "DMST_DELETE", {}};
  std::uniform_int_distribution<std::uint64_t> pick(1, n);
  std::uniform_int_distribution<std::int64_t> weight(1, kMaxWeight);
  std::vector<std::uint64_t> before = s.readBits("t");
  for (std::uint64_t i = 0; i < 2 * o.updates; ++i) {
    const bool deletion = i % 2 == 0;
    Arc a{};
    if (deletion) {
      a = takeRandom(edges, rng);
    } else {
      do a.u = pick(rng), a.v = pick(rng);
      while (a.u == a.v);
      a.w = weight(rng);
      edges.push_back(a);
    }
    s.setArc(a.u, a.v);
    s.setInt("w", a.w);
    (deletion ? del : ins).d.seconds.push_back(s.call(deletion ? kDmstDelete : kDmstInsert));
    std::vector<std::uint64_t> after = s.readBits("t");
    (deletion ? del : ins).d.changed.push_back(!sameOnes(after, before));
    (deletion ? del : ins).d.what.push_back(
        std::string(deletion ? "delete " : "insert ") + std::to_string(a.u) + " -- " +
        std::to_string(a.v) + " (" + std::to_string(a.w) + "): " +
        (sameOnes(after, before) ? "the forest did not change" : "the forest changed"));
    if (o.checkEach) {
      s.call(kDmstWeight);
      if (s.getInt("total") != bglForestWeight(n, edges)) {
        rep.differs("mst after update " + std::to_string(i + 1) +
                    ": the maintained forest does not weigh BGL's");
        return;
      }
    }
    before = std::move(after);
  }
  s.call(kDmstWeight);
  const std::int64_t maintained = s.getInt("total");
  st.last = s.call(kKruskal2);
  const std::int64_t fresh = s.getInt("total");
  if (maintained != fresh)
    rep.differs("mst: the maintained forest weighs " + std::to_string(maintained) +
                ", KRUSKAL from scratch " + std::to_string(fresh));
  const long bgl = timed(st.peer, [&] { return bglForestWeight(n, edges); });
  st.peerName = "BGL kruskal_minimum_spanning_tree (graph built)";
  if (fresh != bgl)
    rep.differs("mst: KRUSKAL from scratch weighs " + std::to_string(fresh) + ", BGL's forest " +
                std::to_string(bgl));
  rep.addDynamic(st, std::move(ins), std::move(del));
}

void edmondsProblem(Session& s, const Options& o, Report& rep) {
  const std::uint64_t n = o.vertices, root = 1;
  std::mt19937_64 rng(o.seed + 4);
  std::vector<Arc> rows = treePlusArcs(n, arcCount(o.degree, n), rng);
  std::shuffle(rows.begin(), rows.end(), rng);
  loadEdges(s, "g", "g", n, rows);
  s.setInt("r", static_cast<std::int64_t>(root));
  TreeRow t{"EDMONDS (root 1)", graphText(n, rows.size(), "arcs"), "C++ Chu-Liu/Edmonds, O(VE)"};
  t.star = s.call(kEdmonds);
  const std::int64_t total = s.getInt("total");
  std::fprintf(stderr, "EDMONDS %.3f s\n", t.star);
  std::vector<startest::Arc> ref;  // 0-based, for startest::chuLiuEdmonds
  for (const Arc& a : rows)
    ref.push_back({static_cast<int>(a.u - 1), static_cast<int>(a.v - 1), a.w});
  const long expected = timed(t.ref, [&] {
    return startest::chuLiuEdmonds(static_cast<int>(n), static_cast<int>(root - 1), ref);
  });
  // The chosen rows: n - 1 arcs, one into every vertex but the root, every vertex led back to
  // the root, weighing the result.
  const std::vector<std::uint64_t> chosen = setBits(s.readBits("b"), rows.size());
  std::vector<std::uint64_t> parent(n + 1, 0);
  long sum = 0;
  std::string problem;
  if (chosen.size() != n - 1) problem = std::to_string(chosen.size()) + " arcs chosen";
  for (std::uint64_t i : chosen) {
    const Arc& a = rows[i];
    if (a.v == root || parent[a.v] != 0) problem = "two arcs enter a vertex, or one the root";
    parent[a.v] = a.u;
    sum += a.w;
  }
  for (std::uint64_t v = 1; v <= n && problem.empty(); ++v) {
    std::uint64_t x = v, steps = 0;
    while (x != root && x != 0 && steps <= n) x = parent[x], ++steps;
    if (x != root) problem = "vertex " + std::to_string(v) + " does not lead back to the root";
  }
  if (problem.empty() && (sum != total || total != expected))
    problem = "the arcs weigh " + std::to_string(sum) + ", EDMONDS returned " +
              std::to_string(total) + ", the reference " + std::to_string(expected);
  t.weight = std::to_string(total) + " / " + std::to_string(expected);
  t.agree = problem.empty();
  if (!t.agree) rep.differs("EDMONDS: " + problem);
  rep.trees.push_back(t);
}

void gabowProblem(Session& s, const Options& o, Report& rep) {
  const std::uint64_t n = o.vertices, r = 1;
  std::mt19937_64 rng(o.seed + 5);
  std::vector<Arc> rows = treePlusArcs(n, arcCount(o.degree, n, 2), rng);
  {
    std::uniform_int_distribution<std::uint64_t> pick(2, std::max<std::uint64_t>(n, 2));
    std::uniform_int_distribution<std::int64_t> weight(1, kMaxWeight);
    for (int i = 0; i < kExtraAtRoot && n > 1; ++i) rows.push_back({r, pick(rng), weight(rng)});
  }
  std::shuffle(rows.begin(), rows.end(), rng);
  loadEdges(s, "h", "h", n, rows);
  s.setInt("r", static_cast<std::int64_t>(r));
  Lagrangian lagrangian(n, r, rows);
  const GabowRef& info = lagrangian.info;
  // A bound that binds (half the free tree's degree, at least d0) and an exact degree above the
  // free tree's (at most r's distinct neighbours).
  const std::uint64_t atMost = std::max(info.d0, info.mstDegree / 2),
                      exactly = std::min(info.dmax, info.mstDegree + 10);
  for (int pass = 0; pass < 2; ++pass) {
    const bool exact = pass == 1;
    const std::uint64_t k = exact ? exactly : atMost;
    s.setInt("k", static_cast<std::int64_t>(k));
    s.setInt("ex", exact ? 1 : 0);
    TreeRow t{std::string("GABOW (degree of 1 ") + (exact ? "exactly " : "at most ") +
                  std::to_string(k) + "; free MST: " + std::to_string(info.mstDegree) + ")",
              graphText(n, rows.size(), "edges"),
              "Lagrangian: BGL Kruskal, ternary search over lambda"};
    t.star = s.call(kGabow);
    const std::int64_t total = s.getInt("total");
    std::fprintf(stderr, "GABOW %s %llu: %.3f s\n", exact ? "exactly" : "at most",
                 static_cast<unsigned long long>(k), t.star);
    const long expected = timed(t.ref, [&] { return lagrangian.solve(k, exact); });
    const std::vector<std::uint64_t> chosen = setBits(s.readBits("tg"), rows.size());
    std::string problem;
    if (expected < 0 || total < 0) {
      if (expected != total || !chosen.empty())
        problem = "GABOW returned " + std::to_string(total) + ", the reference " +
                  std::to_string(expected);
    } else {
      UnionFind uf(n);
      long sum = 0;
      std::uint64_t degree = 0;
      if (chosen.size() != n - 1) problem = std::to_string(chosen.size()) + " edges chosen";
      for (std::uint64_t i : chosen) {
        const Arc& a = rows[i];
        if (!uf.join(a.u, a.v)) problem = "the chosen edges close a cycle";
        sum += a.w;
        degree += a.u == r || a.v == r;
      }
      if (problem.empty() && (exact ? degree != k : degree > k))
        problem = "vertex 1 has degree " + std::to_string(degree);
      if (problem.empty() && (sum != total || total != expected))
        problem = "the edges weigh " + std::to_string(sum) + ", GABOW returned " +
                  std::to_string(total) + ", the reference " + std::to_string(expected);
    }
    t.weight = std::to_string(total) + " / " + std::to_string(expected);
    t.agree = problem.empty();
    if (!t.agree) rep.differs(t.procedure + ": " + problem);
    rep.trees.push_back(t);
  }
}

// A Markdown table's header row and the separator row under it.
void printTableHead(const char* header) {
  std::printf("%s\n", header);
  std::string separator = "|";
  for (const char* c = header; *c; ++c)
    if (*c == '|' && c != header) separator += "---|";
  std::printf("%s\n", separator.c_str());
}

void printReport(const Report& rep, double floor) {
  if (!rep.statics.empty()) {
    printTableHead(
        "| problem | graph | static procedure | on the first graph (s) | on the final graph (s) "
        "| host reference, final graph (s) | |");
    for (const StaticRow& st : rep.statics)
      std::printf("| %s | %s | %s | %s | %s | %s: %s | %s |\n", st.problem.c_str(),
                  st.graph.c_str(), st.procedure.c_str(), fixed(st.first, 3).c_str(),
                  fixed(st.last, 3).c_str(), st.peerName.c_str(), sig3(st.peer).c_str(),
                  st.note.c_str());
    std::printf("\n");
  }
  if (!rep.updates.empty()) {
    printTableHead(
        "| update | count | changed the result | min (ms) | median (ms) | p90 (ms) | max (ms) | "
        "mean (ms) | median of those that changed it (ms) | static / median | static / p90 | "
        "static / max | >= 20x: median, max |");
    for (const UpdateRow& u : rep.updates) {
      const Distribution& d = u.d;
      if (d.seconds.empty()) continue;
      const double mean = std::accumulate(d.seconds.begin(), d.seconds.end(), 0.0) /
                          static_cast<double>(d.seconds.size());
      const double med = d.median(), p90 = d.quantile(0.9), mx = d.quantile(1.0),
                   cm = d.changedMedian();
      std::printf("| %s | %zu | %zu | %s | %s | %s | %s | %s | %s | %sx | %sx | %sx | %s, %s |\n",
                  u.procedure.c_str(), d.seconds.size(), d.changes(), ms(d.quantile(0)).c_str(),
                  ms(med).c_str(), ms(p90).c_str(), ms(mx).c_str(), ms(mean).c_str(),
                  cm < 0 ? "-" : ms(cm).c_str(), sig3(u.recompute / med).c_str(),
                  sig3(u.recompute / p90).c_str(), sig3(u.recompute / mx).c_str(),
                  u.recompute / med >= 20 ? "yes" : "NO", u.recompute / mx >= 20 ? "yes" : "NO");
    }
    std::printf(
        "\nstatic: the faster of the two static runs; a call into the VM that does nothing "
        "takes %s ms (included in every update's time). The slowest update of each kind:\n",
        ms(floor).c_str());
    for (const UpdateRow& u : rep.updates) {
      const Distribution& d = u.d;
      if (d.seconds.empty() || d.what.size() != d.seconds.size()) continue;
      const auto slowest = static_cast<std::size_t>(
          std::max_element(d.seconds.begin(), d.seconds.end()) - d.seconds.begin());
      std::printf("* %s: %s ms, %s\n", u.procedure.c_str(), ms(d.seconds[slowest]).c_str(),
                  d.what[slowest].c_str());
    }
    std::printf("\n");
  }
  if (!rep.trees.empty()) {
    printTableHead(
        "| procedure | graph | Star (s) | reference | reference (s) | Star / reference | weight "
        "(Star / reference) | agree |");
    for (const TreeRow& t : rep.trees)
      std::printf("| %s | %s | %s | %s | %s | %sx | %s | %s |\n", t.procedure.c_str(),
                  t.graph.c_str(), fixed(t.star, 3).c_str(), t.reference.c_str(),
                  sig3(t.ref).c_str(), sig3(t.star / t.ref).c_str(), t.weight.c_str(),
                  t.agree ? "yes" : "NO");
    std::printf("\n");
  }
}

bool runBackend(const Module& module, const std::string& backendName, const Options& o) {
  const std::string engine = !o.engine.empty() ? o.engine : backendName == "cuda" ? "device" : "host";
  Session s(module, backendName, engine, o.natives);
  std::printf("## backend %s (%s), %s engine, natives %s\n\n", s.backend().name().c_str(),
              s.backend().device().c_str(), engine.c_str(), o.natives ? "on" : "off");
  std::fflush(stdout);
  // The floor: a call that does nothing (median of 21).
  Distribution floor;
  for (int i = 0; i < 21; ++i) floor.seconds.push_back(s.call(kNothing));
  Report rep;
  if (o.problems.count("closure")) closureProblem(s, o, rep);
  if (o.problems.count("sssp")) ssspProblem(s, o, rep);
  if (o.problems.count("mst")) mstProblem(s, o, rep);
  if (o.problems.count("edmonds")) edmondsProblem(s, o, rep);
  if (o.problems.count("gabow")) gabowProblem(s, o, rep);
  printReport(rep, floor.median());
  std::fflush(stdout);
  return !rep.mismatch;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  const auto usage = [] {
    std::fprintf(stderr,
                 "usage: dynamic_bench [--vertices=N] [--closure-vertices=N] [--updates=N] "
                 "[--degree=D] [--backend=cpu|cuda|all] [--engine=host|device] [--no-native] "
                 "[--problems=closure,sssp,mst,edmonds,gabow] [--check-each] [--seed=S]\n");
    return 2;
  };
  const auto number = [](const std::string& a, std::size_t at) {
    return std::strtoull(a.c_str() + at, nullptr, 10);
  };
  bool closureGiven = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--vertices=", 0) == 0)
      o.vertices = number(a, 11);
    else if (a.rfind("--closure-vertices=", 0) == 0)
      o.closureVertices = number(a, 19), closureGiven = true;
    else if (a.rfind("--updates=", 0) == 0)
      o.updates = number(a, 10);
    else if (a.rfind("--degree=", 0) == 0)
      o.degree = std::strtod(a.c_str() + 9, nullptr);
    else if (a.rfind("--seed=", 0) == 0)
      o.seed = number(a, 7);
    else if (a == "--backend=cpu" || a == "--backend=cuda" || a == "--backend=all")
      o.backend = a.substr(10);
    else if (a == "--engine=host" || a == "--engine=device")
      o.engine = a.substr(9);
    else if (a == "--no-native")
      o.natives = false;
    else if (a == "--check-each")
      o.checkEach = true;
    else if (a.rfind("--problems=", 0) == 0) {
      o.problems.clear();
      std::stringstream list(a.substr(11));
      for (std::string p; std::getline(list, p, ',');) {
        if (p != "closure" && p != "sssp" && p != "mst" && p != "edmonds" && p != "gabow") {
          std::fprintf(stderr, "dynamic_bench: no problem '%s'\n", p.c_str());
          return usage();
        }
        o.problems.insert(p);
      }
    } else
      return usage();
  }
  if (!closureGiven) o.closureVertices = o.vertices;
  if (o.vertices < 3 || o.closureVertices < 3 || o.updates < 1 || o.degree < 1) {
    std::fprintf(stderr, "dynamic_bench: at least 3 vertices, 1 update and degree 1\n");
    return 2;
  }

  std::vector<std::string> backends;
  if (o.backend != "cuda") backends.push_back("cpu");
  if (o.backend != "cpu") {
    std::string why;
    if (cudaUsable(&why))
      backends.push_back("cuda");
    else
      std::printf("CUDA backend: not measured (%s)\n\n", why.c_str());
  }
  if (backends.empty()) return 0;  // --backend=cuda without a GPU: nothing to do

  const std::optional<Module> compiled = compileDriver(
      kDriver, "star_dynamic_bench_" + std::to_string(static_cast<long>(::getpid())) + ".star");
  if (!compiled) return 1;
  const Module& module = *compiled;

  std::printf(
      "Dynamic graph procedures against the static ones, and EDMONDS and GABOW against C++ "
      "references (issue #29). Random graphs, seed %llu, weights 1..%lld, about %.2f arcs (or "
      "edges at) a vertex; %llu vertices (closure: %llu); %llu deletions and %llu insertions a "
      "problem, alternating.\n\n",
      static_cast<unsigned long long>(o.seed), static_cast<long long>(kMaxWeight), o.degree,
      static_cast<unsigned long long>(o.vertices),
      static_cast<unsigned long long>(o.closureVertices),
      static_cast<unsigned long long>(o.updates), static_cast<unsigned long long>(o.updates));
  std::fflush(stdout);
  bool ok = true;
  for (const std::string& b : backends) ok = runBackend(module, b, o) && ok;
  std::printf(ok ? "all results agree\n" : "SOME RESULTS DIFFER\n");
  return ok ? 0 : 1;
}
