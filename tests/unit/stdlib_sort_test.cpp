// stdlib/sort.star (SORT, SEGSORT, GROUPHEADS) against std::stable_sort in C++. A Star program
// that uses the unit sorts random tables (written in the LOAD text format) and prints them; the
// expected table is computed here from the numbers the key fields hold: unsigned and signed
// integers compared as integers, floats by an IEEE totalOrder written on the values (not on the
// bit transform the implementations use). Every case runs twice, with natives (the native must
// have run) and with natives disabled (the Star body). The backend is startest::Vm's.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/unit/support/StarTestUtil.h"
#include "vm/backend/NativeKernels.h"

namespace {

// Args: table file, X file, H file (one-column tables), first, len, kind, descending (0/1),
// mode (0 SORT, 1 SEGSORT). Prints T, then X and H (value parameters: unchanged).
const char* kDriver = R"(program SortOracle;
uses sort;
var T, XT, HT: table; X, H: slice; first, len, kind, mode: integer; desc: boolean;
begin
  LOAD(T, ParamStr(1)); LOAD(XT, ParamStr(2)); LOAD(HT, ParamStr(3));
  X := COL(1, XT); H := COL(1, HT);
  first := StrToInt(ParamStr(4)); len := StrToInt(ParamStr(5)); kind := StrToInt(ParamStr(6));
  desc := ParamStr(7) = '1'; mode := StrToInt(ParamStr(8));
  if mode = 0 then SORT(T, X, first, len, kind, desc)
  else SEGSORT(T, X, H, first, len, kind, desc);
  writeln(T);
  writeln('X ', X);
  writeln('H ', H)
end.
)";

// Args: table file, first, len. Prints GROUPHEADS' slice.
const char* kHeadsDriver = R"(program HeadsOracle;
uses sort;
var T: table; H: slice;
begin
  LOAD(T, ParamStr(1));
  GROUPHEADS(T, StrToInt(ParamStr(2)), StrToInt(ParamStr(3)), H);
  writeln(H)
end.
)";

// The source tree's stdlib/: under $STAR_SOURCE_DIR when set (tests carried to another machine
// by scripts/device-tests.sh), else in the tree the test was built from.
// ---------------------------------------------------------------- the oracle

// A fixed underlying type: the bad-argument test passes kinds outside 0..2 through it.
enum Kind : int { Unsigned = 0, Signed = 1, Float = 2 };

std::uint64_t mask(int len) {
  return len >= 64 ? ~0ull : (1ull << len) - 1;
}

// a < b for len-bit fields read as `kind`.
bool keyLess(std::uint64_t a, std::uint64_t b, int len, Kind kind) {
  const std::uint64_t sign = 1ull << (len - 1);
  if (kind == Unsigned) return a < b;
  if (kind == Signed) {
    auto value = [&](std::uint64_t v) {
      return static_cast<std::int64_t>(v & sign ? v | ~mask(len) : v);  // sign-extended
    };
    return value(a) < value(b);
  }
  // IEEE totalOrder: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN; NaNs of one sign by
  // payload (the larger payload further from zero).
  auto value = [&](std::uint64_t v) {
    return len == 64 ? std::bit_cast<double>(v)
                     : static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(v)));
  };
  const double x = value(a), y = value(b);
  const bool na = std::isnan(x), nb = std::isnan(y);
  const bool sa = (a & sign) != 0, sb = (b & sign) != 0;
  if (na && nb) {
    if (sa != sb) return sa;
    const std::uint64_t pa = a & (sign - 1), pb = b & (sign - 1);
    return sa ? pa > pb : pa < pb;
  }
  if (na) return sa;
  if (nb) return !sb;
  if (x != y) return x < y;
  return std::signbit(x) && !std::signbit(y);  // -0 < +0
}

using Rows = std::vector<std::string>;  // one '0'/'1' string per row, column 1 first
using Bits = std::vector<bool>;

std::uint64_t fieldOf(const std::string& row, int first, int len) {
  std::uint64_t v = 0;
  for (int j = 0; j < len; ++j) v = (v << 1) | (row[first - 1 + j] == '1');
  return v;
}

