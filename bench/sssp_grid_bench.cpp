// The graph procedures of the standard library (stdlib/graphs.star) as Star code, on a road-like
// grid graph: side x side vertices, an arc each way between 4-neighbours, integer weights
// 1..100 drawn with a fixed seed, the source a corner (vertex 1); rows numbered first, so vertex
// r * side + c + 1 is at row r, column c. (The name is from when it timed only shortest paths.)
//  * The Boost Graph Library's dijkstra_shortest_paths and bellman_ford_shortest_paths on the
//    grid of side --bgl-side (default 1000: 10^6 vertices, 3,996,000 arcs).
//  * The Star procedures --procs names (default dijkstra,bellmanford; also prim, kruskal and
//    floyd) through the VM on the backend --backend names, on every side given, with the edge
//    list built in memory as LOADEDGES builds it (edgeListTable, vm/io/GraphFiles.h) and handed
//    to the program in its global E (no file I/O is timed). PRIM and KRUSKAL read the arcs as
//    undirected edges (each pair of neighbours joined twice, parallel edges of two weights).
//    FLOYD's n x n*b table comes from the host too, as GR_DISTTABLE builds it (compared with
//    GR_DISTTABLE's own up to kDistTableCheckMax vertices); FLOYD is not run where that table
//    would pass --floyd-max-gb. A run still busy after --budget seconds is interrupted as Ctrl-C
//    interrupts `star run`; the table then shows the steps it did and their cost.
//    Every finished run must agree with BGL: the distances from vertex 1 (DIJKSTRA,
//    BELLMANFORD); the edge rows chosen form a spanning tree whose weight is BGL's minimum and the
//    one returned (PRIM, KRUSKAL); every distance (FLOYD, against BGL's Dijkstra from each
//    vertex). And its step count must be the one the procedure takes. Exit status 1 otherwise.
// Steps: DIJKSTRA settles one vertex per step, PRIM and KRUSKAL add one tree edge per step (one
// FND each: n - 1 steps on the connected grid); a BELLMANFORD step is one update of a vertex's
// distance (two FNDs each), and a finished run's rounds are its STEP calls - 1 - updates (each
// round STEPs through the vertices changed in the round before, then once more); a FLOYD step is
// a round k (one LESS each, FLOYD's only word comparison: n rounds). The backend is wrapped in a
// counting one (bench/CountingBackend.h) to count them.
// With --engine=device the interpreter hands the run to the backend's device engine; the steps
// are then counted by the engine's opcode counters (the primitive and wait columns stay empty:
// inside the engine there are no backend calls to count). The counters cost time of their own
// (compiled code with them counts every instruction in memory): --uncounted times the engines
// without them, and then a finished run's steps are the ones the procedure takes on the connected
// grid (n - 1, FLOYD n; its results are checked against BGL as ever), an unfinished one's and
// BELLMANFORD's are not known ("-").
//   usage: sssp_grid_bench [--backend=cpu|cuda] [--engine=host|device|compiled] [--budget=SECONDS]
//                          [--uncounted] [--bgl-side=N] [--procs=NAME,...] [--floyd-max-gb=G]
//                          [side ...]
//          (defaults: cpu, host, 60, 1000, dijkstra,bellmanford, 4, sides 32 100;
//          --bgl-side=0 leaves the large BGL runs out)

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/BenchEngine.h"
#include "bench/BenchUtil.h"
#include "bench/CountingBackend.h"
#include "bench/GraphBench.h"  // BGL (its warning silenced) and the helpers both graph benches use
#include "vm/interp/Interpreter.h"
#include "vm/io/GraphFiles.h"

using namespace star;
using namespace star::bench;  // GraphBench.h's helpers, BGL's graph types, kInf

