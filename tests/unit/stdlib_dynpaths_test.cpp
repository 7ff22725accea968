// stdlib/dynpaths.star against an independent oracle, the Boost Graph Library, recomputing from
// scratch after every single update:
//   * CLOSURE_INSERT and CLOSURE_DELETE keep the transitive closure of an adjacency table: after
//     each update the maintained closure must equal boost::transitive_closure of the current
//     graph (with the diagonal rule of warshall_oracle_test: C(u, u) = 1 iff u lies on a cycle),
//     and the maintained adjacency table must equal the current graph;
//   * SSSP_INSERT and SSSP_DELETE keep DIJKSTRA's distances and predecessors from one source:
//     after each update the distances must equal boost::dijkstra_shortest_paths on the current
//     arcs, and every predecessor must be valid (a tight arc of the current graph, leading back
//     to the source; none for the source and for unreachable vertices); the edge list itself is
//     checked row by row against a model of what the procedures do to it (an insertion appends
//     a row, a deletion removes the topmost matching row and moves the last row into its place;
//     a weight wider than the weight field widens it).
// Each runs on at least 200 random graphs (fixed seeds) of varied size and density, with loops,
// parallel arcs, zero weights, cycles and unreachable vertices, each with a random sequence of
// at least 100 insertions and at least 100 deletions, partly aimed at the arcs that matter (arcs
// that shorten a path, arcs of the shortest-path tree), through the compiler and the VM on the
// CPU backend. The counts of updates that changed the result are checked too, so that the
// sequences cannot pass by changing nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tests/unit/support/GraphOracle.h"

namespace star {
namespace {

using startest::Arc;
using startest::bglClosure;  // with the diagonal rule of warshall_oracle_test
using startest::bglDijkstra;
using startest::bitsOf;
using startest::dimacs;
using startest::kInf;
using startest::Matrix;
using startest::tableText;

// ------------------------------------------------------------------ Star side

// The drivers' loop over an update file (ParamStr(param), as updateFile below writes it): its
// rows loaded into UPD (op u8, tail and head u16, and the weight u32 when `weights`), and for
// each row k its fields in op, u, v (and w). The loop body follows.
std::string updateLoop(int param, bool weights) {
  return "  LOADNUM(UPD, ParamStr(" + std::to_string(param) + "), 'u8 u16 u16" +
         (weights ? " u32" : "") + R"(');
  for k := 1 to ROWS(UPD) do
  begin
    op := GR_FIELD(UPD, k, 1, 8);
    u := GR_FIELD(UPD, k, 9, 16);
    v := GR_FIELD(UPD, k, 25, 16);
)" + (weights ? "    w := GR_FIELD(UPD, k, 41, 32);\n" : "");
}

// Args: adjacency table file, update file ("op u v" per line, op 1 = insert, 0 = delete).
// Prints the closure after every update and a "." line, then the adjacency table.
const std::string kClosureDriver = R"(program ClosureDriver;
uses graphs, dynpaths;
var A, C, UPD: table; k, op, u, v: integer;
begin
  LOAD(A, ParamStr(1));
  C := A;
  CLOSURE(C);
)" + updateLoop(2, false) + R"(    if op = 1 then CLOSURE_INSERT(A, C, u, v) else CLOSURE_DELETE(A, C, u, v);
    writeln(C);
    writeln('.')
  end;
  writeln(A)
end.
)";