// The expected table: within each group, the marked rows in stable key order go to the marked
// positions from the top.
Rows expectedSort(const Rows& t, const Bits& x, const Bits& heads, bool segmented, int first,
                  int len, Kind kind, bool descending) {
  Rows out = t;
  const std::size_t n = t.size();
  std::size_t begin = 0;
  while (begin < n) {
    std::size_t end = begin + 1;
    if (segmented)
      while (end < n && !heads[end]) ++end;
    else
      end = n;
    std::vector<std::size_t> marked;
    for (std::size_t i = begin; i < end; ++i)
      if (x[i]) marked.push_back(i);
    std::vector<std::size_t> order = marked;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
      const std::uint64_t a = fieldOf(t[i], first, len), b = fieldOf(t[j], first, len);
      return descending ? keyLess(b, a, len, kind) : keyLess(a, b, len, kind);
    });
    for (std::size_t k = 0; k < marked.size(); ++k) out[marked[k]] = t[order[k]];
    begin = end;
  }
  return out;
}

// ---------------------------------------------------------------- random cases

std::string bitsOf(std::uint64_t v, int len) {
  std::string s;
  for (int j = len - 1; j >= 0; --j) s += ((v >> j) & 1) ? '1' : '0';
  return s;
}

// Float bit patterns that sorting must tell apart: zeros, infinities, NaNs of both signs
// (quiet, signalling, with payloads), subnormals, extremes, ordinary numbers.
std::vector<std::uint64_t> floatSpecials(int len) {
  if (len == 64)
    return {0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000,
            0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0xfff0000000000001,
            0x7ff80000000abcde, 0xfff8000000000123, 0x0000000000000001, 0x8000000000000001,
            0x000fffffffffffff, 0x800fffffffffffff, 0x0010000000000000, 0x8010000000000000,
            0x7fefffffffffffff, 0xffefffffffffffff, 0x3ff0000000000000, 0xbff0000000000000,
            0x3ff0000000000001, 0xbff0000000000001};
  return {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
          0x7f800001, 0xff800001, 0x7fc0abcd, 0xffc00123, 0x00000001, 0x80000001,
          0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff,
          0x3f800000, 0xbf800000, 0x3f800001, 0xbf800001};
}

// A random key of `len` bits: uniform bits, a special value (floats; signed extremes), or a
// random ordinary number.
std::uint64_t randomKey(std::mt19937_64& rng, int len, Kind kind) {
  if (kind == Float) {
    const auto specials = floatSpecials(len);
    if (rng() % 3 == 0) return specials[rng() % specials.size()];
    if (rng() % 2 == 0) {  // an ordinary number near 0
      const double d = std::ldexp(static_cast<double>(rng() % 2000) - 1000.0, -(int)(rng() % 8));
      return len == 64 ? std::bit_cast<std::uint64_t>(d)
                       : std::bit_cast<std::uint32_t>(static_cast<float>(d));
    }
    return rng() & mask(len);
  }
  if (kind == Signed && rng() % 4 == 0) {
    const std::uint64_t extremes[] = {0, mask(len), 1ull << (len - 1), mask(len - 1), 1};
    return extremes[rng() % 5] & mask(len);
  }
  return rng() & mask(len);
}

enum Shape { Uniform, FewValues, AllEqual, Ascending, Descending, kShapes };

std::vector<std::uint64_t> randomKeys(std::mt19937_64& rng, std::size_t n, int len, Kind kind,
                                      Shape shape) {
  std::vector<std::uint64_t> keys(n);
  std::vector<std::uint64_t> pool;
  for (int i = 0; i < 3; ++i) pool.push_back(randomKey(rng, len, kind));
  for (auto& k : keys) {
    switch (shape) {
      case FewValues:
        k = pool[rng() % pool.size()];
        break;
      case AllEqual:
        k = pool[0];
        break;
      default:
        k = randomKey(rng, len, kind);
    }
  }
  if (shape == Ascending || shape == Descending) {
    std::stable_sort(keys.begin(), keys.end(),
                     [&](std::uint64_t a, std::uint64_t b) { return keyLess(a, b, len, kind); });
    if (shape == Descending) std::reverse(keys.begin(), keys.end());
  }
  return keys;
}

