// Numeric data in tables (vm/io/NumericText.h): layouts, two's complement, reals as text, and
// numeric table files (parsing with every error at file:line:col, formatting, round trips).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "tests/unit/support/TableFileErrorOf.h"
#include "core/HostFloat.h"
#include "vm/io/NumericText.h"

namespace star {
namespace {

using startest::errorOf;

NumLayout layoutOf(const std::string& text) {
  std::string error;
  auto l = parseLayout(text, error);
  EXPECT_TRUE(l.has_value()) << error;
  return l ? *l : NumLayout{};
}

std::string layoutError(const std::string& text) {
  std::string error;
  EXPECT_FALSE(parseLayout(text, error).has_value()) << text;
  return error;
}

// Row r of t as '0'/'1' characters.
std::string rowOf(const TableData& t, std::uint64_t r) {
  std::string s;
  for (std::uint64_t j = 0; j < t.cols; ++j) s += t.get(r, j) ? '1' : '0';
  return s;
}

std::string bits(std::uint64_t v, unsigned k) {
  std::string s;
  for (unsigned b = k; b-- > 0;) s += ((v >> b) & 1) ? '1' : '0';
  return s;
}

// ------------------------------------------------------------------ layouts

TEST(NumericLayout, ParsesKindsAndWidths) {
  NumLayout l = layoutOf("  u8 i16\tf32  F64 U1 i64 ");
  ASSERT_EQ(l.fields.size(), 6u);
  EXPECT_EQ(l.width, 8u + 16 + 32 + 64 + 1 + 64);
  EXPECT_EQ(l.fields[0].kind, FieldKind::Unsigned);
  EXPECT_EQ(l.fields[1].kind, FieldKind::Signed);
  EXPECT_EQ(l.fields[2].kind, FieldKind::F32);
  EXPECT_EQ(l.fields[3].kind, FieldKind::F64);
  EXPECT_EQ(l.fields[4].width, 1u);
  EXPECT_EQ(fieldName(l.fields[1]), "i16");
  EXPECT_EQ(fieldName(l.fields[3]), "f64");
}

TEST(NumericLayout, RejectsBadFields) {
  EXPECT_EQ(layoutError("u8 x3"), "bad layout 'u8 x3': field 2 'x3' is not u1..u64, i1..i64, f32 or f64");
  for (const char* bad : {"u0", "u65", "i0", "i65", "f16", "f0", "u", "u08", "u8x", "8", "u-1", "u8,u8", "u100"})
    EXPECT_NE(layoutError(bad), "") << bad;
  EXPECT_EQ(layoutError(""), "bad layout '': it names no fields (e.g. 'u8 i16 f32 f64')");
  // Quoted with control bytes escaped and long layouts cut (a program's string reaches a terminal).
  EXPECT_EQ(layoutError(" \t"), "bad layout ' \\x09': it names no fields (e.g. 'u8 i16 f32 f64')");
  EXPECT_EQ(layoutError("u8 \x1b[2Jx"),
            "bad layout 'u8 \\x1b[2Jx': field 2 '\\x1b[2Jx' is not u1..u64, i1..i64, f32 or f64");
  EXPECT_EQ(layoutError("u8 " + std::string(1000, 'y')),
            "bad layout 'u8 " + std::string(37, 'y') + "...': field 2 '" + std::string(40, 'y') +
                "...' is not u1..u64, i1..i64, f32 or f64");
  EXPECT_EQ(errorOf([] { parseLayoutOrThrow("f33"); }),
            "bad layout 'f33': field 1 'f33' is not u1..u64, i1..i64, f32 or f64");
}

// ------------------------------------------------------------------ two's complement

TEST(TwosComplement, SignExtendAndFit) {
  EXPECT_EQ(signExtend(0b1111, 4), -1);
  EXPECT_EQ(signExtend(0b1000, 4), -8);
  EXPECT_EQ(signExtend(0b0111, 4), 7);
  EXPECT_EQ(signExtend(1, 1), -1);
  EXPECT_EQ(signExtend(0xF0, 4), 0);  // only the low k bits count
  EXPECT_EQ(signExtend(0x8000000000000000ull, 64), std::numeric_limits<std::int64_t>::min());
  EXPECT_TRUE(fitsSigned(-8, 4));
  EXPECT_TRUE(fitsSigned(7, 4));
  EXPECT_FALSE(fitsSigned(8, 4));
  EXPECT_FALSE(fitsSigned(-9, 4));
  EXPECT_TRUE(fitsSigned(-1, 1));
  EXPECT_FALSE(fitsSigned(1, 1));
  EXPECT_TRUE(fitsSigned(std::numeric_limits<std::int64_t>::min(), 64));
  EXPECT_EQ(lowBits(~0ull, 3), 7u);
  EXPECT_EQ(lowBits(~0ull, 64), ~0ull);
  // Every k-bit pattern maps to a fitting number and back.
  for (unsigned k = 1; k <= 10; ++k)
    for (std::uint64_t p = 0; p < (1u << k); ++p) {
      std::int64_t n = signExtend(p, k);
      EXPECT_TRUE(fitsSigned(n, k));
      EXPECT_EQ(lowBits(static_cast<std::uint64_t>(n), k), p);
    }
}

// ------------------------------------------------------------------ reals as text

TEST(RealText, ParsesDoublesAndFloats) {
  double d = 0;
  EXPECT_EQ(parseDouble("1.5", d), RealParse::Ok);
  EXPECT_EQ(d, 1.5);
  EXPECT_EQ(parseDouble("+2e3", d), RealParse::Ok);
  EXPECT_EQ(d, 2000.0);
  EXPECT_EQ(parseDouble("-0", d), RealParse::Ok);
  EXPECT_TRUE(d == 0 && std::signbit(d));
  EXPECT_EQ(parseDouble("-inf", d), RealParse::Ok);
  EXPECT_TRUE(std::isinf(d) && d < 0);
  EXPECT_EQ(parseDouble("nan", d), RealParse::Ok);
  EXPECT_TRUE(std::isnan(d));
  EXPECT_EQ(parseDouble("5e-324", d), RealParse::Ok);  // the smallest subnormal
  EXPECT_EQ(std::bit_cast<std::uint64_t>(d), 1u);
  EXPECT_EQ(parseDouble("-1e-400", d), RealParse::Ok);  // underflow rounds to -0
  EXPECT_TRUE(d == 0 && std::signbit(d));
  EXPECT_EQ(parseDouble("1e-5000", d), RealParse::Ok);  // beyond even long double
  EXPECT_TRUE(d == 0 && !std::signbit(d));
  EXPECT_EQ(parseDouble("1e400", d), RealParse::OutOfRange);
  EXPECT_EQ(parseDouble("-1e5000", d), RealParse::OutOfRange);
  for (const char* bad : {"", " 1", "1 ", "1e", "abc", "0x10", "--1", "+-1", "1.5.2", "1,5", "+"})
    EXPECT_EQ(parseDouble(bad, d), RealParse::NotANumber) << bad;

  float f = 0;
  EXPECT_EQ(parseFloat("0.1", f), RealParse::Ok);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(f), 0x3DCCCCCDu);
  EXPECT_EQ(parseFloat("3.4028235e38", f), RealParse::Ok);  // FLT_MAX
  EXPECT_EQ(std::bit_cast<std::uint32_t>(f), 0x7F7FFFFFu);
  // Halfway between FLT_MAX and 2^128 is 3.40282357e38: below it rounds to FLT_MAX, above overflows.
  EXPECT_EQ(parseFloat("3.40282356e38", f), RealParse::Ok);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(f), 0x7F7FFFFFu);
  EXPECT_EQ(parseFloat("3.40282358e38", f), RealParse::OutOfRange);
  EXPECT_EQ(parseFloat("3.5e38", f), RealParse::OutOfRange);
  EXPECT_EQ(parseFloat("1e-46", f), RealParse::Ok);  // below half the smallest subnormal
  EXPECT_EQ(std::bit_cast<std::uint32_t>(f), 0u);
  EXPECT_EQ(parseFloat("1.4e-45", f), RealParse::Ok);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(f), 1u);
}

