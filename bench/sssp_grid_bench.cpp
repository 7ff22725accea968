// Single-source shortest paths on a road-like grid graph: side x side vertices, an arc each way
// between 4-neighbours, integer weights 1..100 drawn with a fixed seed, the source a corner
// (vertex 1); rows numbered first, so vertex r * side + c + 1 is at row r, column c.
//  * The Boost Graph Library's dijkstra_shortest_paths and bellman_ford_shortest_paths on the
//    grid of side --bgl-side (default 1000: 10^6 vertices, 3,996,000 arcs).
//  * The Star library's DIJKSTRA and BELLMANFORD (stdlib/graphs.star) through the VM on the
//    backend --backend names, on every side given, with the edge list built in memory as
//    LOADEDGES builds it (edgeListTable, vm/io/GraphFiles.h) and handed to the program in its
//    global E (no file I/O is timed). A run still busy after --budget seconds is interrupted as
//    Ctrl-C interrupts `star run`; the table then shows the steps it did and their cost. Every
//    finished run's distances must equal BGL's (exit status 1 otherwise).
// Steps: DIJKSTRA settles one vertex per step (one FND each); a BELLMANFORD step is one update of
// a vertex's distance (two FNDs each), and a finished run's rounds are its STEP calls - 1 -
// updates (each round STEPs through the vertices changed in the round before, then once more).
// The backend is wrapped in a counting one (bench/CountingBackend.h) to count them.
// With --engine=device the interpreter hands the run to the backend's device engine; the steps
// are then counted by the engine's opcode counters (the primitive and wait columns stay empty:
// inside the engine there are no backend calls to count).
//   usage: sssp_grid_bench [--backend=cpu|cuda] [--engine=host|device] [--budget=SECONDS]
//                          [--bgl-side=N] [side ...]
//          (defaults: cpu, host, 60, 1000, sides 32 100; --bgl-side=0 leaves the large BGL runs out)

// GCC 12 reports -Wmaybe-uninitialized inside Boost's edge iterators (a known false positive of
// boost::optional in adj_list_edge_iterator); it says nothing about this file.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/bellman_ford_shortest_paths.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#pragma GCC diagnostic pop

#include <algorithm>
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

#include "bench/BenchUtil.h"
#include "bench/CountingBackend.h"
#include "frontend/driver/Compilation.h"
#include "runtime-cpu/CpuBackend.h"
#include "vm/interp/Interpreter.h"
#include "vm/io/GraphFiles.h"
#ifdef STAR_HAVE_CUDA
#include "runtime-cuda/CudaBackend.h"
#endif

using namespace star;