// Args: graph file, n, source, update file ("op u v w", op 1 = insert, 0 = delete).
// Prints after every update "# ROWS(E)" and a line "dist pred" ("- pred" when unreachable) per
// vertex; at the end "wb WB" and the rows of E as "tail head weight".
const std::string kSsspDriver = R"(program SsspDriver;
uses graphs, dynpaths;
var E, D, P, UPD: table; vb, wb, n, s, k, op, u, v, w: integer;
begin
  LOADEDGES(E, ParamStr(1), vb, wb);
  n := StrToInt(ParamStr(2));
  s := StrToInt(ParamStr(3));
  DIJKSTRA(E, vb, wb, n, s, D, P);
)" + updateLoop(4, true) + R"(    if op = 1 then SSSP_INSERT(E, vb, wb, n, s, D, P, u, v, w)
    else SSSP_DELETE(E, vb, wb, n, s, D, P, u, v);
    writeln('# ', ROWS(E));
    for v := 1 to n do
      if GR_REACHED(D, v) then writeln(GR_DIST(D, v), ' ', GR_PRED(P, v))
      else writeln('- ', GR_PRED(P, v))
  end;
  writeln('wb ', wb);
  for k := 1 to ROWS(E) do
    writeln(GR_FIELD(E, k, 1, vb), ' ', GR_FIELD(E, k, vb + 1, vb), ' ', GR_FIELD(E, k, 2 * vb + 1, wb))
end.
)";

// ------------------------------------------------------------------ common

struct Update {
  bool insert;
  int u, v;   // 1-based
  long w = 0;
};

// "op tail head" lines, with the weight after them when `weights`; a comment line first.
std::string updateFile(const std::vector<Update>& ups, bool weights) {
  std::string s = weights ? "# op tail head weight\n" : "# op tail head\n";
  for (const Update& x : ups) {
    s += std::to_string(x.insert ? 1 : 0) + " " + std::to_string(x.u) + " " + std::to_string(x.v);
    s += weights ? " " + std::to_string(x.w) + "\n" : "\n";
  }
  return s;
}

std::string describeUpdate(const Update& x) {
  return std::string(x.insert ? "insert " : "delete ") + std::to_string(x.u) + " -> " + std::to_string(x.v) +
         (x.insert ? " (" + std::to_string(x.w) + ")" : "");
}

// Splits the driver's output into the blocks that end with a line `sep` (the rest after the last).
std::vector<std::string> splitBlocks(const std::string& out, const std::string& sep, std::string& rest) {
  std::vector<std::string> blocks;
  std::string cur;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line == sep) {
      blocks.push_back(cur);
      cur.clear();
    } else {
      cur += line + "\n";
    }
  }
  rest = cur;
  return blocks;
}

// What both suites ask of their sequences over all graphs: at least 200 graphs with at least 100
// insertions and 100 deletions each, and at least 2000 of each kind that changed the result.
void expectSequenceCounts(int graphs, long inserts, long deletes, long changingInserts,
                          long changingDeletes) {
  EXPECT_GE(graphs, 200);
  EXPECT_GE(inserts, 200L * 100);
  EXPECT_GE(deletes, 200L * 100);
  EXPECT_GE(changingInserts, 2000);
  EXPECT_GE(changingDeletes, 2000);
}

class StdlibDynpaths : public startest::StdlibOracleTest {};

// ------------------------------------------------------------------ transitive closure

struct ClosureCase {
  int n;
  double perVertex;  // arcs per vertex
  std::uint64_t seed;
};

std::vector<ClosureCase> closureCases(int count) {
  // The corners first: one vertex, a loop, no arcs, dense, sparse; then tables of more than 64
  // rows (slices of several machine words).
  std::vector<ClosureCase> out = {
      {1, 0.0, 1},   {1, 1.0, 2},  {2, 0.0, 3},   {2, 1.0, 4},   {3, 3.0, 5},  {24, 8.0, 6},
      {30, 0.5, 7},  {16, 1.0, 8}, {65, 1.0, 9},  {70, 0.7, 10}, {100, 1.2, 11}, {130, 0.9, 12},
  };
  std::mt19937_64 rng(4242);
  std::uniform_int_distribution<int> size(1, 40);
  std::uniform_real_distribution<double> density(0.0, 3.0);
  std::uint64_t seed = 100;
  while (static_cast<int>(out.size()) < count) out.push_back({size(rng), density(rng), seed++});
  return out;
}