enum XMode { Full, Empty, Partial, Sparse, kXModes };

Bits randomControl(std::mt19937_64& rng, std::size_t n, XMode mode) {
  Bits x(n, mode == Full);
  if (mode == Partial)
    for (std::size_t i = 0; i < n; ++i) x[i] = rng() % 3 != 0;
  if (mode == Sparse)
    for (std::size_t i = 0; i < n; ++i) x[i] = rng() % 10 == 0;
  return x;
}

enum HMode { OneGroup, RowOneOnly, Singletons, FewHeads, ManyHeads, Runs, kHModes };

Bits randomHeads(std::mt19937_64& rng, std::size_t n, HMode mode) {
  Bits h(n, mode == Singletons);
  switch (mode) {
    case RowOneOnly:
      h[0] = true;
      break;
    case FewHeads:
      for (std::size_t i = 0; i < n; ++i) h[i] = rng() % 40 == 0;
      break;
    case ManyHeads:
      for (std::size_t i = 0; i < n; ++i) h[i] = rng() % 3 == 0;
      break;
    case Runs:  // groups of 1..70 rows
      for (std::size_t i = 0; i < n; i += 1 + rng() % 70) h[i] = true;
      break;
    default:
      break;
  }
  return h;
}

struct Case {
  Rows t;
  Bits x, h;
  int first = 1, len = 1;
  Kind kind = Unsigned;
  bool descending = false, segmented = false;
};

// A table of n rows: `pre` payload columns, the key field, `post` payload columns.
Case makeCase(std::mt19937_64& rng, std::size_t n, Kind kind, int len, Shape shape, XMode xmode,
              bool descending) {
  Case c;
  c.kind = kind;
  c.len = len;
  c.descending = descending;
  const int pre = rng() % 3 == 0 ? 0 : static_cast<int>(rng() % 70);
  const int post = rng() % 3 == 0 ? 0 : static_cast<int>(rng() % 70);
  c.first = pre + 1;
  const auto keys = randomKeys(rng, n, len, kind, shape);
  for (std::size_t i = 0; i < n; ++i) {
    std::string row;
    for (int j = 0; j < pre; ++j) row += rng() % 2 ? '1' : '0';
    row += bitsOf(keys[i], len);
    for (int j = 0; j < post; ++j) row += rng() % 2 ? '1' : '0';
    c.t.push_back(row);
  }
  c.x = randomControl(rng, n, xmode);
  c.h.assign(n, false);
  return c;
}

int randomLen(std::mt19937_64& rng, Kind kind) {
  if (kind == Float) return rng() % 2 ? 64 : 32;
  const int edges[] = {1, 2, 63, 64};
  return rng() % 3 == 0 ? edges[rng() % 4] : 1 + static_cast<int>(rng() % 64);
}

std::string tableText(const Rows& t) {
  std::string s;
  for (const auto& r : t) s += r + "\n";
  return s;
}

std::string bitsText(const Bits& b) {
  std::string s;
  for (bool v : b) s += v ? '1' : '0';
  return s;
}

std::string columnText(const Bits& b) {
  std::string s;
  for (bool v : b) s += v ? "1\n" : "0\n";
  return s;
}

std::string expectedOutput(const Case& c) {
  Rows e = expectedSort(c.t, c.x, c.h, c.segmented, c.first, c.len, c.kind, c.descending);
  std::string s;
  for (std::size_t i = 0; i < e.size(); ++i) s += e[i] + (i + 1 < e.size() ? "\n" : "");
  return s + "\nX " + bitsText(c.x) + "\nH " + bitsText(c.h) + "\n";
}

// "" when the texts are equal, else the first line where they differ (the tables can be large).
std::string firstDifference(const std::string& got, const std::string& want) {
  if (got == want) return "";
  std::istringstream g(got), w(want);
  std::string a, b;
  for (int line = 1;; ++line) {
    const bool ga = static_cast<bool>(std::getline(g, a)),
               wb = static_cast<bool>(std::getline(w, b));
    if (!ga || !wb || a != b)
      return "line " + std::to_string(line) + ": got '" + (ga ? a : "<end>") + "', expected '" +
             (wb ? b : "<end>") + "'";
  }
}