namespace {

constexpr std::uint64_t kSeed = 20261122;
constexpr int kBglRuns = 3;                   // BGL Dijkstra: the median of this many runs
constexpr std::uint64_t kBglFloydMax = 2048;  // BGL's Floyd-Warshall (n^3) runs up to this n

// The Star procedures, in the order of the driver's third argument (1..5).
enum class Proc { Dijkstra = 1, BellmanFord, Prim, Kruskal, Floyd };
struct ProcInfo {
  Proc proc;
  const char* option;  // its name in --procs
  const char* name;    // its name in graphs.star
};
constexpr int kDistTable = 6;
constexpr std::uint64_t kDistTableCheckMax = 256;  // vertices up to which the copy is checked
constexpr std::array<ProcInfo, 5> kProcs{{{Proc::Dijkstra, "dijkstra", "DIJKSTRA"},
                                          {Proc::BellmanFord, "bellmanford", "BELLMANFORD"},
                                          {Proc::Prim, "prim", "PRIM"},
                                          {Proc::Kruskal, "kruskal", "KRUSKAL"},
                                          {Proc::Floyd, "floyd", "FLOYD"}}};

// E, vb, wb (and FLOYD's D) come from the host; args: n, s, the procedure (Proc), or
// kDistTable: GR_DISTTABLE alone, to check the host's copy of it on small graphs.
const char* kDriver = R"(program GridGraphs;
uses graphs;
var E, D, P: table; NEG, T: slice; vb, wb, n, s, total, which: integer;
begin
  n := StrToInt(ParamStr(1)); s := StrToInt(ParamStr(2)); which := StrToInt(ParamStr(3));
  if which = 1 then DIJKSTRA(E, vb, wb, n, s, D, P)
  else if which = 2 then
  begin
    if not BELLMANFORD(E, vb, wb, NEG, n, s, D, P) then writeln('negative cycle')
  end
  else if which = 3 then total := PRIM(E, vb, wb, s, T)
  else if which = 4 then total := KRUSKAL(E, vb, wb, T)
  else if which = 5 then
  begin
    if not FLOYD(n, D) then writeln('negative cycle')
  end
  else GR_DISTTABLE(E, vb, wb, NEG, n, D)
end.
)";

Graph gridGraph(std::uint64_t side) {
  Graph g;
  g.vertices = side * side;
  std::mt19937_64 rng(kSeed + side);
  std::uniform_int_distribution<std::int64_t> weight(1, 100);
  g.edges.reserve(4 * side * (side > 0 ? side - 1 : 0));
  const auto id = [&](std::uint64_t r, std::uint64_t c) { return r * side + c + 1; };
  for (std::uint64_t r = 0; r < side; ++r) {
    for (std::uint64_t c = 0; c < side; ++c) {
      if (c + 1 < side) g.edges.push_back({id(r, c), id(r, c + 1), weight(rng)});
      if (r + 1 < side) g.edges.push_back({id(r, c), id(r + 1, c), weight(rng)});
      if (c > 0) g.edges.push_back({id(r, c), id(r, c - 1), weight(rng)});
      if (r > 0) g.edges.push_back({id(r, c), id(r - 1, c), weight(rng)});
    }
  }
  return g;
}

Directed toBgl(const Graph& g) {
  Directed d(static_cast<std::size_t>(g.vertices));
  for (const GraphEdge& e : g.edges) boost::add_edge(e.tail - 1, e.head - 1, e.weight, d);
  return d;
}

// The peer's times on one grid (-1: not run) and the answers Star's runs must give.
struct BglTimes {
  double dijkstra = -1, bellmanFord = -1, prim = -1, kruskal = -1, floyd = -1;
  std::vector<long> dist;  // from vertex 1
  long mstWeight = -1;     // the minimum spanning tree's total weight
};

