// stdlib/assoc.star against a straightforward C++ computation on the numbers: a Star program
// that uses the unit runs every procedure (MATCH, LESSP, GREATP, EQUALP, MINROW, MAXROW, the
// field versions, LESST/EQUALT/GREATT, ADDW, SUBW, ADDWF, SUBWF, ADDT, SUBT2, HIT) on random
// tables through the compiler and the VM on the CPU backend, and its output is compared line by
// line with the expected one. The tables (fixed seeds) have 1..300 rows, always including 1, 63,
// 64 and 65 rows, and 1..40 columns; they mix uniform values, a few repeated values (ties),
// constant columns, control slices that are full, empty, sparse or random, and patterns taken
// from the table, 0 or all ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/unit/support/StarTestUtil.h"

namespace star {
namespace {

// Runs every procedure once. Arguments: the files of T, B (the shape of T), R (the columns of
// T), X (ROWS(T) x 1), Y (ROWS(R) x 1); the pattern v (a number < 2^COLS(T)); a field
// first, len and a field pattern fv (< 2^len).
const char* kProgram = R"(program AssocOracle;
uses assoc;
var T, B, R, XT, YT, C: table; X, Y, Z: slice; v, fv: word; first, len: integer;

proc ShowTable(name: string; var T: table);
var i: integer;
begin
  write(name);
  for i := 1 to ROWS(T) do begin write(' '); write(ROW(i, T)) end;
  writeln
end;

begin
  LOAD(T, ParamStr(1)); LOAD(B, ParamStr(2)); LOAD(R, ParamStr(3));
  LOAD(XT, ParamStr(4)); LOAD(YT, ParamStr(5));
  X := COL(1, XT); Y := COL(1, YT);
  v := BIN(StrToInt(ParamStr(6)), COLS(T));
  first := StrToInt(ParamStr(7)); len := StrToInt(ParamStr(8));
  fv := BIN(StrToInt(ParamStr(9)), len);
  MATCH(T, X, v, Z);   writeln('MATCH ', Z);
  LESSP(T, X, v, Z);   writeln('LESSP ', Z);
  GREATP(T, X, v, Z);  writeln('GREATP ', Z);
  EQUALP(T, X, v, Z);  writeln('EQUALP ', Z);
  MINROW(T, X, Z);     writeln('MINROW ', Z);
  MAXROW(T, X, Z);     writeln('MAXROW ', Z);
  MATCHF(T, X, first, fv, Z);   writeln('MATCHF ', Z);
  LESSPF(T, X, first, fv, Z);   writeln('LESSPF ', Z);
  GREATPF(T, X, first, fv, Z);  writeln('GREATPF ', Z);
  EQUALPF(T, X, first, fv, Z);  writeln('EQUALPF ', Z);
  MINROWF(T, X, first, len, Z); writeln('MINROWF ', Z);
  MAXROWF(T, X, first, len, Z); writeln('MAXROWF ', Z);
  LESST(T, B, X, Z);   writeln('LESST ', Z);
  EQUALT(T, B, X, Z);  writeln('EQUALT ', Z);
  GREATT(T, B, X, Z);  writeln('GREATT ', Z);
  HIT(T, R, X, Y, Z);  writeln('HIT ', Z);
  C := T; ADDW(C, X, v);          ShowTable('ADDW', C);
  C := T; SUBW(C, X, v);          ShowTable('SUBW', C);
  C := T; ADDWF(C, X, first, fv); ShowTable('ADDWF', C);
  C := T; SUBWF(C, X, first, fv); ShowTable('SUBWF', C);
  ADDT(T, B, X, C);  ShowTable('ADDT', C);
  SUBT2(T, B, X, C); ShowTable('SUBT2', C);
  ShowTable('T', T);
  writeln('X ', X, ' Y ', Y)
end.
)";

using Rows = std::vector<std::uint64_t>;  // one k-bit number per row
using Bits = std::vector<bool>;

std::string bitsText(const Bits& b) {
  std::string s;
  for (bool x : b) s += x ? '1' : '0';
  return s;
}

// The k-bit binary form of x, most significant bit first (column 1).
std::string word(std::uint64_t x, int k) {
  std::string s;
  for (int j = 1; j <= k; ++j) s += ((x >> (k - j)) & 1) ? '1' : '0';
  return s;
}

std::string tableText(const Rows& t, int k) {
  std::string s;
  for (auto x : t) s += word(x, k) + "\n";
  return s;
}

std::string sliceFile(const Bits& b) {
  std::string s;
  for (bool x : b) s += x ? "1\n" : "0\n";
  return s;
}

std::uint64_t mask(int k) { return k >= 64 ? ~0ull : (1ull << k) - 1; }

struct Case {
  int n = 0, k = 0;
  Rows t, b, r;
  Bits x, y;
  std::uint64_t v = 0;
  int first = 1, len = 1;
  std::uint64_t fv = 0;