std::string describe(const Case& c) {
  return std::to_string(c.t.size()) + " x " + std::to_string(c.t.empty() ? 0 : c.t[0].size()) +
         ", field " + std::to_string(c.first) + "+" + std::to_string(c.len) + ", kind " +
         std::to_string(c.kind) + (c.descending ? ", descending" : "") +
         (c.segmented ? ", SEGSORT" : ", SORT") + ", " +
         std::to_string(std::count(c.x.begin(), c.x.end(), true)) + " marked";
}

class SortOracle : public ::testing::Test {
 protected:
  void SetUp() override {
    compiled_ = startest::compileWithStdlib(dir_, kDriver, "sort_oracle.star");
    ASSERT_TRUE(compiled_.ok) << compiled_.diagnostics;
  }

  std::vector<std::string> args(const Case& c) {
    return {dir_.write("t.txt", tableText(c.t)),
            dir_.write("x.txt", columnText(c.x)),
            dir_.write("h.txt", columnText(c.h)),
            std::to_string(c.first),
            std::to_string(c.len),
            std::to_string(c.kind),
            c.descending ? "1" : "0",
            c.segmented ? "1" : "0"};
  }

  // Runs the case with natives on and off; both must print the expected table.
  void check(const Case& c) {
    const std::string want = expectedOutput(c);
    const auto a = args(c);
    for (bool natives : {true, false}) {
      startest::Vm vm;
      vm.interp.enableNatives(natives);
      startest::RunResult r = vm.run(compiled_.module, a);
      ASSERT_FALSE(r.error) << *r.error << " (" << describe(c) << ")";
      EXPECT_EQ(firstDifference(r.output, want), "")
          << (natives ? "native: " : "body: ") << describe(c);
      // With natives on, the one SORT/SEGSORT call ran natively (had it declined, the body's
      // minimum searches would count too).
      EXPECT_EQ(vm.interp.nativeCalls(), natives ? 1u : 0u) << describe(c);
      ++runs_;
    }
  }

  startest::TempDir dir_;
  startest::Compiled compiled_;
  int runs_ = 0;
};

constexpr std::size_t kSizes[] = {1, 2, 63, 64, 65, 130, 1000};

TEST_F(SortOracle, SortMatchesStableSort) {
  std::mt19937_64 rng(7001);
  int cases = 0;
  // Every key kind (floats of both widths) with every input shape, both directions; sizes and
  // control slices rotate through the lists.
  for (int k = 0; k < 4; ++k) {
    const Kind kind = k == 3 ? Float : static_cast<Kind>(k);
    for (int shape = 0; shape < kShapes; ++shape) {
      for (bool descending : {false, true}) {
        const std::size_t n = kSizes[cases % std::size(kSizes)];
        const XMode xmode = static_cast<XMode>(cases % kXModes);
        int len = randomLen(rng, kind);
        if (kind == Float) len = k == 3 ? 32 : 64;
        check(makeCase(rng, n, kind, len, static_cast<Shape>(shape), xmode, descending));
        ++cases;
        if (HasFatalFailure()) return;
      }
    }
  }
  // Random extra cases, small tables.
  for (int trial = 0; trial < 60; ++trial) {
    const Kind kind = static_cast<Kind>(rng() % 3);
    const std::size_t n = 1 + rng() % 200;
    check(makeCase(rng, n, kind, randomLen(rng, kind), static_cast<Shape>(rng() % kShapes),
                   static_cast<XMode>(rng() % kXModes), rng() % 2));
    if (HasFatalFailure()) return;
  }
  EXPECT_EQ(runs_, 2 * (40 + 60));
}

