// One NaN for every engine and backend. IEEE-754 fixes the value of + - * / and sqrt in double
// precision, but not which NaN a NaN result is: x86 returns a NaN operand (which one, when both are,
// depends on the order the compiler chose) or a negative default NaN, a GPU its canonical positive
// one. Since `write` prints the sign (`nan`, `-nan`), Star fixes the rule (LANGUAGE.md §7.1): a NaN
// result is the first operand if it is a NaN, else the second if it is, else the negative default
// NaN; always quiet. Every place that computes real arithmetic (the host interpreter, the device
// engine, both parallel-loop executors) passes its result through starNaN.
//
// The same holds for FVAL and FBIN of 32 bits, which widen a float to a double and narrow it back:
// x86 keeps a NaN's sign and payload (quieting it), a GPU's conversion returns its canonical NaN.
// floatBitsToReal and realToFloatBits do what x86 does, by bits, on both. Negation and ABS are
// sign-bit operations in IEEE-754, but a GPU's neg.f64 and abs.f64 leave the NaN they return
// unspecified: starNeg and starAbs change the sign bit alone, everywhere.
#pragma once

#include "core/FixedWidth.h"
#include "core/HostDevice.h"

namespace star {

// The bits of a double and back (std::bit_cast, which NVRTC and nvcc's device code lack).
STAR_HD std::uint64_t realBitsOf(double d) { return __builtin_bit_cast(std::uint64_t, d); }
STAR_HD double realFromBits(std::uint64_t w) { return __builtin_bit_cast(double, w); }

STAR_HD double starNaN(double r, double a, double b) {
  if (r == r) return r;
  constexpr std::uint64_t kQuiet = std::uint64_t{1} << 51;
  std::uint64_t bits;
  if (a != a) bits = realBitsOf(a);
  else if (b != b) bits = realBitsOf(b);
  else bits = 0xFFF8000000000000ull;  // the negative default NaN
  return realFromBits(bits | kQuiet);
}

STAR_HD double starNeg(double x) { return realFromBits(realBitsOf(x) ^ (std::uint64_t{1} << 63)); }

STAR_HD double starAbs(double x) { return realFromBits(realBitsOf(x) & ~(std::uint64_t{1} << 63)); }

// The 32-bit IEEE pattern `bits` as a double: exact for every number; a NaN keeps its sign and
// payload (shifted to the top of the wider fraction) and is made quiet.
STAR_HD double floatBitsToReal(std::uint32_t bits) {
  if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0) {
    const std::uint64_t wide = (std::uint64_t{bits >> 31} << 63) | (std::uint64_t{0x7FF} << 52) |
                               (std::uint64_t{bits & 0x007FFFFFu} << 29) | (std::uint64_t{1} << 51);
    return realFromBits(wide);
  }
  return static_cast<double>(__builtin_bit_cast(float, bits));
}

// `x` rounded to float (to nearest, even; overflowing to an infinity) as its 32-bit pattern; a
// NaN keeps its sign and the top of its payload and is made quiet.
STAR_HD std::uint32_t realToFloatBits(double x) {
  if (x != x) {
    const std::uint64_t wide = realBitsOf(x);
    return static_cast<std::uint32_t>((wide >> 63) << 31) | 0x7F800000u |
           static_cast<std::uint32_t>((wide >> 29) & 0x007FFFFFu) | 0x00400000u;
  }
  return __builtin_bit_cast(std::uint32_t, static_cast<float>(x));
}

}  // namespace star