  // The field first..first+len-1 of a row, as a number.
  std::uint64_t field(std::uint64_t row) const {
    return (row >> (k - (first + len - 1))) & mask(len);
  }
  std::uint64_t withField(std::uint64_t row, std::uint64_t f) const {
    int shift = k - (first + len - 1);
    return (row & ~(mask(len) << shift)) | ((f & mask(len)) << shift);
  }
};

Bits randomControl(std::mt19937_64& rng, int n) {
  Bits x(n, false);
  switch (rng() % 5) {
    case 0: x.assign(n, true); break;   // every row
    case 1: break;                      // no row
    case 2: x[rng() % n] = true; break; // one row
    case 3:                             // a few rows
      for (int i = 0; i < n; ++i) x[i] = rng() % 16 == 0;
      break;
    default:
      for (int i = 0; i < n; ++i) x[i] = rng() % 2;
  }
  return x;
}

Case makeCase(std::uint64_t seed, int n) {
  std::mt19937_64 rng(seed);
  Case c;
  c.n = n;
  c.k = 1 + static_cast<int>(rng() % 40);
  if (seed % 7 == 0) c.k = 40;
  if (seed % 11 == 0) c.k = 1;
  const std::uint64_t m = mask(c.k);
  // T: uniform, from a small pool (many ties), or with constant columns.
  int mode = static_cast<int>(rng() % 3);
  Rows pool;
  for (int i = 0; i < 4; ++i) pool.push_back(rng() & m);
  std::uint64_t zeros = rng() & rng() & m, ones = rng() & rng() & m;  // forced columns
  for (int i = 0; i < n; ++i) {
    std::uint64_t x = rng() & m;
    if (mode == 1) x = pool[rng() % pool.size()];
    if (mode == 2) x = (x & ~zeros) | ones;
    c.t.push_back(x);
  }
  // B: random, or equal to T in about a third of the rows, or one more / less.
  for (int i = 0; i < n; ++i) {
    std::uint64_t x = rng() & m;
    switch (rng() % 4) {
      case 0: x = c.t[i]; break;
      case 1: x = (c.t[i] + 1) & m; break;
      case 2: x = (c.t[i] - 1) & m; break;
      default: break;
    }
    c.b.push_back(x);
  }
  // R: 1..50 rows, half of them rows of T.
  int rn = 1 + static_cast<int>(rng() % 50);
  for (int i = 0; i < rn; ++i)
    c.r.push_back(rng() % 2 ? c.t[rng() % n] : (rng() & m));
  c.x = randomControl(rng, n);
  c.y = randomControl(rng, rn);
  switch (rng() % 4) {
    case 0: c.v = c.t[rng() % n]; break;
    case 1: c.v = 0; break;
    case 2: c.v = m; break;
    default: c.v = rng() & m;
  }
  c.first = 1 + static_cast<int>(rng() % c.k);
  c.len = 1 + static_cast<int>(rng() % (c.k - c.first + 1));
  c.fv = rng() % 2 ? c.field(c.t[rng() % n]) : (rng() & mask(c.len));
  return c;
}

// The expected output of kProgram, line by line.
std::vector<std::string> expected(const Case& c) {
  std::vector<std::string> out;
  const int n = c.n;
  const std::uint64_t m = mask(c.k);
  auto slice = [&](const std::string& name, auto pred) {
    Bits z(n);
    for (int i = 0; i < n; ++i) z[i] = c.x[i] && pred(i);
    out.push_back(name + " " + bitsText(z));
  };
  auto table = [&](const std::string& name, auto value) {
    std::string s = name;
    for (int i = 0; i < n; ++i) s += " " + word(c.x[i] ? value(i) & m : c.t[i], c.k);
    out.push_back(s);
  };
  // The extreme of `key` over the marked rows (every row holding it).
  auto extreme = [&](const std::string& name, auto key, bool wantMax) {
    bool any = false;
    std::uint64_t best = 0;
    for (int i = 0; i < n; ++i)
      if (c.x[i] && (!any || (wantMax ? key(i) > best : key(i) < best))) {
        best = key(i);
        any = true;
      }
    slice(name, [&](int i) { return key(i) == best; });
  };
  auto val = [&](int i) { return c.t[i]; };
  auto fld = [&](int i) { return c.field(c.t[i]); };
  slice("MATCH", [&](int i) { return c.t[i] == c.v; });
  slice("LESSP", [&](int i) { return c.t[i] < c.v; });
  slice("GREATP", [&](int i) { return c.t[i] > c.v; });
  slice("EQUALP", [&](int i) { return c.t[i] == c.v; });
  extreme("MINROW", val, false);
  extreme("MAXROW", val, true);
  slice("MATCHF", [&](int i) { return fld(i) == c.fv; });
  slice("LESSPF", [&](int i) { return fld(i) < c.fv; });
  slice("GREATPF", [&](int i) { return fld(i) > c.fv; });
  slice("EQUALPF", [&](int i) { return fld(i) == c.fv; });
  extreme("MINROWF", fld, false);
  extreme("MAXROWF", fld, true);
  slice("LESST", [&](int i) { return c.t[i] < c.b[i]; });
  slice("EQUALT", [&](int i) { return c.t[i] == c.b[i]; });
  slice("GREATT", [&](int i) { return c.t[i] > c.b[i]; });
  slice("HIT", [&](int i) {
    for (std::size_t j = 0; j < c.r.size(); ++j)
      if (c.y[j] && c.r[j] == c.t[i]) return true;
    return false;
  });
  table("ADDW", [&](int i) { return c.t[i] + c.v; });
  table("SUBW", [&](int i) { return c.t[i] - c.v; });
  table("ADDWF", [&](int i) { return c.withField(c.t[i], fld(i) + c.fv); });
  table("SUBWF", [&](int i) { return c.withField(c.t[i], fld(i) - c.fv); });
  table("ADDT", [&](int i) { return c.t[i] + c.b[i]; });
  table("SUBT2", [&](int i) { return c.t[i] - c.b[i]; });
  {
    std::string s = "T";
    for (int i = 0; i < n; ++i) s += " " + word(c.t[i], c.k);
    out.push_back(s);
  }
  out.push_back("X " + bitsText(c.x) + " Y " + bitsText(c.y));
  return out;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

std::vector<std::string> tokens(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  std::string t;
  while (in >> t) out.push_back(t);
  return out;
}

// Where two output lines first differ: the procedure, and the row (of a slice) or the row and
// column (of a table).
std::string firstDifference(const std::string& want, const std::string& got) {
  std::vector<std::string> a = tokens(want), b = tokens(got);
  if (b.empty() || a[0] != b[0]) return "another line";
  const bool isSlice = a.size() == 2;
  for (std::size_t t = 1; t < a.size(); ++t) {
    if (t >= b.size()) return a[0] + ": too few rows";
    if (a[t] == b[t]) continue;
    if (a[t].size() != b[t].size()) return a[0] + ": a word of another length";
    std::size_t j = 0;
    while (a[t][j] == b[t][j]) ++j;
    return a[0] + ": " + (isSlice ? "row " + std::to_string(j + 1)
                                  : "row " + std::to_string(t) + ", column " + std::to_string(j + 1));
  }
  return a[0] + ": too many rows";
}

std::string describe(const Case& c, std::uint64_t seed) {
  std::ostringstream s;
  s << "seed " << seed << ": " << c.n << " rows x " << c.k << " columns, " << c.r.size()
    << " rows in R, v = " << c.v << ", field " << c.first << ".." << c.first + c.len - 1
    << " = " << c.fv << ", X = " << bitsText(c.x) << ", Y = " << bitsText(c.y);
  return s.str();
}

class StdlibAssoc : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ostringstream diags;
    CompileOptions options;
    options.modulePath.push_back(startest::sourceDir() + "/stdlib");
    options.warnUnused = false;
    Compilation comp(diags, options);
    ASSERT_TRUE(comp.compileFile(dir.write("oracle.star", kProgram))) << diags.str();
    module = comp.takeModule();
    compiled = true;
  }