TEST(RealText, ShortestTextRoundTripsEveryNonNanPattern) {
  EXPECT_EQ(shortestText(0.1), "0.1");
  EXPECT_EQ(shortestText(-0.0), "-0");
  EXPECT_EQ(shortestText(1e21), "1e+21");
  EXPECT_EQ(shortestText(0.1f), "0.1");
  EXPECT_EQ(shortestText(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(shortestText(std::nan("")), "nan");
  EXPECT_EQ(shortestText(-std::nan("")), "-nan");
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    std::uint64_t p = rng();
    double x = std::bit_cast<double>(p);
    if (std::isnan(x)) continue;
    double back = 0;
    ASSERT_EQ(parseDouble(shortestText(x), back), RealParse::Ok) << shortestText(x);
    ASSERT_EQ(std::bit_cast<std::uint64_t>(back), p) << shortestText(x);
    auto q = static_cast<std::uint32_t>(p);
    float y = std::bit_cast<float>(q);
    if (std::isnan(y)) continue;
    float yb = 0;
    ASSERT_EQ(parseFloat(shortestText(y), yb), RealParse::Ok) << shortestText(y);
    ASSERT_EQ(std::bit_cast<std::uint32_t>(yb), q) << shortestText(y);
  }
}

// ------------------------------------------------------------------ numeric files

TEST(NumericFile, FieldsAreMostSignificantBitFirst) {
  TableData t = parseNumericText("# comment\n5, -2, 1.0, -2\n\n  \n0x0f -0x8 -0 inf\r\n",
                                 layoutOf("u4 i4 f32 f64"), "d.txt");
  ASSERT_EQ(t.rows, 2u);
  ASSERT_EQ(t.cols, 4u + 4 + 32 + 64);
  EXPECT_EQ(rowOf(t, 0), "0101" "1110" + bits(0x3F800000u, 32) + bits(0xC000000000000000ull, 64));
  EXPECT_EQ(rowOf(t, 1), "1111" "1000" + bits(0x80000000u, 32) + bits(0x7FF0000000000000ull, 64));
}

TEST(NumericFile, ExtremesOfSixtyFourBits) {
  TableData t = parseNumericText("18446744073709551615 -9223372036854775808 9223372036854775807\n",
                                 layoutOf("u64 i64 i64"), "d.txt");
  EXPECT_EQ(rowOf(t, 0), bits(~0ull, 64) + bits(1ull << 63, 64) + bits(~0ull >> 1, 64));
  EXPECT_EQ(formatNumericText(t, layoutOf("u64 i64 i64")),
            "18446744073709551615 -9223372036854775808 9223372036854775807\n");
}

TEST(NumericFile, NoRecordsGiveNoRows) {
  TableData t = parseNumericText("\n# only a comment\n", layoutOf("u8 f64"), "d.txt");
  EXPECT_EQ(t.rows, 0u);
  EXPECT_EQ(t.cols, 72u);
  EXPECT_EQ(formatNumericText(t, layoutOf("u8 f64")), "");
}

TEST(NumericFile, ErrorsNameLineAndColumn) {
  NumLayout l = layoutOf("u8 i8 f32");
  auto err = [&](const std::string& text) { return errorOf([&] { parseNumericText(text, l, "d.txt"); }); };
  EXPECT_EQ(err("1 2 3\n4 300 6\n"), "d.txt:2:3: value 300 does not fit in i8");
  EXPECT_EQ(err("256 0 0\n"), "d.txt:1:1: value 256 does not fit in u8");
  EXPECT_EQ(err("0 -129 0\n"), "d.txt:1:3: value -129 does not fit in i8");
  EXPECT_EQ(err("0 128 0\n"), "d.txt:1:3: value 128 does not fit in i8");
  EXPECT_EQ(err("-1 0 0\n"), "d.txt:1:1: value -1 does not fit in u8");
  EXPECT_EQ(err("0 0 1e39\n"), "d.txt:1:5: value 1e39 does not fit in f32");
  EXPECT_EQ(err("1 2\n"), "d.txt:1:4: expected 3 numbers, found 2");
  EXPECT_EQ(err("1 2 3 4\n"), "d.txt:1:7: expected 3 numbers, found 4");
  EXPECT_EQ(err("1 2.0 3\n"), "d.txt:1:3: expected an integer for field 2 (i8), found '2.0'");
  EXPECT_EQ(err("1 2 x\n"), "d.txt:1:5: expected a number for field 3 (f32), found 'x'");
  EXPECT_EQ(err("1 0x 3\n"), "d.txt:1:3: expected an integer for field 2 (i8), found '0x'");
  EXPECT_EQ(err("1 2 3 # note\n"), "d.txt:1:7: expected 3 numbers, found 5");
  EXPECT_EQ(err(",1 2 3\n"), "d.txt:1:1: missing number before ','");
  EXPECT_EQ(err("1 ,, 2 3\n"), "d.txt:1:4: missing number before ','");
  EXPECT_EQ(err("1, 2, 3,\n"), "d.txt:1:8: missing number after ','");
  EXPECT_EQ(errorOf([] { parseNumericText("99999999999999999999\n", layoutOf("u64"), "d.txt"); }),
            "d.txt:1:1: value 99999999999999999999 does not fit in u64");
  EXPECT_EQ(errorOf([] { readNumericFile("/nonexistent/d.txt", layoutOf("u8")); }),
            "/nonexistent/d.txt: cannot open: No such file or directory");
}

// Random tables under random layouts: formatting then parsing gives the same bits (nan aside,
// whose payload the text does not keep: fields that would hold a nan are made infinite).
TEST(NumericFile, FormatThenParseIsTheIdentity) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 200; ++round) {
    std::string text;
    NumLayout l;
    int nf = 1 + static_cast<int>(rng() % 6);
    for (int i = 0; i < nf; ++i) {
      int kind = static_cast<int>(rng() % 4);
      unsigned k = 1 + static_cast<unsigned>(rng() % 64);
      std::string f = kind == 0 ? "u" + std::to_string(k) : kind == 1 ? "i" + std::to_string(k)
                    : kind == 2 ? "f32" : "f64";
      text += f + " ";
    }
    l = layoutOf(text);
    TableData t;
    std::uint64_t rows = rng() % 70;
    t.reshape(rows, l.width);
    for (std::uint64_t r = 0; r < rows; ++r) {
      std::uint64_t col = 0;
      for (const NumField& f : l.fields) {
        std::uint64_t v = lowBits(rng(), f.width);
        if (rng() % 8 == 0) v = 0;                                      // zeros
        if (rng() % 8 == 0 && f.kind != FieldKind::Unsigned) v = 1ull << (f.width - 1);  // -0, min
        if (f.kind == FieldKind::F32 && std::isnan(std::bit_cast<float>(static_cast<std::uint32_t>(v))))
          v &= ~0x007FFFFFull;
        if (f.kind == FieldKind::F64 && std::isnan(std::bit_cast<double>(v))) v &= ~0x000FFFFFFFFFFFFFull;
        for (unsigned b = 0; b < f.width; ++b)
          if ((v >> (f.width - 1 - b)) & 1) t.set(r, col + b);
        col += f.width;
      }
    }
    std::string out = formatNumericText(t, l);
    TableData back = parseNumericText(out, l, "round.txt");
    ASSERT_EQ(back.rows, t.rows) << text;
    ASSERT_EQ(back.cols, t.cols) << text;
    ASSERT_EQ(back.words, t.words) << text << "\n" << out;
  }
}

