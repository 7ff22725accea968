// How bit vectors are laid out in 64-bit elements, for the host and the device alike: bit i of a
// vector is bit (i % 64) of element i / 64, and the unused high bits of the last element are 0
// (vm/backend/Backend.h states the whole contract). Pure functions; nvcc compiles them for both
// sides, other compilers for the host.
#pragma once

#include <cstdint>

#include "core/HostDevice.h"

namespace star {

inline constexpr std::uint64_t kAllOnes = ~std::uint64_t{0};

// Bit counts of one element, with the GPU's instructions on the device (v != 0 for the first two).
STAR_HD int countTrailingZeros(std::uint64_t v) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(v)) - 1;
#else
  return __builtin_ctzll(v);
#endif
}
STAR_HD int countLeadingZeros(std::uint64_t v) {
#if defined(__CUDA_ARCH__)
  return __clzll(static_cast<long long>(v));
#else
  return __builtin_clzll(v);
#endif
}
STAR_HD int popCount(std::uint64_t v) {
#if defined(__CUDA_ARCH__)
  return __popcll(v);
#else
  return __builtin_popcountll(v);
#endif
}

// Elements holding `bits` bits.
STAR_HD constexpr std::uint64_t wordsForBits(std::uint64_t bits) { return (bits + 63) / 64; }

// The valid bits of the last element of a vector of `bits` bits (all ones when bits % 64 == 0).
STAR_HD constexpr std::uint64_t tailMask(std::uint64_t bits) {
  const unsigned r = static_cast<unsigned>(bits % 64);
  return r == 0 ? kAllOnes : (std::uint64_t{1} << r) - 1;
}

// Bits [lo, hi) of an element, 0 <= lo < hi <= 64.
STAR_HD constexpr std::uint64_t rangeMask(unsigned lo, unsigned hi) {
  const std::uint64_t belowHi = hi == 64 ? kAllOnes : (std::uint64_t{1} << hi) - 1;
  return belowHi & (kAllOnes << lo);
}

// Bits [bit, bit + 64) of a vector of nWords elements, as one element; bits outside the vector
// read as 0. bit may be negative (down to -63), to align a source to a destination.
STAR_HD std::uint64_t window64(const std::uint64_t* v, std::uint64_t nWords, std::int64_t bit) {
  if (bit < 0) return nWords == 0 ? 0 : v[0] << static_cast<unsigned>(-bit);
  const std::uint64_t q = static_cast<std::uint64_t>(bit) / 64;
  const unsigned s = static_cast<unsigned>(bit % 64);
  const std::uint64_t lo = q < nWords ? v[q] : 0;
  if (s == 0) return lo;
  const std::uint64_t hi = q + 1 < nWords ? v[q + 1] : 0;
  return (lo >> s) | (hi << (64 - s));
}

// Reverses the bits of an element. Words are numbers with bit 0 most significant; reversing each
// element turns it into an ordinary limb.
STAR_HD constexpr std::uint64_t reverseBits(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __brevll(x);
#else
  x = ((x >> 1) & 0x5555555555555555u) | ((x & 0x5555555555555555u) << 1);
  x = ((x >> 2) & 0x3333333333333333u) | ((x & 0x3333333333333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Fu) | ((x & 0x0F0F0F0F0F0F0F0Fu) << 4);
  return __builtin_bswap64(x);
#endif
}

// A word of len <= 64 bits, packed as above (its bit 1 at bit 0 of the element), as the number
// it spells with bit 1 the most significant; and back.
STAR_HD std::uint64_t wordToNumber(std::uint64_t packed, std::uint64_t len) {
  std::uint64_t v = 0;
  for (std::uint64_t i = 0; i < len; ++i) v = (v << 1) | ((packed >> i) & 1);
  return v;
}
STAR_HD std::uint64_t numberToWord(std::uint64_t v, std::uint64_t len) {
  std::uint64_t packed = 0;
  for (std::uint64_t i = 0; i < len; ++i) packed |= ((v >> (len - 1 - i)) & 1) << i;
  return packed;
}

}  // namespace star
