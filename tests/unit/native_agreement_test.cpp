// Every native-backed standard-library procedure (a `native '...'` clause) gives exactly what its
// Star body gives: each random case runs once with natives enabled and once with them disabled
// (as `star run --no-native`), and the outputs must be identical. The native run must really have
// used the native implementation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>

#include "tests/unit/support/StarTestUtil.h"
#include "vm/io/TableText.h"

namespace {

// Args: a table file, first, len. MINROW, MAXROW and the field forms over a control slice of
// every third row cleared; ADDWF / SUBWF of a word cut from row 1 on the field, and ADDW of row
// 1; then CLOSURE when the table is square.
const char* kDriver = R"(program NativeAgreement;
uses assoc, graphs;
var T: table; X, Z: slice; v: word; i, first, len: integer;
begin
  LOAD(T, ParamStr(1));
  first := StrToInt(ParamStr(2)); len := StrToInt(ParamStr(3));
  X := COL(1, T); SET(X);
  for i := 1 to ROWS(T) do if i mod 3 = 0 then X(i) := 0;
  MINROW(T, X, Z); writeln(Z);
  MAXROW(T, X, Z); writeln(Z);
  MINROWF(T, X, first, len, Z); writeln(Z);
  MAXROWF(T, X, first, len, Z); writeln(Z);
  if len > 0 then
  begin
    v := TRIM(1, len, ROW(1, T));
    ADDWF(T, X, first, v); writeln(T);
    SUBWF(T, X, first, v); SUBWF(T, X, first, v); writeln(T)
  end;
  ADDW(T, X, ROW(1, T)); writeln(T);
  if ROWS(T) = COLS(T) then begin CLOSURE(T); writeln(T) end
end.
)";

struct Outcome {
  std::string output;
  std::uint64_t nativeCalls = 0;
};

Outcome runOnce(const star::Module& m, const std::vector<std::string>& args, bool natives) {
  startest::Vm vm;
  vm.interp.enableNatives(natives);
  startest::RunResult r = vm.run(m, args);
  EXPECT_FALSE(r.error) << *r.error;
  return {r.output, vm.interp.nativeCalls()};
}

TEST(NativeAgreement, NativeAndStarBodiesGiveIdenticalResults) {
  startest::TempDir dir;
  startest::Compiled c = startest::compileWithStdlib(dir, kDriver, "agree.star");
  ASSERT_TRUE(c.ok) << c.diagnostics;
  std::mt19937_64 rng(2026);
  int squareCases = 0;
  for (int trial = 0; trial < 220; ++trial) {
    const std::uint64_t rows = 1 + rng() % 130;
    const std::uint64_t cols = trial % 4 == 0 ? rows : 1 + rng() % 70;
    const double density = (trial % 7) / 6.0;  // 0 .. 1, with all-0 and all-1 columns
    star::TableData t;
    t.reshape(rows, cols);
    std::bernoulli_distribution bit(trial % 4 == 0 ? density * 0.05 : density);
    for (std::uint64_t i = 0; i < rows; ++i)
      for (std::uint64_t j = 0; j < cols; ++j)
        if (bit(rng)) t.set(i, j);
    const std::string file =
        dir.write("t" + std::to_string(trial) + ".txt", star::formatTableText(t));
    const std::uint64_t first = 1 + rng() % cols;
    const std::uint64_t len = rng() % (cols - first + 2);  // 0 .. the columns left
    const std::vector<std::string> args{file, std::to_string(first), std::to_string(len)};
    Outcome native = runOnce(c.module, args, true);
    Outcome body = runOnce(c.module, args, false);
    EXPECT_EQ(native.output, body.output) << "trial " << trial << ": " << rows << " x " << cols;
    const bool square = rows == cols;
    squareCases += square;
    // MINROW, MAXROW, MINROWF, MAXROWF; ADDWF, SUBWF twice (len > 0); ADDWF under ADDW;
    // CLOSURE (square).
    const std::uint64_t expected = 4 + (len > 0 ? 3 : 0) + 1 + (square ? 1 : 0);
    EXPECT_EQ(native.nativeCalls, expected) << "trial " << trial;
    EXPECT_EQ(body.nativeCalls, 0u);
  }
  EXPECT_GE(squareCases, 50);
}