// FVAL/FBIN of 32 bits convert by bits (core/HostFloat.h) so that a GPU gives what x86 gives: the
// helpers agree with this machine's own float <-> double conversions (x86 keeps a nan's sign and
// payload) on numbers, infinities, subnormals and nans of both signs, quiet and signaling.
TEST(HostFloat, ConversionsAgreeWithTheHardwareRuleOnEveryClass) {
  std::vector<std::uint32_t> floats = {0x00000000u, 0x80000000u, 0x3F800000u, 0xBDCCCCCDu,
                                       0x00000001u, 0x807FFFFFu, 0x7F800000u, 0xFF800000u,
                                       0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFC00005u,
                                       0x7FBFFFFFu, 0xFF812345u};
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; ++i) floats.push_back(static_cast<std::uint32_t>(rng()));
  for (std::uint32_t b : floats) {
    const double hw = static_cast<double>(std::bit_cast<float>(b));
    EXPECT_EQ(std::bit_cast<std::uint64_t>(floatBitsToReal(b)), std::bit_cast<std::uint64_t>(hw)) << b;
  }
  std::vector<std::uint64_t> reals = {0x0000000000000000ull, 0x8000000000000000ull,
                                      0x3FF0000000000000ull, 0x7FF0000000000000ull,
                                      0x7FF8000000000000ull, 0xFFF8000000000000ull,
                                      0x7FF0000000000001ull, 0xFFF0000020000000ull,
                                      0x47EFFFFFF0000000ull, 0x0000000000000001ull};
  for (int i = 0; i < 20000; ++i) reals.push_back((std::uint64_t{rng()} << 32) | rng());
  for (std::uint64_t b : reals) {
    const float hw = static_cast<float>(std::bit_cast<double>(b));
    EXPECT_EQ(realToFloatBits(std::bit_cast<double>(b)), std::bit_cast<std::uint32_t>(hw)) << b;
  }
}

}  // namespace
}  // namespace star