// BGL Dijkstra (median of kBglRuns) and, when `withBellmanFord`, one Bellman-Ford run, from
// vertex 1; the two must agree.
BglTimes runBgl(const Directed& d, bool withBellmanFord) {
  BglTimes t;
  const std::size_t n = boost::num_vertices(d);
  std::vector<Directed::vertex_descriptor> pred(n);
  std::vector<double> runs;
  for (int r = 0; r < kBglRuns; ++r) {
    std::vector<long> dist(n);
    const auto start = std::chrono::steady_clock::now();
    boost::dijkstra_shortest_paths(d, 0,
                                   boost::distance_map(dist.data()).predecessor_map(pred.data()));
    runs.push_back(bench::secondsSince(start));
    t.dist = std::move(dist);
  }
  std::sort(runs.begin(), runs.end());
  t.dijkstra = runs[runs.size() / 2];
  if (withBellmanFord) {
    std::vector<long> dist(n, kInf);
    dist[0] = 0;
    std::iota(pred.begin(), pred.end(), 0);
    const auto start = std::chrono::steady_clock::now();
    const bool ok =
        boost::bellman_ford_shortest_paths(d, n,
                                           boost::weight_map(boost::get(boost::edge_weight, d))
                                               .distance_map(dist.data())
                                               .predecessor_map(pred.data()));
    t.bellmanFord = bench::secondsSince(start);
    if (!ok || dist != t.dist) {
      std::fprintf(stderr, "BGL's Bellman-Ford and Dijkstra disagree\n");
      std::exit(1);
    }
  }
  return t;
}

// BGL's Kruskal and Prim on the arcs read as undirected edges (one run each); the two trees must
// weigh the same. Sets t.mstWeight.
void runBglSpanningTrees(const Graph& g, BglTimes& t) {
  Undirected u(static_cast<std::size_t>(g.vertices));
  for (const GraphEdge& e : g.edges) boost::add_edge(e.tail - 1, e.head - 1, e.weight, u);
  const auto weight = boost::get(boost::edge_weight, u);
  std::vector<Undirected::edge_descriptor> tree;
  auto start = std::chrono::steady_clock::now();
  boost::kruskal_minimum_spanning_tree(u, std::back_inserter(tree));
  t.kruskal = bench::secondsSince(start);
  t.mstWeight = 0;
  for (const auto& e : tree) t.mstWeight += weight[e];
  std::vector<Undirected::vertex_descriptor> pred(g.vertices);
  std::vector<long> key(g.vertices);
  start = std::chrono::steady_clock::now();
  boost::prim_minimum_spanning_tree(u, pred.data(), boost::distance_map(key.data()));
  t.prim = bench::secondsSince(start);
  // Prim's tree weighs the sum of the keys with which its vertices joined.
  const long primWeight = std::accumulate(key.begin(), key.end(), 0L);
  if (tree.size() + 1 != g.vertices || primWeight != t.mstWeight) {
    std::fprintf(stderr, "BGL's Kruskal and Prim disagree\n");
    std::exit(1);
  }
}

// BGL's Floyd-Warshall (the peer's time; where n is small enough for an n^3 run) into t.floyd.
void runBglFloyd(const Directed& d, BglTimes& t) {
  const std::size_t n = boost::num_vertices(d);
  std::vector<std::vector<long>> m(n, std::vector<long>(n));
  const auto start = std::chrono::steady_clock::now();
  boost::floyd_warshall_all_pairs_shortest_paths(d, m);
  t.floyd = bench::secondsSince(start);
}