TEST_F(SortOracle, SegsortMatchesStableSortPerGroup) {
  std::mt19937_64 rng(7002);
  int cases = 0;
  for (int hmode = 0; hmode < kHModes; ++hmode) {
    for (int k = 0; k < 4; ++k) {
      const Kind kind = k == 3 ? Float : static_cast<Kind>(k);
      const std::size_t n = kSizes[cases % std::size(kSizes)];
      const Shape shape = static_cast<Shape>(cases % kShapes);
      const XMode xmode = static_cast<XMode>((cases / 2) % kXModes);
      int len = randomLen(rng, kind);
      if (kind == Float) len = k == 3 ? 32 : 64;
      Case c = makeCase(rng, n, kind, len, shape, xmode, cases % 2 == 1);
      c.segmented = true;
      c.h = randomHeads(rng, n, static_cast<HMode>(hmode));
      check(c);
      ++cases;
      if (HasFatalFailure()) return;
    }
  }
  for (int trial = 0; trial < 40; ++trial) {
    const Kind kind = static_cast<Kind>(rng() % 3);
    const std::size_t n = 1 + rng() % 200;
    Case c = makeCase(rng, n, kind, randomLen(rng, kind), static_cast<Shape>(rng() % kShapes),
                      static_cast<XMode>(rng() % kXModes), rng() % 2);
    c.segmented = true;
    c.h = randomHeads(rng, n, static_cast<HMode>(rng() % kHModes));
    check(c);
    if (HasFatalFailure()) return;
  }
}

// Native and body agree with each other on many small random cases (both also meet the oracle
// above); here the comparison is direct, output against output.
TEST_F(SortOracle, NativeAndBodyAgree) {
  std::mt19937_64 rng(7003);
  for (int trial = 0; trial < 150; ++trial) {
    const Kind kind = static_cast<Kind>(rng() % 3);
    const std::size_t n = 1 + rng() % 130;
    Case c = makeCase(rng, n, kind, randomLen(rng, kind), static_cast<Shape>(rng() % kShapes),
                      static_cast<XMode>(rng() % kXModes), rng() % 2);
    c.segmented = trial % 2 == 1;
    if (c.segmented) c.h = randomHeads(rng, n, static_cast<HMode>(rng() % kHModes));
    const auto a = args(c);
    std::string outputs[2];
    for (int natives = 0; natives < 2; ++natives) {
      startest::Vm vm;
      vm.interp.enableNatives(natives == 1);
      startest::RunResult r = vm.run(compiled_.module, a);
      ASSERT_FALSE(r.error) << *r.error;
      outputs[natives] = r.output;
      EXPECT_EQ(vm.interp.nativeCalls(), natives == 1 ? 1u : 0u);
    }
    EXPECT_EQ(firstDifference(outputs[1], outputs[0]), "")
        << "trial " << trial << ": " << describe(c);
  }
}

// Bad arguments stop the program with the body's error, natives on or off, and the native
// declines (no native call is counted).
TEST_F(SortOracle, BadArgumentsAreRuntimeErrorsFromTheBody) {
  Case c;
  c.t = {"0110", "1010", "0001"};
  c.x = {true, true, true};
  c.h = {true, false, true};
  struct Bad {
    int first, len, kind, mode;
    Bits x, h;
    std::string error;
  };
  const Bits x3{true, true, true}, x2{true, false};
  const std::vector<Bad> bad = {
      {1, 2, 0, 0, x2, x3, "size mismatch: cannot store 2 bits in a variable of 3 bits"},
      {1, 2, 0, 1, x3, x2, "size mismatch: cannot store 2 bits in a variable of 3 bits"},
      {1, 2, 3, 0, x3, x3, "sort: the kind must be 0, 1 or 2"},
      {1, 2, -1, 1, x3, x3, "sort: the kind must be 0, 1 or 2"},
      {1, 0, 0, 0, x3, x3, "sort: a key has 1 to 64 bits"},
      {1, 65, 1, 1, x3, x3, "sort: a key has 1 to 64 bits"},
      {1, 4, 2, 0, x3, x3, "sort: a float key has 32 or 64 bits"},
      {1, 32, 2, 0, x3, x3, "column 32 is out of range 1..4"},
      {0, 2, 0, 0, x3, x3, "column 0 is out of range 1..4"},
      {3, 3, 1, 1, x3, x3, "column 5 is out of range 1..4"},
  };
  for (const Bad& b : bad) {
    Case d = c;
    d.first = b.first;
    d.len = b.len;
    d.kind = static_cast<Kind>(b.kind);
    d.segmented = b.mode == 1;
    d.x = b.x;
    d.h = b.h;
    const auto a = args(d);
    for (bool natives : {true, false}) {
      startest::Vm vm;
      vm.interp.enableNatives(natives);
      startest::RunResult r = vm.run(compiled_.module, a);
      ASSERT_TRUE(r.error) << b.error;
      EXPECT_EQ(*r.error, b.error);
      const std::string& file = compiled_.module.files.at(r.loc.file);
      EXPECT_EQ(file.substr(file.size() - 10), "/sort.star") << file;
      EXPECT_EQ(vm.interp.nativeCalls(), 0u) << b.error;
      EXPECT_EQ(r.output, "");
    }
  }
}