  // Runs the program on one case; returns false (after reporting) on a mismatch.
  bool check(const Case& c, std::uint64_t seed) {
    std::vector<std::string> args = {
        dir.write("t.txt", tableText(c.t, c.k)), dir.write("b.txt", tableText(c.b, c.k)),
        dir.write("r.txt", tableText(c.r, c.k)), dir.write("x.txt", sliceFile(c.x)),
        dir.write("y.txt", sliceFile(c.y)),      std::to_string(c.v),
        std::to_string(c.first),                 std::to_string(c.len),
        std::to_string(c.fv)};
    startest::Vm vm;
    startest::RunResult r = vm.run(module, args);
    if (r.error) {
      ADD_FAILURE() << describe(c, seed) << "\nruntime error: " << *r.error;
      return false;
    }
    std::vector<std::string> got = lines(r.output), want = expected(c);
    for (std::size_t i = 0; i < want.size(); ++i) {
      std::string g = i < got.size() ? got[i] : "(missing)";
      if (g != want[i]) {
        ADD_FAILURE() << describe(c, seed) << "\nline " << i + 1 << ": " << firstDifference(want[i], g)
                      << "\n  expected: " << want[i] << "\n  actual:   " << g;
        return false;
      }
    }
    EXPECT_EQ(got.size(), want.size()) << describe(c, seed);
    return true;
  }