// Interrupts the running interpreter (gInterruptRequested) unless stopped within `seconds`.
class Watchdog {
 public:
  explicit Watchdog(double seconds)
      : thread_([this, seconds] {
          std::unique_lock<std::mutex> lock(m_);
          if (!cv_.wait_for(lock, std::chrono::duration<double>(seconds),
                            [this] { return done_; })) {
            fired_ = true;
            gInterruptRequested = true;
          }
        }) {}
  ~Watchdog() { stop(); }
  void stop() {
    {
      std::lock_guard<std::mutex> lock(m_);
      done_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  bool fired() const { return fired_; }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::atomic<bool> fired_{false};
  std::thread thread_;
};

// FLOYD's input as GR_DISTTABLE builds it from E (built here as E is, since GR_DISTTABLE's ROW
// read and write per arc of a table n * b columns wide takes minutes at 10^4 vertices): n rows of
// n fields of b = GR_DWIDTH(vb, wb, n) = wb + vb + 2 bits (vb = bits(n) here), most significant
// bit first, in excess code (bias 2^(b-1)); field j of row i is the least weight of the arcs
// i -> j, 0 on the diagonal, all ones (infinity) where there is no arc.
TableData floydTable(const Graph& g, std::uint64_t vb, std::uint64_t wb) {
  const std::uint64_t n = g.vertices, b = wb + vb + 2, bias = std::uint64_t{1} << (b - 1),
                      wpc = wordsForBits(n);
  TableData t;
  t.reshape(n, n * b);
  // All ones (infinity), then each finite field written, the least weight kept.
  for (std::uint64_t c = 0; c < t.cols; ++c)
    for (std::uint64_t w = 0; w < wpc; ++w)
      t.words[c * wpc + w] =
          w + 1 < wpc || n % 64 == 0 ? ~std::uint64_t{0} : (std::uint64_t{1} << (n % 64)) - 1;
  const auto bit = [&](std::uint64_t i, std::uint64_t col) -> std::uint64_t& {
    return t.words[col * wpc + i / 64];
  };
  const auto put = [&](std::uint64_t i, std::uint64_t j, std::uint64_t value) {  // 0-based
    std::uint64_t old = 0;
    for (std::uint64_t q = 0; q < b; ++q) old = (old << 1) | ((bit(i, j * b + q) >> (i % 64)) & 1);
    if (value >= old) return;
    for (std::uint64_t q = 0; q < b; ++q) {
      const std::uint64_t mask = std::uint64_t{1} << (i % 64);
      if ((value >> (b - 1 - q)) & 1)
        bit(i, j * b + q) |= mask;
      else
        bit(i, j * b + q) &= ~mask;
    }
  };
  for (std::uint64_t i = 0; i < n; ++i) put(i, i, bias);
  for (const GraphEdge& e : g.edges)
    put(e.tail - 1, e.head - 1, bias + static_cast<std::uint64_t>(e.weight));
  return t;
}

struct StarRun {
  bool finished = false;
  std::string error;  // a runtime error other than the interrupt
  double seconds = 0;
  bench::BackendCounts counts;
  std::string engineSummary;  // the engine's --stats lines: launches, hand-overs, launch shape
  std::uint64_t steps = 0;    // as the header says, per procedure
  std::vector<long> dist;     // finished DIJKSTRA, BELLMANFORD: the distances from vertex 1
  std::vector<std::uint64_t> floyd;  // finished FLOYD: its table D as read back
  long total = -1;                   // finished PRIM, KRUSKAL: the weight returned
  std::vector<std::uint64_t> tree;   // and T, the edge rows chosen
};

// The steps a finished run of `proc` takes on the connected grid of n vertices (BELLMANFORD's
// depend on the weights).
std::uint64_t stepsOnGrid(Proc proc, std::uint64_t n) {
  return proc == Proc::Floyd ? n : n - 1;
}

// One run of a procedure on a fresh backend and interpreter.
StarRun runStar(const Module& m, const std::string& backendName, const std::string& engine,
                const Graph& g, const TableData& edges, std::uint64_t vb, std::uint64_t wb,
                Proc proc, double budget, bool counted) {
  const bool deviceEngine = engine != "host";
  const std::uint64_t n = g.vertices;
  StarRun r;
  auto inner = makeBackend(backendName);
  bench::CountingBackend counting(*inner);
  std::ostringstream out;
  Interpreter vm(deviceEngine ? *inner : static_cast<Backend&>(counting), out);
  if (deviceEngine) {
    // Compiled code comes from the disk cache after the first size (built once per program).
    bench::enableEngine(vm, engine);
    vm.enableStats(counted);  // the engine's opcode counters count the steps
    if (!vm.deviceEngineOn()) {
      r.error = "backend " + backendName + " has no " + engine + " engine";
      return r;
    }
  }
  vm.allocateGlobals(m);
  auto& globals = vm.globals();
  const auto e = static_cast<Handle>(globals[globalIndex(m, "e")].u);
  inner->writeTable(e, edges.rows, edges.cols, edges.words.data());
  globals[globalIndex(m, "vb")].i = static_cast<std::int64_t>(vb);
  globals[globalIndex(m, "wb")].i = static_cast<std::int64_t>(wb);
  if (proc == Proc::Floyd) {
    const TableData table = floydTable(g, vb, wb);
    const auto d = static_cast<Handle>(globals[globalIndex(m, "d")].u);
    if (n <= kDistTableCheckMax) {
      // The host's table must be the one GR_DISTTABLE builds (the globals stay between runs).
      vm.setArguments({std::to_string(n), "1", std::to_string(kDistTable)});
      vm.run(m, m.entry);
      std::vector<std::uint64_t> star;
      inner->readTable(d, star);
      if (inner->rows(d) != table.rows || inner->cols(d) != table.cols || star != table.words) {
        r.error = "the host's FLOYD table differs from GR_DISTTABLE's";
        return r;
      }
    }
    inner->writeTable(d, table.rows, table.cols, table.words.data());
    counting.counts = {};
  }
  const auto countBefore = vm.stats().count;  // the engine's counts before the timed run
  vm.setArguments({std::to_string(n), "1", std::to_string(static_cast<int>(proc))});
  const auto start = std::chrono::steady_clock::now();
  {
    Watchdog watchdog(budget);
    try {
      vm.run(m, m.entry);
      r.finished = true;
    } catch (const RuntimeError& err) {
      if (!watchdog.fired()) r.error = err.what();
    }
    inner->synchronize();
    r.seconds = bench::secondsSince(start);
  }
  r.counts = counting.counts;
  if (deviceEngine) {
    std::ostringstream summary;
    vm.engineStats().print(summary);
    r.engineSummary = summary.str();
    std::replace(r.engineSummary.begin(), r.engineSummary.end(), '\n', ' ');
    const auto count = [&](Op op) {
      const auto i = static_cast<std::size_t>(op);
      return vm.stats().count[i] - countBefore[i];
    };
    r.counts.finds = count(Op::BFND);
    r.counts.steps = count(Op::BSTEP);
    for (Op op : {Op::WEQ, Op::WNE, Op::WLT, Op::WLE, Op::WGT, Op::WGE})
      r.counts.compares += count(op);
  }
  r.steps = proc == Proc::BellmanFord ? r.counts.finds / 2
            : proc == Proc::Floyd     ? r.counts.compares
                                      : r.counts.finds;
  // Not counted: a finished run took the procedure's steps on the connected grid.
  if (deviceEngine && !counted)
    r.steps = !r.finished || proc == Proc::BellmanFord ? 0 : stepsOnGrid(proc, n);
  if (!r.finished) return r;
  if (!out.str().empty()) r.error = out.str();
  if (proc == Proc::Prim || proc == Proc::Kruskal) {
    r.total = globals[globalIndex(m, "total")].i;
    inner->readBits(static_cast<Handle>(globals[globalIndex(m, "t")].u), r.tree);
    return r;
  }
  const auto d = static_cast<Handle>(globals[globalIndex(m, "d")].u);
  if (proc == Proc::Floyd) {
    inner->readTable(d, r.floyd);
    return r;
  }
  // D: n rows, one field of b columns.
  const std::uint64_t b = inner->cols(d), wpc = wordsForBits(n);
  std::vector<std::uint64_t> words;
  inner->readTable(d, words);
  r.dist.assign(n, 0);
  for (std::uint64_t v = 0; v < n; ++v) r.dist[v] = distanceField(words, wpc, v, 0, b);
  return r;
}

// Whether the edge rows T marks (E's rows are g's edges, in order) form a spanning tree of the
// grid whose weight is both what the procedure returned and BGL's minimum: n - 1 edges, no
// cycle (Boost's disjoint sets), no row past E.
bool isMinimumSpanningTree(const Graph& g, const std::vector<std::uint64_t>& tree, long returned,
                           long bglWeight) {
  boost::disjoint_sets_with_storage<> components(g.vertices);
  std::uint64_t edges = 0;
  long weight = 0;
  for (std::uint64_t r = 0; r < 64 * tree.size(); ++r) {
    if (!((tree[r / 64] >> (r % 64)) & 1)) continue;
    if (r >= g.edges.size()) return false;
    const auto a = components.find_set(g.edges[r].tail - 1),
               b = components.find_set(g.edges[r].head - 1);
    if (a == b) return false;  // a cycle
    components.link(a, b);
    ++edges;
    weight += g.edges[r].weight;
  }
  return edges + 1 == g.vertices && weight == returned && weight == bglWeight;
}

// Whether FLOYD's table (read back column by column) holds every distance, row by row against
// BGL's Dijkstra from that vertex (one row of n distances in memory at a time).
bool floydMatches(const Directed& d, const std::vector<std::uint64_t>& words) {
  const std::uint64_t n = boost::num_vertices(d), wpc = wordsForBits(n), b = words.size() / wpc / n;
  std::vector<long> dist(n);
  for (std::uint64_t s = 0; s < n; ++s) {
    boost::dijkstra_shortest_paths(d, s, boost::distance_map(dist.data()));
    for (std::uint64_t v = 0; v < n; ++v)
      if (distanceField(words, wpc, s, v * b, b) != dist[v]) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string backendName = "cpu";
  std::string engine = "host";
  double budget = 60, floydMaxGb = 4;
  bool counted = true;
  std::uint64_t bglSide = 1000;
  std::vector<std::uint64_t> sides;
  std::vector<ProcInfo> procs;
  const auto usage = [] {
    std::fprintf(stderr,
                 "usage: sssp_grid_bench [--backend=cpu|cuda] [--engine=host|device|compiled] "
                 "[--budget=SECONDS] [--uncounted] [--bgl-side=N] "
                 "[--procs=dijkstra,bellmanford,prim,kruskal,"
                 "floyd] [--floyd-max-gb=G] [side >= 2 ...]\n");
    return 1;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--backend=", 0) == 0)
      backendName = a.substr(10);
    else if (a == "--engine=device" || a == "--engine=host" || a == "--engine=compiled")
      engine = a.substr(9);
    else if (a == "--uncounted")
      counted = false;
    else if (a.rfind("--budget=", 0) == 0)
      budget = std::strtod(a.c_str() + 9, nullptr);
    else if (a.rfind("--bgl-side=", 0) == 0)
      bglSide = std::strtoull(a.c_str() + 11, nullptr, 10);
    else if (a.rfind("--floyd-max-gb=", 0) == 0)
      floydMaxGb = std::strtod(a.c_str() + 15, nullptr);
    else if (a.rfind("--procs=", 0) == 0) {
      std::stringstream list(a.substr(8));
      for (std::string name; std::getline(list, name, ',');) {
        const auto* info = std::find_if(kProcs.begin(), kProcs.end(),
                                        [&](const ProcInfo& p) { return name == p.option; });
        if (info == kProcs.end()) {
          std::fprintf(stderr, "sssp_grid_bench: no procedure '%s' in --procs\n", name.c_str());
          return usage();
        }
        procs.push_back(*info);
      }
    } else if (!a.empty() && a[0] != '-' && std::strtoull(a.c_str(), nullptr, 10) >= 2)
      sides.push_back(std::strtoull(a.c_str(), nullptr, 10));
    else
      return usage();
  }
  if (sides.empty()) sides = {32, 100};
  if (procs.empty()) procs = {kProcs[0], kProcs[1]};

  const std::optional<Module> compiled = compileDriver(kDriver, "star_sssp_grid.star");
  if (!compiled) return 1;
  const Module& module = *compiled;

  {
    auto probe = makeBackend(backendName);
    std::printf(
        "Graph procedures on grid graphs (4-neighbour arcs both ways, weights 1..100, seed %llu, "
        "source and root: a corner); Star on backend %s (%s), %s engine%s\n\n",
        static_cast<unsigned long long>(kSeed), probe->name().c_str(), probe->device().c_str(),
        engine.c_str(),
        engine != "host" && !counted ? " without its counters (steps not counted)" : "");
  }
  std::fflush(stdout);

  std::map<std::uint64_t, BglTimes> bglBySide;  // each grid's BGL runs, done once
  if (bglSide >= 2) {
    const Graph g = gridGraph(bglSide);
    const BglTimes& t = bglBySide[bglSide] = runBgl(toBgl(g), true);
    std::printf(
        "| BGL on the %llu x %llu grid | vertices | arcs | dijkstra_shortest_paths (s, median of "
        "%d) | bellman_ford_shortest_paths (s, one run) |\n",
        static_cast<unsigned long long>(bglSide), static_cast<unsigned long long>(bglSide),
        kBglRuns);
    std::printf("|---|---|---|---|---|\n");
    std::printf("| | %llu | %zu | %s | %s |\n\n", static_cast<unsigned long long>(g.vertices),
                g.edges.size(), sig3(t.dijkstra).c_str(), sig3(t.bellmanFord).c_str());
    std::fflush(stdout);
  }

  std::printf(
      "| side | vertices | arcs | Star procedure | outcome | time (s) | steps | time per step (ms) "
      "| primitives per step | host waits per step | BGL, same grid (s) | Star / BGL |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::fflush(stdout);
  std::vector<std::string> notes;
  bool mismatch = false;
  const auto wants = [&](Proc p) {
    return std::any_of(procs.begin(), procs.end(), [&](const ProcInfo& i) { return i.proc == p; });
  };
  for (std::uint64_t side : sides) {
    const Graph g = gridGraph(side);
    const std::uint64_t n = g.vertices;
    std::uint64_t vb = 0, wb = 0;
    const TableData edges = edgeListTable(g, vb, wb, "grid");
    const Directed directed = toBgl(g);  // BGL's copy, for every check and peer on this grid
    if (!bglBySide.count(side)) bglBySide[side] = runBgl(directed, wants(Proc::BellmanFord));
    BglTimes& bgl = bglBySide[side];
    if ((wants(Proc::Prim) || wants(Proc::Kruskal)) && bgl.mstWeight < 0)
      runBglSpanningTrees(g, bgl);
    // FLOYD's table: n rows of n fields of GR_DWIDTH = wb + vb + 2 bits (vb = bits(n) here).
    const double floydGb =
        static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(wb + vb + 2) / 8e9;
    if (wants(Proc::Floyd) && bgl.floyd < 0 && n <= kBglFloydMax) runBglFloyd(directed, bgl);
    for (const ProcInfo& info : procs) {
      const Proc proc = info.proc;
      const auto row = [&](const std::string& outcome, const std::string& cells) {
        std::printf("| %llu | %llu | %zu | %s | %s | %s |\n", static_cast<unsigned long long>(side),
                    static_cast<unsigned long long>(n), g.edges.size(), info.name, outcome.c_str(),
                    cells.c_str());
        std::fflush(stdout);
      };
      if (proc == Proc::Floyd && floydGb > floydMaxGb) {
        row("not run: its table would hold " + fixed(floydGb, 1) +
                " GB (--floyd-max-gb=" + fixed(floydMaxGb, 1) + ")",
            "- | - | - | - | - | - | -");
        continue;
      }
      const StarRun r =
          runStar(module, backendName, engine, g, edges, vb, wb, proc, budget, counted);
      const std::uint64_t expectedSteps = stepsOnGrid(proc, n);
      std::string outcome;
      if (!r.error.empty()) {
        outcome = "error: " + r.error;
        mismatch = true;
      } else if (!r.finished) {
        outcome = "stopped after the " + fixed(budget, 0) + " s budget";
      } else if (proc != Proc::BellmanFord && r.steps != expectedSteps) {
        outcome = std::to_string(r.steps) + " STEPS COUNTED, " + std::to_string(expectedSteps) +
                  " EXPECTED";
        mismatch = true;
      } else if (proc == Proc::Prim || proc == Proc::Kruskal) {
        const bool same = isMinimumSpanningTree(g, r.tree, r.total, bgl.mstWeight);
        outcome = same ? "a spanning tree of BGL's weight" : "TREE DIFFERS FROM BGL'S";
        mismatch |= !same;
      } else if (proc == Proc::Floyd) {
        const bool same = floydMatches(directed, r.floyd);
        outcome = same ? "distances = BGL's" : "DISTANCES DIFFER FROM BGL";
        mismatch |= !same;
      } else if (r.dist != bgl.dist) {
        outcome = "DISTANCES DIFFER FROM BGL";
        mismatch = true;
      } else {
        outcome = "distances = BGL's";
        // The rounds come from counted STEPs (the host engine always counts them).
        if (proc == Proc::BellmanFord && (counted || engine == "host")) {
          outcome += ", " + std::to_string(r.counts.steps - 1 - r.steps) + " rounds";
        }
      }
      const std::uint64_t steps = r.steps;
      const double perStep = steps > 0 ? r.seconds / static_cast<double>(steps) : 0;
      const auto perStepOf = [&](double total, double scale, int digits) {
        return steps > 0 ? fixed(total / static_cast<double>(steps) * scale, digits) : "-";
      };
      const double bglSeconds = proc == Proc::Dijkstra      ? bgl.dijkstra
                                : proc == Proc::BellmanFord ? bgl.bellmanFord
                                : proc == Proc::Prim        ? bgl.prim
                                : proc == Proc::Kruskal     ? bgl.kruskal
                                                            : bgl.floyd;
      const bool peer = bglSeconds >= 0;
      const std::string ratio = r.finished && peer ? fixed(r.seconds / bglSeconds, 0) + "x" : "-";
      row(outcome,
          fixed(r.seconds, 3) + " | " + std::to_string(steps) + " | " +
              perStepOf(r.seconds, 1e3, 3) + " | " +
              (engine != "host" ? "-" : perStepOf(static_cast<double>(r.counts.primitives), 1, 0)) +
              " | " +
              (engine != "host" ? "-" : perStepOf(static_cast<double>(r.counts.syncs), 1, 0)) +
              " | " + (peer ? sig3(bglSeconds) : "-") + " | " + ratio);
      if (!r.engineSummary.empty())
        notes.push_back(std::string(info.name) + ", " + std::to_string(side) + " x " +
                        std::to_string(side) + ": " + r.engineSummary);
      if (!r.finished && r.error.empty() && steps > 0) {
        // DIJKSTRA settles every vertex but the source (the grid is connected), PRIM and KRUSKAL
        // add n - 1 edges; BELLMANFORD updates each vertex at least once; FLOYD's later rounds
        // find more finite distances and cost more than its first.
        const bool moreSteps = proc == Proc::BellmanFord;
        const bool atLeast = moreSteps || proc == Proc::Floyd;
        // (BELLMANFORD may already have done more steps than n - 1.)
        const double full = perStep * static_cast<double>(std::max(expectedSteps, steps));
        notes.push_back(std::string(info.name) + " on the " + std::to_string(side) + " x " +
                        std::to_string(side) + " grid: " + std::to_string(expectedSteps) +
                        (moreSteps ? " steps at least," : " steps") + " at the measured " +
                        fixed(perStep * 1e3, 3) + " ms a step would take " +
                        (atLeast ? "at least " : "") + fixed(full, 0) +
                        " s (extrapolated, not measured)");
      }
    }
  }
  if (!notes.empty()) {
    std::printf("\n");
    for (const std::string& n : notes) std::printf("* %s\n", n.c_str());
  }
  return mismatch ? 1 : 0;
}