// The runs above use the backend that STAR_TEST_BACKEND names (the CPU when unset), so on the GPU
// the native-call counts above are the CUDA backend's.
TEST(NativeAgreement, RunsOnTheRequestedBackend) {
  const char* requested = std::getenv("STAR_TEST_BACKEND");
  startest::Vm vm;
  EXPECT_EQ(vm.backend->name(), requested && *requested ? requested : "cpu");
}

// A case the body reports as an error (a field beyond the table) runs the body, which reports it.
TEST(NativeAgreement, ErrorsComeFromTheBody) {
  startest::TempDir dir;
  startest::Compiled c = startest::compileWithStdlib(dir, kDriver, "agree.star");
  ASSERT_TRUE(c.ok) << c.diagnostics;
  const std::string file = dir.write("t.txt", "0101\n0011\n1111\n");
  for (bool natives : {true, false}) {
    startest::Vm vm;
    vm.interp.enableNatives(natives);
    startest::RunResult r = vm.run(c.module, {file, "3", "5"});
    ASSERT_TRUE(r.error);
    EXPECT_EQ(*r.error, "column 5 is out of range 1..4");
  }
}

// CLOSURE_INSERT and CLOSURE_DELETE (unit dynpaths): A loaded, C := its closure (the second
// argument `closure`) or a table loaded from the second argument; then a sequence of arc
// insertions and deletions (the count, then triples: i or d, u, v), C printed after each, A at
// the end.
const char* kUpdateDriver = R"(program UpdateAgreement;
uses graphs, dynpaths;
var A, C: table; i, k, u, v: integer;
begin
  LOAD(A, ParamStr(1));
  if ParamStr(2) = 'closure' then begin C := A; CLOSURE(C) end else LOAD(C, ParamStr(2));
  k := StrToInt(ParamStr(3));
  for i := 1 to k do
  begin
    u := StrToInt(ParamStr(3 * i + 2));
    v := StrToInt(ParamStr(3 * i + 3));
    if ParamStr(3 * i + 1) = 'i' then CLOSURE_INSERT(A, C, u, v) else CLOSURE_DELETE(A, C, u, v);
    writeln(C)
  end;
  writeln(A)
end.
)";

// Both runs of a program, natives on and off: their outputs, errors ("" for none) and native calls.
struct BothRuns {
  std::string output[2], error[2];
  std::uint64_t nativeCalls[2] = {0, 0};
};
BothRuns runBoth(const star::Module& m, const std::vector<std::string>& args) {
  BothRuns r;
  for (bool natives : {false, true}) {
    startest::Vm vm;
    vm.interp.enableNatives(natives);
    startest::RunResult run = vm.run(m, args);
    r.output[natives] = run.output;
    r.error[natives] = run.error ? *run.error : "";
    r.nativeCalls[natives] = vm.interp.nativeCalls();
  }
  return r;
}