  // Runs `count` cases with seeds base, base+1, ...; `rows` picks the row count of a case.
  template <class RowsOf>
  void runCases(std::uint64_t base, int count, RowsOf rows) {
    ASSERT_TRUE(compiled);
    int failures = 0;
    for (int i = 0; i < count && failures < 5; ++i) {
      std::uint64_t seed = base + static_cast<std::uint64_t>(i);
      if (!check(makeCase(seed, rows(seed)), seed)) ++failures;
    }
  }

  startest::TempDir dir;
  Module module;
  bool compiled = false;
};

// The sizes around a 64-bit word of the CPU backend's slices, and a single row.
TEST_F(StdlibAssoc, WordBoundaryRowCounts) {
  const int sizes[] = {1, 63, 64, 65};
  runCases(1000, 80, [&](std::uint64_t seed) { return sizes[seed % 4]; });
}

TEST_F(StdlibAssoc, RandomRowCounts) {
  runCases(2000, 160, [](std::uint64_t seed) {
    std::mt19937_64 rng(seed * 7919 + 1);
    return 1 + static_cast<int>(rng() % 300);
  });
}

TEST_F(StdlibAssoc, LargeTables) {
  runCases(3000, 20, [](std::uint64_t seed) { return 280 + static_cast<int>(seed % 21); });
}

// The generator itself: the cases do cover ties, hits, equal rows and the extreme patterns.
TEST(StdlibAssocCases, CoverTheInterestingCases) {
  int ties = 0, hits = 0, equalRows = 0, emptyX = 0, fullX = 0, zeroV = 0, k1 = 0, k40 = 0;
  for (std::uint64_t seed = 2000; seed < 2160; ++seed) {
    Case c = makeCase(seed, 100);
    std::vector<std::string> e = expected(c);
    int minCount = 0;
    for (char ch : e[4].substr(7)) minCount += ch == '1';
    ties += minCount > 1;
    hits += e[15].find('1') != std::string::npos;
    equalRows += e[13].find('1') != std::string::npos;
    emptyX += std::count(c.x.begin(), c.x.end(), true) == 0;
    fullX += std::count(c.x.begin(), c.x.end(), true) == c.n;
    zeroV += c.v == 0;
    k1 += c.k == 1;
    k40 += c.k == 40;
  }
  EXPECT_GT(ties, 10);
  EXPECT_GT(hits, 30);
  EXPECT_GT(equalRows, 30);
  EXPECT_GT(emptyX, 10);
  EXPECT_GT(fullX, 10);
  EXPECT_GT(zeroV, 10);
  EXPECT_GT(k1, 5);
  EXPECT_GT(k40, 5);
}

}  // namespace
}  // namespace star
