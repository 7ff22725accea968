// vm/semantics: the one definition of the scalar operations. Each is checked against an
// independent computation (128-bit integers, IEEE arithmetic, the C library), at the edges where
// the engines used to differ; the portable overflow tests that device code uses are held to the
// compilers' intrinsics; and the opcode table's columns are checked for consistency.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "vm/semantics/ScalarOps.h"

namespace star {
namespace {

using I64 = std::int64_t;
using U64 = std::uint64_t;
__extension__ typedef __int128 Wide;
constexpr I64 kMin = std::numeric_limits<I64>::min(), kMax = std::numeric_limits<I64>::max();

std::vector<I64> edgeIntegers() {
  std::vector<I64> v = {0, 1, -1, 2, -2, 3, -3, 7, -7, kMin, kMax, kMin + 1, kMax - 1,
                        I64{1} << 31, -(I64{1} << 31), I64{1} << 32, (I64{1} << 62), -(I64{1} << 62),
                        3037000499, -3037000499, 3037000500, -3037000500};
  std::mt19937_64 rng(26);
  for (int i = 0; i < 200; ++i) v.push_back(static_cast<I64>(rng()) >> (rng() % 64));
  return v;
}

U64 word(I64 x) { return static_cast<U64>(x); }
U64 word(double d) { return std::bit_cast<U64>(d); }

template <Op op>
FaultKind run(U64 x, U64 y, U64& r) { return scalarOp<op>(x, y, r); }

TEST(Semantics, IntegerArithmeticMatchesExactArithmetic) {
  const auto v = edgeIntegers();
  for (I64 x : v)
    for (I64 y : v) {
      const Wide exact[] = {static_cast<Wide>(x) + y, static_cast<Wide>(x) - y,
                                static_cast<Wide>(x) * y};
      U64 r = 0;
      const FaultKind got[] = {run<Op::IADD>(word(x), word(y), r), FaultKind::None, FaultKind::None};
      const U64 sum = r;
      const FaultKind sub = run<Op::ISUB>(word(x), word(y), r);
      const U64 diff = r;
      const FaultKind mul = run<Op::IMUL>(word(x), word(y), r);
      const U64 prod = r;
      const FaultKind faults[] = {got[0], sub, mul};
      const U64 results[] = {sum, diff, prod};
      for (int k = 0; k < 3; ++k) {
        const bool fits = exact[k] >= kMin && exact[k] <= kMax;
        ASSERT_EQ(faults[k], fits ? FaultKind::None : FaultKind::Overflow) << k << ": " << x << ", " << y;
        if (fits) {
          ASSERT_EQ(static_cast<I64>(results[k]), static_cast<I64>(exact[k])) << k << ": " << x << ", " << y;
        }
      }
      // div truncates, mod has the dividend's sign; x = (x div y) * y + x mod y.
      const FaultKind d = run<Op::IDIV>(word(x), word(y), r);
      const I64 q = static_cast<I64>(r);
      const FaultKind m = run<Op::IMOD>(word(x), word(y), r);
      const I64 rem = static_cast<I64>(r);
      if (y == 0) {
        ASSERT_EQ(d, FaultKind::DivisionByZero);
        ASSERT_EQ(m, FaultKind::DivisionByZero);
        continue;
      }
      ASSERT_EQ(m, FaultKind::None);
      ASSERT_TRUE(rem == 0 || (rem < 0) == (x < 0)) << x << " mod " << y;
      if (x == kMin && y == -1) {
        ASSERT_EQ(d, FaultKind::Overflow);
        ASSERT_EQ(rem, 0);
      } else {
        ASSERT_EQ(d, FaultKind::None);
        ASSERT_EQ(static_cast<Wide>(q) * y + rem, static_cast<Wide>(x));
      }
    }
}

TEST(Semantics, NegationAndAbsoluteOverflowOnlyAtTheMinimum) {
  for (I64 x : edgeIntegers()) {
    U64 r = 0;
    ASSERT_EQ(run<Op::INEG>(word(x), 0, r), x == kMin ? FaultKind::Overflow : FaultKind::None);
    if (x != kMin) {
      ASSERT_EQ(static_cast<I64>(r), -x);
    }
    ASSERT_EQ(run<Op::IABS>(word(x), 0, r), x == kMin ? FaultKind::Overflow : FaultKind::None);
    if (x != kMin) {
      ASSERT_EQ(static_cast<I64>(r), x < 0 ? -x : x);
    }
  }
}

// On the host, addOverflows and the others are the compilers' intrinsics (core/CheckedMath.h).
TEST(Semantics, PortableOverflowTestsAgreeWithTheIntrinsics) {
  const auto v = edgeIntegers();
  for (I64 x : v)
    for (I64 y : v) {
      I64 a = 0, b = 0;
      ASSERT_EQ(portable::addOverflows(x, y, a), addOverflows(x, y, b)) << x << " + " << y;
      ASSERT_EQ(a, b);
      ASSERT_EQ(portable::subOverflows(x, y, a), subOverflows(x, y, b)) << x << " - " << y;
      ASSERT_EQ(a, b);
      const Wide exact = static_cast<Wide>(x) * y;
      const I64 hi = static_cast<I64>(exact >> 64);
      ASSERT_EQ(portable::mulOverflows(x, y, hi, a), mulOverflows(x, y, b)) << x << " * " << y;
      ASSERT_EQ(a, b);
    }
}

TEST(Semantics, ComparisonsAndBooleans) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  U64 r = 0;
  for (I64 x : {kMin, -1L, 0L, 1L, kMax})
    for (I64 y : {kMin, -1L, 0L, 1L, kMax}) {
      run<Op::IEQ>(word(x), word(y), r); EXPECT_EQ(r, U64{x == y});
      run<Op::INE>(word(x), word(y), r); EXPECT_EQ(r, U64{x != y});
      run<Op::ILT>(word(x), word(y), r); EXPECT_EQ(r, U64{x < y});
      run<Op::ILE>(word(x), word(y), r); EXPECT_EQ(r, U64{x <= y});
      run<Op::IGT>(word(x), word(y), r); EXPECT_EQ(r, U64{x > y});
      run<Op::IGE>(word(x), word(y), r); EXPECT_EQ(r, U64{x >= y});
    }
  // Every comparison with a NaN is false except <>.
  run<Op::FEQ>(word(nan), word(nan), r); EXPECT_EQ(r, 0u);
  run<Op::FNE>(word(nan), word(1.0), r); EXPECT_EQ(r, 1u);
  run<Op::FLT>(word(nan), word(1.0), r); EXPECT_EQ(r, 0u);
  run<Op::FGE>(word(1.0), word(nan), r); EXPECT_EQ(r, 0u);
  run<Op::FLE>(word(-0.0), word(0.0), r); EXPECT_EQ(r, 1u);
  run<Op::FGT>(word(2.0), word(1.0), r); EXPECT_EQ(r, 1u);
  run<Op::XOR>(word(I64{5}), word(I64{3}), r); EXPECT_EQ(r, 0u);  // both true
  run<Op::XOR>(word(I64{5}), 0, r); EXPECT_EQ(r, 1u);
  run<Op::AND>(word(I64{2}), word(I64{3}), r); EXPECT_EQ(r, 1u);
  run<Op::OR>(0, 0, r); EXPECT_EQ(r, 0u);
  run<Op::NOT>(word(I64{7}), 0, r); EXPECT_EQ(r, 0u);
}

TEST(Semantics, RealArithmeticFollowsTheNaNRule) {
  const U64 payloadA = 0x7FF0000000000123ull, payloadB = 0xFFF0000000000456ull;  // signalling
  const double a = std::bit_cast<double>(payloadA), b = std::bit_cast<double>(payloadB);
  const U64 quiet = U64{1} << 51;
  U64 r = 0;
  run<Op::FADD>(word(a), word(b), r);
  EXPECT_EQ(r, payloadA | quiet);  // the first NaN operand, made quiet
  run<Op::FMUL>(word(1.0), word(b), r);
  EXPECT_EQ(r, payloadB | quiet);
  run<Op::FSUB>(word(INFINITY), word(INFINITY), r);
  EXPECT_EQ(r, 0xFFF8000000000000ull);  // no NaN operand: the negative default NaN
  run<Op::FDIV>(word(0.0), word(0.0), r);
  EXPECT_EQ(r, 0xFFF8000000000000ull);
  run<Op::FSQRT>(word(-1.0), 0, r);
  EXPECT_EQ(r, 0xFFF8000000000000ull);
  run<Op::FNEG>(word(a), 0, r);
  EXPECT_EQ(r, payloadA ^ (U64{1} << 63));  // a sign-bit operation, even on a NaN
  run<Op::FABS>(word(b), 0, r);
  EXPECT_EQ(r, payloadB & ~(U64{1} << 63));
  run<Op::FDIV>(word(1.0), word(4.0), r);
  EXPECT_EQ(std::bit_cast<double>(r), 0.25);
  run<Op::ITOF>(word(kMax), 0, r);
  EXPECT_EQ(std::bit_cast<double>(r), 9223372036854775808.0);  // rounds to nearest
}

TEST(Semantics, TruncAndRoundHaveAnIntegerValueOnlyInRange) {
  U64 r = 0;
  EXPECT_EQ(run<Op::FTRUNC>(word(-2.7), 0, r), FaultKind::None);
  EXPECT_EQ(static_cast<I64>(r), -2);
  EXPECT_EQ(run<Op::FROUND>(word(-2.5), 0, r), FaultKind::None);
  EXPECT_EQ(static_cast<I64>(r), -3);  // halves away from zero
  EXPECT_EQ(run<Op::FROUND>(word(2.5), 0, r), FaultKind::None);
  EXPECT_EQ(static_cast<I64>(r), 3);
  EXPECT_EQ(run<Op::FTRUNC>(word(-9223372036854775808.0), 0, r), FaultKind::None);
  EXPECT_EQ(static_cast<I64>(r), kMin);
  EXPECT_EQ(run<Op::FTRUNC>(word(9223372036854775808.0), 0, r), FaultKind::NotAnInteger);
  EXPECT_EQ(run<Op::FROUND>(word(9223372036854775807.0), 0, r), FaultKind::NotAnInteger);  // that is 2^63
  EXPECT_EQ(run<Op::FTRUNC>(word(std::nan("")), 0, r), FaultKind::NotAnInteger);
  EXPECT_EQ(run<Op::FROUND>(word(-INFINITY), 0, r), FaultKind::NotAnInteger);
}

TEST(Semantics, TranscendentalFunctionsAreTheHostLibrarys) {
  for (double x : {0.0, 0.5, 1.0, -3.25, 100.0, 1e-300, 710.0}) {
    U64 r = 0;
    run<Op::FEXP>(word(x), 0, r); EXPECT_EQ(r, word(std::exp(x)));
    run<Op::FLN>(word(x), 0, r); EXPECT_EQ(r, word(std::log(x)));
    run<Op::FSIN>(word(x), 0, r); EXPECT_EQ(r, word(std::sin(x)));
    run<Op::FCOS>(word(x), 0, r); EXPECT_EQ(r, word(std::cos(x)));
    run<Op::FATAN>(word(x), 0, r); EXPECT_EQ(r, word(std::atan(x)));
    run<Op::FPOW>(word(x), word(1.5), r); EXPECT_EQ(r, word(std::pow(x, 1.5)));
  }
}

TEST(Semantics, RunTimeOpcodeDispatchAgreesWithTheTemplates) {
  U64 a = 0, b = 0;
  EXPECT_EQ(scalarOp(Op::IMUL, word(kMax), 2, a), FaultKind::Overflow);
  EXPECT_EQ(scalarOp(Op::IMOD, word(I64{-7}), 2, a), FaultKind::None);
  run<Op::IMOD>(word(I64{-7}), 2, b);
  EXPECT_EQ(a, b);
  EXPECT_EQ(static_cast<I64>(a), -1);
}

// The columns of Opcodes.def describe instructions that can have those properties.
TEST(Semantics, OpcodeColumnsAreConsistent) {
  int scalar = 0;
  for (std::uint32_t o = 0; o < kOpCount; ++o) {
    const Op op = static_cast<Op>(o);
    const OpInfo& i = opInfo(op);
    SCOPED_TRACE(std::string(i.name));
    if (i.executor == Executor::Scalar || i.executor == Executor::HostMath) {
      ++scalar;
      EXPECT_TRUE(i.shape == "sr" || i.shape == "srr");  // a scalar result from scalar operands
      EXPECT_TRUE(isParallelOp(op));                     // every scalar operation runs in a loop
    }
    if (i.executor == Executor::Team && op != Op::PFOR) {  // PFOR: its loop's body does
      EXPECT_NE(i.shape.find_first_of("bT"), std::string_view::npos);
    }
    if (leaderReadsBits(op)) {
      EXPECT_EQ(i.executor, Executor::Leader);
    }
    if (canFault(op)) {
      EXPECT_TRUE(isParallelOp(op));
    }
    const int ix = indexOperand(op);
    if (ix >= 0) {
      ASSERT_LT(static_cast<std::size_t>(ix), i.shape.size());
      EXPECT_EQ(i.shape[static_cast<std::size_t>(ix)], 'r');  // an integer register
    }
    for (char c : i.flags) EXPECT_NE(std::string_view("pfr12nxov").find(c), std::string_view::npos) << c;
    // Owned instructions (o, v) are instructions on the bits (engine_owned_test has more).
    if (isOwnedWrite(op) || isOwnedReduction(op)) {
      EXPECT_EQ(i.executor, Executor::Team);
    }
  }
  EXPECT_EQ(scalar, 39);  // 33 Scalar + 6 HostMath
}

}  // namespace
}  // namespace star