TEST_F(StdlibDynpaths, ClosureUpdatesMatchBglAfterEveryUpdate) {
  startest::Compiled driver = compile(kClosureDriver, "closure_driver.star");
  ASSERT_TRUE(driver.ok);
  auto start = std::chrono::steady_clock::now();
  int graphs = 0;
  long inserts = 0, deletes = 0, changingInserts = 0, changingDeletes = 0, presentInserts = 0;
  for (const ClosureCase& c : closureCases(210)) {
    SCOPED_TRACE("n = " + std::to_string(c.n) + ", seed " + std::to_string(c.seed));
    std::mt19937_64 rng(c.seed);
    std::uniform_int_distribution<int> vertex(0, c.n - 1);
    Matrix adj(c.n, std::vector<bool>(c.n, false));
    const int m = static_cast<int>(c.perVertex * c.n);
    for (int i = 0; i < m; ++i) adj[vertex(rng)][vertex(rng)] = true;
    const std::string graphFile = dir.write("graph.txt", tableText(adj));

    // The updates, and the closure after each.
    std::vector<Update> ups;
    std::vector<std::string> want;
    Matrix cur = adj, closure = bglClosure(adj);
    int ins = 0, del = 0;
    while (ins < 100 || del < 100) {
      std::vector<std::pair<int, int>> arcs;
      for (int i = 0; i < c.n; ++i)
        for (int j = 0; j < c.n; ++j)
          if (cur[i][j]) arcs.push_back({i, j});
      bool doDelete = !arcs.empty() && (ins >= 100 || (del < 100 && std::bernoulli_distribution(0.5)(rng)));
      Update x;
      if (doDelete) {
        auto [i, j] = arcs[std::uniform_int_distribution<std::size_t>(0, arcs.size() - 1)(rng)];
        x = {false, i + 1, j + 1};
        cur[i][j] = false;
        ++del;
      } else {
        int i = vertex(rng), j = vertex(rng);
        if (!arcs.empty() && std::bernoulli_distribution(0.1)(rng))  // an arc already there: no change
          std::tie(i, j) = arcs[std::uniform_int_distribution<std::size_t>(0, arcs.size() - 1)(rng)];
        presentInserts += cur[i][j];
        x = {true, i + 1, j + 1};
        cur[i][j] = true;
        ++ins;
      }
      Matrix next = bglClosure(cur);
      if (next != closure) (x.insert ? changingInserts : changingDeletes)++;
      closure = next;
      ups.push_back(x);
      want.push_back(tableText(closure));
    }
    inserts += ins;
    deletes += del;

    std::string out = run(driver, {graphFile, dir.write("updates.txt", updateFile(ups, false))});
    std::string rest;
    std::vector<std::string> got = splitBlocks(out, ".", rest);
    ASSERT_EQ(got.size(), ups.size()) << out.substr(0, 2000);
    for (std::size_t k = 0; k < ups.size(); ++k)
      ASSERT_EQ(got[k], want[k]) << "after update " << k + 1 << ": " << describeUpdate(ups[k]);
    EXPECT_EQ(rest, tableText(cur)) << "the adjacency table at the end";
    ++graphs;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("closure: %d graphs, %ld insertions (%ld changed the closure, %ld of a present arc), "
              "%ld deletions (%ld changed it), %.1f s\n",
              graphs, inserts, changingInserts, presentInserts, deletes, changingDeletes, seconds);
  expectSequenceCounts(graphs, inserts, deletes, changingInserts, changingDeletes);
  EXPECT_GE(presentInserts, 500);
}

// ------------------------------------------------------------------ shortest paths

// Checks one state block ("# rows" and n lines) against the arcs and BGL's distances.
std::string checkState(const std::string& block, int n, int s, const std::vector<Arc>& arcs,
                       const std::vector<long>& want) {
  std::istringstream in(block);
  std::string hash;
  std::size_t rows;
  if (!(in >> hash >> rows) || hash != "#") return "no '# rows' line";
  if (rows != arcs.size()) return "E has " + std::to_string(rows) + " rows, expected " + std::to_string(arcs.size());
  std::vector<long> dist(n);
  std::vector<int> pred(n);
  for (int v = 0; v < n; ++v) {
    std::string d;
    if (!(in >> d >> pred[v])) return "missing the line of vertex " + std::to_string(v + 1);
    dist[v] = d == "-" ? kInf : std::stol(d);
  }
  for (int v = 0; v < n; ++v)
    if (dist[v] != want[v])
      return "vertex " + std::to_string(v + 1) + ": distance " + (dist[v] == kInf ? "-" : std::to_string(dist[v])) +
             ", BGL says " + (want[v] == kInf ? "-" : std::to_string(want[v]));
  return startest::checkPredecessors(n, arcs, s, dist, pred);
}

struct SsspCase {
  int n;
  double perVertex;
  long maxWeight;
  std::uint64_t seed;
};

std::vector<SsspCase> ssspCases(int count) {
  std::vector<SsspCase> out = {
      {1, 0.0, 5, 1}, {1, 2.0, 5, 2}, {2, 0.5, 0, 3}, {5, 0.0, 3, 4},
      {30, 6.0, 1, 5}, {30, 3.0, (1L << 20) - 1, 6}, {7, 4.0, 0, 7}, {12, 1.0, 9, 8},
      {90, 3.0, 50, 9}, {130, 2.0, 1000, 10},
  };
  std::mt19937_64 rng(777);
  std::uniform_int_distribution<int> size(1, 40);
  std::uniform_real_distribution<double> density(0.0, 5.0);
  std::uniform_int_distribution<int> weightBits(0, 12);
  std::uint64_t seed = 300;
  while (static_cast<int>(out.size()) < count) {
    long maxW = (1L << weightBits(rng)) - 1;
    if (maxW == 0 && out.size() % 3) maxW = 9;
    out.push_back({size(rng), density(rng), maxW, seed++});
  }
  return out;
}

TEST_F(StdlibDynpaths, ShortestPathUpdatesMatchBglAfterEveryUpdate) {
  startest::Compiled driver = compile(kSsspDriver, "sssp_driver.star");
  ASSERT_TRUE(driver.ok);
  auto start = std::chrono::steady_clock::now();
  int graphs = 0, widened = 0;
  long inserts = 0, deletes = 0, changingInserts = 0, changingDeletes = 0, withUnreachable = 0;
  for (const SsspCase& c : ssspCases(210)) {
    SCOPED_TRACE("n = " + std::to_string(c.n) + ", weights <= " + std::to_string(c.maxWeight) + ", seed " +
                 std::to_string(c.seed));
    std::mt19937_64 rng(c.seed);
    std::uniform_int_distribution<int> vertex(1, c.n);
    std::uniform_int_distribution<long> weight(0, c.maxWeight);
    std::vector<Arc> arcs;
    const int m = static_cast<int>(c.perVertex * c.n);
    for (int i = 0; i < m; ++i) arcs.push_back({vertex(rng), vertex(rng), weight(rng)});
    const int s = vertex(rng);
    const std::string graphFile = dir.write("graph.gr", dimacs(c.n, arcs));
    long maxW = 0;
    for (const Arc& a : arcs) maxW = std::max(maxW, a.w);
    int wb = bitsOf(maxW);  // LOADEDGES: the bits of the largest weight, at least 1
    const int wb0 = wb;

    std::vector<Update> ups;
    std::vector<std::vector<Arc>> arcsAfter;
    std::vector<std::vector<long>> want;
    std::vector<long> dist = bglDijkstra(c.n, arcs, s);
    int ins = 0, del = 0;
    while (ins < 100 || del < 100) {
      bool doDelete = !arcs.empty() && (ins >= 100 || (del < 100 && std::bernoulli_distribution(0.5)(rng)));
      Update x;
      if (doDelete) {
        // Half the time an arc of a shortest-path tree (a tight arc into a reached vertex).
        std::vector<std::size_t> tight;
        for (std::size_t i = 0; i < arcs.size(); ++i) {
          const Arc& a = arcs[i];
          if (a.u != a.v && dist[a.u - 1] != kInf && dist[a.u - 1] + a.w == dist[a.v - 1]) tight.push_back(i);
        }
        std::size_t pick = !tight.empty() && std::bernoulli_distribution(0.5)(rng)
                               ? tight[std::uniform_int_distribution<std::size_t>(0, tight.size() - 1)(rng)]
                               : std::uniform_int_distribution<std::size_t>(0, arcs.size() - 1)(rng);
        x = {false, arcs[pick].u, arcs[pick].v, 0};
        // The procedure removes the topmost row u -> v; the last row takes its place.
        std::size_t row = 0;
        while (!(arcs[row].u == x.u && arcs[row].v == x.v)) ++row;
        arcs[row] = arcs.back();
        arcs.pop_back();
        ++del;
      } else {
        x = {true, vertex(rng), vertex(rng), weight(rng)};
        double kind = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
        if (kind < 0.4 && dist[x.u - 1] != kInf && dist[x.v - 1] != kInf && dist[x.v - 1] > dist[x.u - 1]) {
          // An arc that shortens the path to v (when v is reached from farther than u).
          x.w = std::uniform_int_distribution<long>(0, dist[x.v - 1] - dist[x.u - 1] - 1)(rng);
        } else if (kind < 0.55 && dist[x.u - 1] != kInf) {
          x.w = std::uniform_int_distribution<long>(0, c.maxWeight / 4)(rng);  // light: often shortens
        } else if (kind < 0.6 && c.seed % 3 == 0 && wb < 24) {
          x.w = std::uniform_int_distribution<long>(0, (1L << (wb + 2)) - 1)(rng);  // may widen the field
        }
        arcs.push_back({x.u, x.v, x.w});
        wb = std::max(wb, bitsOf(x.w));
        ++ins;
      }
      std::vector<long> next = bglDijkstra(c.n, arcs, s);
      if (next != dist) (x.insert ? changingInserts : changingDeletes)++;
      dist = next;
      withUnreachable += std::count(dist.begin(), dist.end(), kInf) > 0;
      ups.push_back(x);
      arcsAfter.push_back(arcs);
      want.push_back(dist);
    }
    inserts += ins;
    deletes += del;
    widened += wb > wb0;

    std::string out =
        run(driver, {graphFile, std::to_string(c.n), std::to_string(s), dir.write("updates.txt", updateFile(ups, true))});
    // Blocks start with "# ": split before each.
    std::vector<std::string> blocks;
    std::string tail;
    {
      std::istringstream in(out);
      std::string line, cur;
      bool inBlock = false;
      while (std::getline(in, line)) {
        if (line.rfind("# ", 0) == 0) {
          if (inBlock) blocks.push_back(cur);
          cur = line + "\n";
          inBlock = true;
        } else if (line.rfind("wb ", 0) == 0) {
          if (inBlock) blocks.push_back(cur);
          inBlock = false;
          tail = line + "\n";
        } else if (inBlock) {
          cur += line + "\n";
        } else {
          tail += line + "\n";
        }
      }
    }
    ASSERT_EQ(blocks.size(), ups.size()) << out.substr(0, 2000);
    for (std::size_t k = 0; k < ups.size(); ++k) {
      std::string bad = checkState(blocks[k], c.n, s, arcsAfter[k], want[k]);
      ASSERT_EQ(bad, "") << "after update " << k + 1 << ": " << describeUpdate(ups[k]) << "\n" << blocks[k];
    }
    std::string wantTail = "wb " + std::to_string(wb) + "\n";
    for (const Arc& a : arcs) wantTail += std::to_string(a.u) + " " + std::to_string(a.v) + " " + std::to_string(a.w) + "\n";
    EXPECT_EQ(tail, wantTail) << "the edge list at the end";
    ++graphs;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("shortest paths: %d graphs, %ld insertions (%ld changed a distance), %ld deletions (%ld changed "
              "one), %ld states with unreachable vertices, %d graphs widened, %.1f s\n",
              graphs, inserts, changingInserts, deletes, changingDeletes, withUnreachable, widened, seconds);
  expectSequenceCounts(graphs, inserts, deletes, changingInserts, changingDeletes);
  EXPECT_GE(withUnreachable, 2000);
  EXPECT_GE(widened, 10);
}

}  // namespace
}  // namespace star
