// Integer arithmetic with overflow detection and two's-complement fields, the same on the host
// and on the GPU (nvcc has no __builtin_*_overflow in device code).
#pragma once

#include <cstdint>

#include "core/HostDevice.h"

namespace star {

// Each is true when the exact result does not fit in 64 bits (r gets the wrapped result).
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

__extension__ typedef __int128 Int128;  // GCC, Clang and nvcc (host and device) all have it

STAR_HD bool mulOverflows(std::int64_t x, std::int64_t y, std::int64_t& r) {
  const Int128 wide = static_cast<Int128>(x) * static_cast<Int128>(y);
  r = static_cast<std::int64_t>(wide);
  return wide != static_cast<Int128>(r);
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
