// The meaning of Star's scalar operations, written once: checked integer arithmetic, real
// arithmetic under the project's NaN rule (core/HostFloat.h), conversions, comparisons, booleans,
// and the index checks. The checker's constant folding, the host interpreter, the device engine,
// both parallel-loop executors and generated kernels all call these functions; an operation that
// can fail returns the kind of its fault, and the host turns a kind into its message in one place
// (vm/interp/FaultText). Host, nvcc and NVRTC compile this header (no standard header under NVRTC).
#pragma once

#include "core/BitLayout.h"
#include "core/CheckedMath.h"
#include "core/FixedWidth.h"
#include "core/HostDevice.h"
#include "core/HostFloat.h"

#if !defined(__CUDACC_RTC__)
#include <cmath>
#endif

namespace star {

// Why an operation stopped the program (Overflow, DivisionByZero, NotAnInteger from the scalar
// operations here; the others from the instructions that index, set a component or raise).
enum class FaultKind : std::uint8_t {
  None,
  Overflow,          // integer overflow in op (IADD, ISUB, IMUL, INEG, IDIV, IABS)
  DivisionByZero,    // IDIV, IMOD
  IndexRange,        // values: the index, the limit (BGET, BSET, TGETCOL, TSETCOL, TGETROW, TSETROW)
  ComponentValue,    // BSET: values[0] is not 0 or 1
  NotAnInteger,      // FTRUNC, FROUND: values[0] holds the real's bits
  Raise,             // RAISE: values[0] is the message (a string index)
};

namespace sem {

using Int = std::int64_t;
inline constexpr Int kIntMin = static_cast<Int>(std::uint64_t{1} << 63);

STAR_HD FaultKind overflowIf(bool over) { return over ? FaultKind::Overflow : FaultKind::None; }

// ---- integers: every result that does not fit in 64 bits is an overflow
STAR_HD FaultKind add(Int x, Int y, Int& r) { return overflowIf(addOverflows(x, y, r)); }
STAR_HD FaultKind subtract(Int x, Int y, Int& r) { return overflowIf(subOverflows(x, y, r)); }
STAR_HD FaultKind multiply(Int x, Int y, Int& r) { return overflowIf(mulOverflows(x, y, r)); }
// div truncates toward zero; the minimum div -1 overflows.
STAR_HD FaultKind divide(Int x, Int y, Int& r) {
  if (y == 0) return FaultKind::DivisionByZero;
  if (x == kIntMin && y == -1) return FaultKind::Overflow;
  r = x / y;
  return FaultKind::None;
}
// mod has the sign of x (x = (x div y) * y + x mod y); the minimum mod -1 is 0.
STAR_HD FaultKind modulo(Int x, Int y, Int& r) {
  if (y == 0) return FaultKind::DivisionByZero;
  r = x == kIntMin && y == -1 ? 0 : x % y;
  return FaultKind::None;
}
STAR_HD FaultKind negate(Int x, Int& r) {
  r = x == kIntMin ? x : -x;
  return overflowIf(x == kIntMin);
}
STAR_HD FaultKind absolute(Int x, Int& r) {
  r = x == kIntMin ? x : (x < 0 ? -x : x);
  return overflowIf(x == kIntMin);
}

// ---- comparisons; `which` counts from = in the order = <> < <= > >= (IEQ..IGE, FEQ..FGE)
STAR_HD bool compareIntegers(unsigned which, Int x, Int y) {
  const bool lt = x < y, eq = x == y;
  return which == 0 ? eq : which == 1 ? !eq : which == 2 ? lt : which == 3 ? lt || eq : which == 4 ? !(lt || eq) : !lt;
}
// IEEE: every comparison with a NaN is false, except <>.
STAR_HD bool compareReals(unsigned which, double x, double y) {
  return which == 0 ? x == y : which == 1 ? x != y : which == 2 ? x < y : which == 3 ? x <= y : which == 4 ? x > y : x >= y;
}

// ---- booleans (0 false, anything else true; results 0 or 1)
STAR_HD Int logicalNot(Int x) { return !x; }
STAR_HD Int logicalAnd(Int x, Int y) { return x && y; }
STAR_HD Int logicalOr(Int x, Int y) { return x || y; }
STAR_HD Int logicalXor(Int x, Int y) { return (x != 0) != (y != 0); }

// ---- reals: IEEE-754 double precision, a NaN result chosen by starNaN
STAR_HD double realAdd(double x, double y) { return starNaN(x + y, x, y); }
STAR_HD double realSubtract(double x, double y) { return starNaN(x - y, x, y); }
STAR_HD double realMultiply(double x, double y) { return starNaN(x * y, x, y); }
STAR_HD double realDivide(double x, double y) { return starNaN(x / y, x, y); }
STAR_HD double realNegate(double x) { return starNeg(x); }
STAR_HD double realAbsolute(double x) { return starAbs(x); }
STAR_HD double realSqrt(double x) { return starNaN(sqrt(x), x, x); }
STAR_HD double realFromInteger(Int x) { return static_cast<double>(x); }

// ---- reals to integers: TRUNC (toward zero) and ROUND (halves away from zero); a NaN, an
// infinity or a whole number outside the 64-bit range has no integer value.
STAR_HD FaultKind wholeToInteger(double x, double whole, Int& r) {
  // 2^63 is exact as a double; every double below it in magnitude converts exactly.
  if (x != x || !(whole >= -9223372036854775808.0 && whole < 9223372036854775808.0))
    return FaultKind::NotAnInteger;
  r = static_cast<Int>(whole);
  return FaultKind::None;
}
STAR_HD FaultKind truncate(double x, Int& r) { return wholeToInteger(x, trunc(x), r); }
STAR_HD FaultKind roundHalfAway(double x, Int& r) { return wholeToInteger(x, round(x), r); }

// FBIN's word: x as an IEEE-754 number of k = 32 or 64 bits (single precision rounds to nearest,
// even, overflowing to an infinity), sign bit first, in a word's layout. The caller checks k.
STAR_HD std::uint64_t realToWordBits(double x, std::uint64_t k) {
  return numberToWord(k == 32 ? realToFloatBits(x) : realBitsOf(x), k);
}

// ---- checks of indices and components
// A 1-based index `at` into something of `limit` components.
STAR_HD bool inRange(Int at, std::uint64_t limit) { return at >= 1 && static_cast<std::uint64_t>(at) <= limit; }
// A value stored into one bit.
STAR_HD bool isComponent(Int v) { return v == 0 || v == 1; }

#if !defined(__CUDA_ARCH__) && !defined(__CUDACC_RTC__)
// ---- the transcendental functions: the host's C library on every engine (Opcodes.def's
// HostMath class; a GPU's differ in the last bit for some arguments, so no device code has them)
inline double realExp(double x) { return std::exp(x); }
inline double realLn(double x) { return std::log(x); }
inline double realSin(double x) { return std::sin(x); }
inline double realCos(double x) { return std::cos(x); }
inline double realArctan(double x) { return std::atan(x); }
inline double realPower(double x, double y) { return std::pow(x, y); }
#endif

}  // namespace sem
}  // namespace star