TEST(NativeAgreement, ClosureUpdateSequencesGiveIdenticalResults) {
  startest::TempDir dir;
  startest::Compiled c = startest::compileWithStdlib(dir, kUpdateDriver, "update.star");
  ASSERT_TRUE(c.ok) << c.diagnostics;
  std::mt19937_64 rng(2027);
  int deletions = 0;
  for (int trial = 0; trial < 120; ++trial) {
    // Sizes around the word boundaries; graphs from sparse to many cycles.
    const std::uint64_t n = trial < 8 ? 1 + trial : 1 + rng() % 150;
    star::TableData t;
    t.reshape(n, n);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> arcs;
    std::bernoulli_distribution arc(trial % 5 == 0 ? 0.0
                                                   : (1.0 + trial % 3) / static_cast<double>(n));
    for (std::uint64_t i = 0; i < n; ++i)
      for (std::uint64_t j = 0; j < n; ++j)
        if (arc(rng)) {
          t.set(i, j);
          arcs.push_back({i + 1, j + 1});
        }
    const std::string file =
        dir.write("a" + std::to_string(trial) + ".txt", star::formatTableText(t));
    const int k = 30;
    std::vector<std::string> args{file, "closure", std::to_string(k)};
    std::pair<std::uint64_t, std::uint64_t> last{0, 0};
    for (int i = 0; i < k; ++i) {
      const bool remove = !arcs.empty() && rng() % 2 == 0;
      std::pair<std::uint64_t, std::uint64_t> e;
      if (remove) {
        const std::size_t at = rng() % arcs.size();
        e = arcs[at];
        arcs.erase(arcs.begin() + static_cast<std::ptrdiff_t>(at));
        ++deletions;
      } else {
        // Every fifth insertion the previous arc again (already in A when it was inserted).
        e = i % 5 == 4 && last.first != 0 ? last : std::pair{1 + rng() % n, 1 + rng() % n};
        if (i % 7 == 3) e.second = e.first;  // some loops u -> u
        if (std::find(arcs.begin(), arcs.end(), e) == arcs.end()) arcs.push_back(e);
        last = e;
      }
      args.insert(args.end(),
                  {remove ? "d" : "i", std::to_string(e.first), std::to_string(e.second)});
    }
    const BothRuns r = runBoth(c.module, args);
    EXPECT_EQ(r.error[1], "") << "trial " << trial;
    EXPECT_EQ(r.output[1], r.output[0]) << "trial " << trial << ": n = " << n;
    EXPECT_EQ(r.nativeCalls[1], 1u + k) << "trial " << trial;  // CLOSURE, then every update
    EXPECT_EQ(r.nativeCalls[0], 0u);
  }
  EXPECT_GE(deletions, 1000);
}

// The same sequences on a C that is not the closure of A (random bits): the bodies still run their
// steps, and the natives must give their result too, bit for bit, or stop with the same error.
TEST(NativeAgreement, ClosureUpdatesAgreeOnAnyTables) {
  startest::TempDir dir;
  startest::Compiled c = startest::compileWithStdlib(dir, kUpdateDriver, "update.star");
  ASSERT_TRUE(c.ok) << c.diagnostics;
  std::mt19937_64 rng(2029);
  int completed = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const std::uint64_t n = 1 + rng() % 100;
    star::TableData a, cl;
    a.reshape(n, n);
    cl.reshape(n, n);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> arcs;
    std::bernoulli_distribution arc(0.05 + 0.1 * (trial % 4)), bit(0.2 + 0.2 * (trial % 4));
    for (std::uint64_t i = 0; i < n; ++i)
      for (std::uint64_t j = 0; j < n; ++j) {
        if (arc(rng)) {
          a.set(i, j);
          arcs.push_back({i + 1, j + 1});
        }
        if (bit(rng) || a.get(i, j)) cl.set(i, j);  // mostly no error: every arc of A in C
      }
    const std::string fa =
        dir.write("a" + std::to_string(trial) + ".txt", star::formatTableText(a));
    const std::string fc =
        dir.write("c" + std::to_string(trial) + ".txt", star::formatTableText(cl));
    const int k = 12;
    std::vector<std::string> args{fa, fc, std::to_string(k)};
    for (int i = 0; i < k; ++i) {
      // Deletions of arcs of A (now and then of none); insertions anywhere.
      std::pair<std::uint64_t, std::uint64_t> e{1 + rng() % n, 1 + rng() % n};
      const bool remove = rng() % 2 == 0;
      if (remove && !arcs.empty() && rng() % 8 != 0) {
        const std::size_t at = rng() % arcs.size();
        e = arcs[at];
        arcs.erase(arcs.begin() + static_cast<std::ptrdiff_t>(at));
      } else if (!remove && std::find(arcs.begin(), arcs.end(), e) == arcs.end()) {
        arcs.push_back(e);
      }
      args.insert(args.end(),
                  {remove ? "d" : "i", std::to_string(e.first), std::to_string(e.second)});
    }
    const BothRuns r = runBoth(c.module, args);
    EXPECT_EQ(r.output[1], r.output[0]) << "trial " << trial << ": n = " << n;
    EXPECT_EQ(r.error[1], r.error[0]) << "trial " << trial;
    completed += r.error[0].empty();
  }
  EXPECT_GE(completed, 10);  // some sequences run to the end
}