namespace {

constexpr long kInf = std::numeric_limits<long>::max();
constexpr std::uint64_t kSeed = 20261122;
constexpr int kBglRuns = 3;  // BGL Dijkstra: the median of this many runs

// E, vb, wb come from the host; args: n, s, algorithm (1 DIJKSTRA, 2 BELLMANFORD).
const char* kDriver = R"(program SsspGrid;
uses graphs;
var E, D, P: table; NEG: slice; vb, wb, n, s: integer;
begin
  n := StrToInt(ParamStr(1)); s := StrToInt(ParamStr(2));
  if StrToInt(ParamStr(3)) = 1 then DIJKSTRA(E, vb, wb, n, s, D, P)
  else if not BELLMANFORD(E, vb, wb, NEG, n, s, D, P) then writeln('negative cycle')
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

using Directed =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                          boost::property<boost::edge_weight_t, long>>;

Directed toBgl(const Graph& g) {
  Directed d(static_cast<std::size_t>(g.vertices));
  for (const GraphEdge& e : g.edges) boost::add_edge(e.tail - 1, e.head - 1, e.weight, d);
  return d;
}

struct BglTimes {
  double dijkstra = -1, bellmanFord = -1;
  std::vector<long> dist;
};

// BGL Dijkstra (median of kBglRuns) and, when `withBellmanFord`, one Bellman-Ford run, from
// vertex 1; the two must agree.
BglTimes runBgl(const Graph& g, bool withBellmanFord) {
  BglTimes t;
  const Directed d = toBgl(g);
  const std::size_t n = g.vertices;
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

std::unique_ptr<Backend> makeBackend(const std::string& name) {
#ifdef STAR_HAVE_CUDA
  if (name == "cuda") return makeCudaBackend();
#endif
  if (name != "cpu") {
    std::fprintf(stderr, "backend %s is not available\n", name.c_str());
    std::exit(1);
  }
  return makeCpuBackend();
}

std::uint32_t globalIndex(const Module& m, const std::string& name) {
  for (std::uint32_t i = 0; i < m.globals.size(); ++i) {
    std::string g = m.globals[i].name;
    std::transform(g.begin(), g.end(), g.begin(), [](unsigned char c) { return std::tolower(c); });
    if (g == name) return i;
  }
  std::fprintf(stderr, "the driver has no global %s\n", name.c_str());
  std::exit(1);
}

struct StarRun {
  bool finished = false;
  std::string error;  // a runtime error other than the interrupt
  double seconds = 0;
  bench::BackendCounts counts;
  std::vector<long> dist;  // finished runs: kInf for unreachable
};

// One run of DIJKSTRA (algorithm 1) or BELLMANFORD (2) on a fresh backend and interpreter.
StarRun runStar(const Module& m, const std::string& backendName, bool deviceEngine,
                const TableData& edges, std::uint64_t vb, std::uint64_t wb, std::uint64_t n,
                int algorithm, double budget) {
  StarRun r;
  auto inner = makeBackend(backendName);
  bench::CountingBackend counting(*inner);
  std::ostringstream out;
  Interpreter vm(deviceEngine ? *inner : static_cast<Backend&>(counting), out);
  if (deviceEngine) {
    vm.enableDeviceEngine(true);
    vm.enableStats(true);  // the engine's opcode counters count the steps
    if (!vm.deviceEngineOn()) {
      r.error = "backend " + backendName + " has no device engine";
      return r;
    }
  }
  vm.allocateGlobals(m);
  auto& globals = vm.globals();
  const auto e = static_cast<Handle>(globals[globalIndex(m, "e")].u);
  inner->writeTable(e, edges.rows, edges.cols, edges.words.data());
  globals[globalIndex(m, "vb")].i = static_cast<std::int64_t>(vb);
  globals[globalIndex(m, "wb")].i = static_cast<std::int64_t>(wb);
  vm.setArguments({std::to_string(n), "1", std::to_string(algorithm)});
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
    r.counts.finds = vm.stats().count[static_cast<std::size_t>(Op::BFND)];
    r.counts.steps = vm.stats().count[static_cast<std::size_t>(Op::BSTEP)];
  }
  if (!r.finished) return r;
  if (!out.str().empty()) r.error = out.str();
  // D: n rows, b columns, excess-2^(b-1) code, all ones = unreachable.
  const auto d = static_cast<Handle>(globals[globalIndex(m, "d")].u);
  const std::uint64_t b = inner->cols(d), wpc = wordsForBits(n);
  std::vector<std::uint64_t> words;
  inner->readTable(d, words);
  r.dist.assign(n, 0);
  for (std::uint64_t v = 0; v < n; ++v) {
    std::uint64_t x = 0;
    for (std::uint64_t j = 0; j < b; ++j)
      x = (x << 1) | ((words[j * wpc + v / 64] >> (v % 64)) & 1);
    const std::uint64_t excess = std::uint64_t{1} << (b - 1);
    r.dist[v] = x == (excess << 1) - 1 ? kInf : static_cast<long>(x) - static_cast<long>(excess);
  }
  return r;
}

// Three significant digits: BGL's times span microseconds to seconds.
std::string sig3(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

std::string fixed(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

std::string driverPath(const std::string& dir, const std::string& name) {
  // The source tree's stdlib, or (on a machine the build was carried to) the one under the cwd.
  const std::string tree = std::string(STAR_SOURCE_DIR) + "/" + dir;
  return (std::filesystem::exists(tree) ? tree : dir) + (name.empty() ? "" : "/" + name);
}

}  // namespace

int main(int argc, char** argv) {
  std::string backendName = "cpu";
  bool deviceEngine = false;
  double budget = 60;
  std::uint64_t bglSide = 1000;
  std::vector<std::uint64_t> sides;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--backend=", 0) == 0)
      backendName = a.substr(10);
    else if (a == "--engine=device" || a == "--engine=host")
      deviceEngine = a == "--engine=device";
    else if (a.rfind("--budget=", 0) == 0)
      budget = std::strtod(a.c_str() + 9, nullptr);
    else if (a.rfind("--bgl-side=", 0) == 0)
      bglSide = std::strtoull(a.c_str() + 11, nullptr, 10);
    else if (!a.empty() && a[0] != '-' && std::strtoull(a.c_str(), nullptr, 10) >= 2)
      sides.push_back(std::strtoull(a.c_str(), nullptr, 10));
    else {
      std::fprintf(stderr,
                   "usage: sssp_grid_bench [--backend=cpu|cuda] [--engine=host|device] [--budget=SECONDS] "
                   "[--bgl-side=N] "
                   "[side >= 2 ...]\n");
      return 1;
    }
  }
  if (sides.empty()) sides = {32, 100};

  CompileOptions options;
  options.warnUnused = false;
  options.modulePath.push_back(driverPath("stdlib", ""));
  Compilation c(std::cerr, options);
  const std::string source =
      (std::filesystem::temp_directory_path() / "star_sssp_grid.star").string();
  {
    std::FILE* f = std::fopen(source.c_str(), "w");
    if (!f || std::fputs(kDriver, f) < 0 || std::fclose(f) != 0) {
      std::fprintf(stderr, "cannot write %s\n", source.c_str());
      return 1;
    }
  }
  if (!c.compileFile(source)) return 1;
  const Module module = c.takeModule();
  std::filesystem::remove(source);

  {
    auto probe = makeBackend(backendName);
    std::printf(
        "Shortest paths on grid graphs (4-neighbour arcs both ways, weights 1..100, seed %llu, "
        "source: a corner); Star on backend %s (%s), %s engine\n\n",
        static_cast<unsigned long long>(kSeed), probe->name().c_str(), probe->device().c_str(),
        deviceEngine ? "device" : "host");
  }
  std::fflush(stdout);

  std::map<std::uint64_t, BglTimes> bglBySide;  // each grid's BGL runs, done once
  if (bglSide >= 2) {
    const Graph g = gridGraph(bglSide);
    const BglTimes& t = bglBySide[bglSide] = runBgl(g, true);
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
  for (std::uint64_t side : sides) {
    const Graph g = gridGraph(side);
    std::uint64_t vb = 0, wb = 0;
    const TableData edges = edgeListTable(g, vb, wb, "grid");
    if (!bglBySide.count(side)) bglBySide[side] = runBgl(g, true);
    const BglTimes& bgl = bglBySide[side];
    for (int algorithm : {1, 2}) {
      const char* name = algorithm == 1 ? "DIJKSTRA" : "BELLMANFORD";
      const StarRun r = runStar(module, backendName, deviceEngine, edges, vb, wb, g.vertices, algorithm,
                                  budget);
      const std::uint64_t steps = algorithm == 1 ? r.counts.finds : r.counts.finds / 2;
      std::string outcome;
      if (!r.error.empty()) {
        outcome = "error: " + r.error;
        mismatch = true;
      } else if (!r.finished) {
        outcome = "stopped after the " + fixed(budget, 0) + " s budget";
      } else if (r.dist != bgl.dist) {
        outcome = "DISTANCES DIFFER FROM BGL";
        mismatch = true;
      } else {
        outcome = "distances = BGL's";
        if (algorithm == 2) {
          outcome += ", " + std::to_string(r.counts.steps - 1 - steps) + " rounds";
        }
      }
      const double perStep = steps > 0 ? r.seconds / static_cast<double>(steps) : 0;
      const auto perStepOf = [&](double total, double scale, int digits) {
        return steps > 0 ? fixed(total / static_cast<double>(steps) * scale, digits) : "-";
      };
      const double bglSeconds = algorithm == 1 ? bgl.dijkstra : bgl.bellmanFord;
      const std::string ratio = r.finished ? fixed(r.seconds / bglSeconds, 0) + "x" : "-";
      std::printf("| %llu | %llu | %zu | %s | %s | %s | %llu | %s | %s | %s | %s | %s |\n",
                  static_cast<unsigned long long>(side),
                  static_cast<unsigned long long>(g.vertices), g.edges.size(), name,
                  outcome.c_str(), fixed(r.seconds, 3).c_str(),
                  static_cast<unsigned long long>(steps), perStepOf(r.seconds, 1e3, 3).c_str(),
                  deviceEngine ? "-" : perStepOf(static_cast<double>(r.counts.primitives), 1, 0).c_str(),
                  deviceEngine ? "-" : perStepOf(static_cast<double>(r.counts.syncs), 1, 0).c_str(),
                  sig3(bglSeconds).c_str(), ratio.c_str());
      std::fflush(stdout);
      if (!r.finished && r.error.empty() && steps > 0) {
        // DIJKSTRA settles every vertex but the source (the grid is connected); BELLMANFORD
        // updates each of them at least once.
        const double full = perStep * static_cast<double>(g.vertices - 1);
        notes.push_back(std::string(name) + " on the " + std::to_string(side) + " x " +
                        std::to_string(side) + " grid: " + std::to_string(g.vertices - 1) +
                        (algorithm == 1 ? " steps" : " steps at least") + " at the measured " +
                        fixed(perStep * 1e3, 3) + " ms a step would take " +
                        (algorithm == 1 ? "" : "at least ") + fixed(full, 0) +
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