// GROUPHEADS marks row 1 and every row whose field differs from the previous row's.
TEST(SortHeads, GroupHeadsMarksChangesOfTheField) {
  startest::TempDir dir;
  startest::Compiled c = startest::compileWithStdlib(dir, kHeadsDriver, "heads.star");
  ASSERT_TRUE(c.ok) << c.diagnostics;
  std::mt19937_64 rng(7004);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t n = trial < 7 ? kSizes[trial] : 1 + rng() % 150;
    const int cols = 1 + static_cast<int>(rng() % 80);
    const int first = 1 + static_cast<int>(rng() % cols);
    const int len = trial % 10 == 9 ? 0 : static_cast<int>(rng() % (cols - first + 2));
    // Runs of equal fields: each row repeats the previous one's field with probability 1/2.
    Rows t;
    for (std::size_t i = 0; i < n; ++i) {
      std::string row;
      for (int j = 0; j < cols; ++j) row += rng() % 2 ? '1' : '0';
      if (i > 0 && rng() % 2)
        for (int j = first - 1; j < first - 1 + len; ++j) row[j] = t[i - 1][j];
      t.push_back(row);
    }
    std::string want;
    for (std::size_t i = 0; i < n; ++i)
      want += i == 0 || t[i].substr(first - 1, len) != t[i - 1].substr(first - 1, len) ? '1' : '0';
    startest::Vm vm;
    startest::RunResult r = vm.run(
        c.module, {dir.write("t.txt", tableText(t)), std::to_string(first), std::to_string(len)});
    ASSERT_FALSE(r.error) << *r.error;
    EXPECT_EQ(r.output, want + "\n") << "trial " << trial;
  }
  startest::Vm vm;
  startest::RunResult r = vm.run(c.module, {dir.write("t.txt", "0110\n"), "3", "3"});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(*r.error, "column 5 is out of range 1..4");
  r = vm.run(c.module, {dir.write("t.txt", "0110\n"), "1", "-1"});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(*r.error, "GROUPHEADS: len must not be negative");
}

// ---------------------------------------------------------------- large tables, natively

// A row-major table of n rows, `cols` bits each (words of 64 columns, column c at bit c % 64).
struct RowTable {
  std::size_t n = 0, cols = 0, rw = 0;
  std::vector<std::uint64_t> bits;
  bool get(std::size_t i, std::size_t c) const { return (bits[i * rw + c / 64] >> (c % 64)) & 1; }
  std::uint64_t field(std::size_t i, int first, int len) const {  // first 0-based
    std::uint64_t v = 0;
    for (int j = 0; j < len; ++j) v = (v << 1) | get(i, first + j);
    return v;
  }
};

std::vector<std::uint64_t> columnMajor(const RowTable& t) {
  const std::size_t wpc = (t.n + 63) / 64;
  std::vector<std::uint64_t> out(t.cols * wpc, 0);
  for (std::size_t i = 0; i < t.n; ++i)
    for (std::size_t c = 0; c < t.cols; ++c)
      if (t.get(i, c)) out[c * wpc + i / 64] |= 1ull << (i % 64);
  return out;
}

std::vector<std::uint64_t> packBits(const Bits& b) {
  std::vector<std::uint64_t> w((b.size() + 63) / 64, 0);
  for (std::size_t i = 0; i < b.size(); ++i)
    if (b[i]) w[i / 64] |= 1ull << (i % 64);
  return w;
}

