// Integer arithmetic with overflow detection and two's-complement fields, the same on the host
// and on the GPU. The one file that uses the compilers' overflow intrinsics: on the host they
// compile to the flag tests; nvcc and NVRTC have none in device code, where the portable forms
// below give the same results. NVRTC-safe (no standard header).
#pragma once

#include "core/FixedWidth.h"
#include "core/HostDevice.h"

#if defined(__CUDA_ARCH__) || defined(__CUDACC_RTC__)
#define STAR_PORTABLE_OVERFLOW 1
#else
#define STAR_PORTABLE_OVERFLOW 0
#endif

namespace star {

// Each is true when the exact result does not fit in 64 bits (r gets the wrapped result).
// The forms without intrinsics (device code; tests/unit/semantics_test.cpp holds them to the
// intrinsics on the host).
namespace portable {
STAR_HD bool addOverflows(std::int64_t x, std::int64_t y, std::int64_t& r) {
  const std::uint64_t u = static_cast<std::uint64_t>(x) + static_cast<std::uint64_t>(y);
  r = static_cast<std::int64_t>(u);
  return ((x ^ r) & (y ^ r)) < 0;  // both operands' signs differ from the result's
}
STAR_HD bool subOverflows(std::int64_t x, std::int64_t y, std::int64_t& r) {
  const std::uint64_t u = static_cast<std::uint64_t>(x) - static_cast<std::uint64_t>(y);
  r = static_cast<std::int64_t>(u);
  return ((x ^ y) & (x ^ r)) < 0;  // signs of x and y differ, and the result's differs from x's
}
// hi: the high 64 bits of the exact 128-bit product (__mul64hi on a GPU).
STAR_HD bool mulOverflows(std::int64_t x, std::int64_t y, std::int64_t hi, std::int64_t& r) {
  r = static_cast<std::int64_t>(static_cast<std::uint64_t>(x) * static_cast<std::uint64_t>(y));
  return hi != (r < 0 ? -1 : 0);  // it fits when the high half is the low half's sign extension
}
}  // namespace portable

STAR_HD bool addOverflows(std::int64_t x, std::int64_t y, std::int64_t& r) {
#if !STAR_PORTABLE_OVERFLOW
  return __builtin_add_overflow(x, y, &r);
#else
  return portable::addOverflows(x, y, r);
#endif
}

STAR_HD bool subOverflows(std::int64_t x, std::int64_t y, std::int64_t& r) {
#if !STAR_PORTABLE_OVERFLOW
  return __builtin_sub_overflow(x, y, &r);
#else
  return portable::subOverflows(x, y, r);
#endif
}

STAR_HD bool mulOverflows(std::int64_t x, std::int64_t y, std::int64_t& r) {
#if !STAR_PORTABLE_OVERFLOW
  return __builtin_mul_overflow(x, y, &r);
#else
  return portable::mulOverflows(x, y, __mul64hi(x, y), r);
#endif
}

// Sizes: true when x * y does not fit in 64 unsigned bits.
STAR_HD bool mulOverflows(std::uint64_t x, std::uint64_t y, std::uint64_t& r) {
#if !STAR_PORTABLE_OVERFLOW
  return __builtin_mul_overflow(x, y, &r);
#else
  r = x * y;
  return x != 0 && r / x != y;
#endif
}

// The low k bits of n.
STAR_HD std::uint64_t lowBits(std::uint64_t n, unsigned k) {
  return k >= 64 ? n : n & ((std::uint64_t{1} << k) - 1);
}

// The k-bit pattern `pattern` (its low k bits) as a signed number.
STAR_HD std::int64_t signExtend(std::uint64_t pattern, unsigned k) {
  if (k == 0) return 0;
  if (k >= 64) return static_cast<std::int64_t>(pattern);
  const std::uint64_t sign = std::uint64_t{1} << (k - 1);
  pattern = lowBits(pattern, k);
  return static_cast<std::int64_t>((pattern ^ sign) - sign);  // wraps as intended
}

// Whether n has a k-bit two's complement form (-2^(k-1) <= n < 2^(k-1)).
STAR_HD bool fitsSigned(std::int64_t n, unsigned k) {
  if (k >= 64) return true;
  if (k == 0) return false;
  const std::int64_t half = std::int64_t{1} << (k - 1);
  return n >= -half && n < half;
}

}  // namespace star