// The cases CLOSURE_INSERT's and CLOSURE_DELETE's bodies report (C not the closure of A, a vertex
// outside 1..n, no arc to delete), and A passed as C, run the body: the same message or the same
// result with natives on and off. Args: the table file, the case, u, v.
const char* kInsertCasesDriver = R"(program InsertCases;
uses graphs, dynpaths;
var A, C: table; CV: slice; u, v: integer;
begin
  LOAD(A, ParamStr(1));
  u := StrToInt(ParamStr(3)); v := StrToInt(ParamStr(4));
  C := A;
  CLOSURE(C);
  if (ParamStr(2) = 'not-closure') or (ParamStr(2) = 'delete-not-closure') then
  begin CV := COL(v, C); CV(u) := 0; COL(v, C) := CV end;
  if ParamStr(2) = 'aliased' then CLOSURE_INSERT(A, A, u, v)
  else if ParamStr(2) = 'delete-aliased' then CLOSURE_DELETE(A, A, u, v)
  else if (ParamStr(2) = 'delete') or (ParamStr(2) = 'delete-not-closure') then CLOSURE_DELETE(A, C, u, v)
  else CLOSURE_INSERT(A, C, u, v);
  writeln(A);
  writeln(C)
end.
)";

TEST(NativeAgreement, ClosureUpdateErrorsComeFromTheBody) {
  startest::TempDir dir;
  startest::Compiled c = startest::compileWithStdlib(dir, kInsertCasesDriver, "cases.star");
  ASSERT_TRUE(c.ok) << c.diagnostics;
  const std::string file = dir.write("a.txt", "0100\n0010\n0000\n1000\n");
  struct Case {
    const char* name;
    const char* u;
    const char* v;
    const char* error;  // or nullptr: both runs print the same tables
  };
  const Case cases[] = {
      {"not-closure", "1", "2",
       "CLOSURE_INSERT: C is not the closure of A: the arc u -> v is missing from it"},
      {"plain", "0", "2", "CLOSURE_INSERT: the tail u is not a vertex (1..n)"},
      {"plain", "1", "5", "CLOSURE_INSERT: the head v is not a vertex (1..n)"},
      {"aliased", "3", "4", nullptr},
      {"plain", "3", "4", nullptr},
      {"delete", "1", "3", "CLOSURE_DELETE: there is no arc u -> v in A"},
      {"delete-not-closure", "1", "2",
       "CLOSURE_DELETE: C is not the closure of A: the arc u -> v is missing from it"},
      {"delete", "5", "1", "CLOSURE_DELETE: the tail u is not a vertex (1..n)"},
      {"delete-aliased", "1", "2", nullptr},
      {"delete", "2", "3", nullptr},
  };
  for (const Case& k : cases) {
    std::string outputs[2];
    for (bool natives : {true, false}) {
      startest::Vm vm;
      vm.interp.enableNatives(natives);
      startest::RunResult r = vm.run(c.module, {file, k.name, k.u, k.v});
      if (k.error) {
        ASSERT_TRUE(r.error) << k.name << " " << k.u << " " << k.v;
        EXPECT_EQ(*r.error, k.error);
      } else {
        ASSERT_FALSE(r.error) << *r.error;
      }
      outputs[natives] = r.output;
    }
    EXPECT_EQ(outputs[0], outputs[1]) << k.name << " " << k.u << " " << k.v;
  }
}

}  // namespace