// The backend's sortRows / segsortRows on a table of a million rows (a 64-bit key inside 130
// columns): checked against the oracle, and timed for the record.
void checkLarge(bool segmented, Kind kind, int len, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::size_t n = 1000000, cols = 130;
  const int first = 37;  // 0-based; the field crosses a 64-column boundary
  RowTable t{n, cols, (cols + 63) / 64, {}};
  t.bits.resize(n * t.rw);
  std::vector<std::uint64_t> pool;
  for (int i = 0; i < 5000; ++i) pool.push_back(randomKey(rng, len, kind));  // duplicates
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t w = 0; w < t.rw; ++w) t.bits[i * t.rw + w] = rng();
    t.bits[i * t.rw + t.rw - 1] &= mask(static_cast<int>(cols % 64));
    const std::uint64_t key = pool[rng() % pool.size()];
    for (int j = 0; j < len; ++j) {
      const std::size_t c = first + j;
      const std::uint64_t bit = (key >> (len - 1 - j)) & 1;
      t.bits[i * t.rw + c / 64] =
          (t.bits[i * t.rw + c / 64] & ~(1ull << (c % 64))) | bit << (c % 64);
    }
  }
  Bits x(n), h(n, false);
  for (std::size_t i = 0; i < n; ++i) x[i] = rng() % 8 != 0;
  for (std::size_t i = 0; i < n;) {  // groups of 1..3000 rows: both small and radix-sized
    h[i] = true;
    i += 1 + (rng() % 4 == 0 ? rng() % 3000 : rng() % 40);
  }

  startest::Vm vm;
  star::Backend& be = *vm.backend;
  const star::Handle th = be.createTable(), xh = be.createBits(), hh = be.createBits();
  const auto words = columnMajor(t);
  be.writeTable(th, n, cols, words.data());
  const auto xw = packBits(x), hw = packBits(h);
  be.writeBits(xh, n, xw.data());
  be.writeBits(hh, n, hw.data());
  const auto start = std::chrono::steady_clock::now();
  const bool ran = segmented ? be.nativeKernels()->segsortRows(th, xh, hh, first, len, star::KeyKind(kind), false)
                             : be.nativeKernels()->sortRows(th, xh, first, len, star::KeyKind(kind), false);
  std::vector<std::uint64_t> got;
  be.readTable(th, got);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(ran);
  std::printf("[ %s ] %s of %zu x %zu rows by a %d-bit key: %.1f ms (with the read-back)\n",
              be.name().c_str(), segmented ? "SEGSORT" : "SORT", n, cols, len, ms);

  // Expected row order, by the oracle.
  std::vector<std::uint64_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = t.field(i, first, len);
  std::vector<std::size_t> dest(n);
  for (std::size_t i = 0; i < n; ++i) dest[i] = i;
  std::size_t begin = 0;
  while (begin < n) {
    std::size_t end = segmented ? begin + 1 : n;
    while (segmented && end < n && !h[end]) ++end;
    std::vector<std::size_t> marked;
    for (std::size_t i = begin; i < end; ++i)
      if (x[i]) marked.push_back(i);
    std::vector<std::size_t> order = marked;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return keyLess(keys[a], keys[b], len, kind);
    });
    for (std::size_t k = 0; k < marked.size(); ++k) dest[marked[k]] = order[k];
    begin = end;
  }
  RowTable e = t;
  for (std::size_t i = 0; i < n; ++i) std::copy_n(&t.bits[dest[i] * t.rw], t.rw, &e.bits[i * t.rw]);
  const auto want = columnMajor(e);
  ASSERT_EQ(got.size(), want.size());
  EXPECT_TRUE(got == want);
}

TEST(SortLarge, MillionRowSort) {
  checkLarge(false, Unsigned, 64, 7005);
}
TEST(SortLarge, MillionRowSortFloat) {
  checkLarge(false, Float, 64, 7006);
}
TEST(SortLarge, MillionRowSegsortSigned) {
  checkLarge(true, Signed, 41, 7007);
}

}  // namespace
