// One NaN for every engine and backend. IEEE-754 fixes the value of + - * / and sqrt in double
// precision, but not which NaN a NaN result is: x86 returns a NaN operand (which one, when both are,
// depends on the order the compiler chose) or a negative default NaN, a GPU its canonical positive
// one. Since `write` prints the sign (`nan`, `-nan`), Star fixes the rule (LANGUAGE.md §7.1): a NaN
// result is the first operand if it is a NaN, else the second if it is, else the negative default
// NaN; always quiet. Every place that computes real arithmetic (the host interpreter, the device
// engine, both parallel-loop executors) passes its result through starNaN.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/HostDevice.h"

namespace star {

STAR_HD double starNaN(double r, double a, double b) {
  if (r == r) return r;
  constexpr std::uint64_t kQuiet = std::uint64_t{1} << 51;
  std::uint64_t bits;
  if (a != a) std::memcpy(&bits, &a, sizeof bits);
  else if (b != b) std::memcpy(&bits, &b, sizeof bits);
  else bits = 0xFFF8000000000000ull;  // the negative default NaN
  bits |= kQuiet;
  std::memcpy(&r, &bits, sizeof r);
  return r;
}

}  // namespace star
