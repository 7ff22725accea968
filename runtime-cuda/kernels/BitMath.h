// Bit arithmetic shared by the kernels: pure functions on 64-bit elements, usable on the host
// too (so they can be checked without a GPU).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define STAR_HD __host__ __device__ __forceinline__
#else
#define STAR_HD inline
#endif

namespace star::cuda {

inline constexpr std::uint64_t kAllOnes = ~std::uint64_t{0};

// Elements holding `bits` bits (wordsForBits, callable on the device).
STAR_HD std::uint64_t elementsFor(std::uint64_t bits) {
  return (bits + 63) / 64;
}

// The valid bits of the last element of a vector of `bits` bits (all ones when bits % 64 == 0).
STAR_HD std::uint64_t tailMask(std::uint64_t bits) {
  const unsigned r = static_cast<unsigned>(bits % 64);
  return r == 0 ? kAllOnes : (std::uint64_t{1} << r) - 1;
}

// Bits [lo, hi) of an element, 0 <= lo < hi <= 64.
STAR_HD std::uint64_t rangeMask(unsigned lo, unsigned hi) {
  const std::uint64_t below_hi = hi == 64 ? kAllOnes : (std::uint64_t{1} << hi) - 1;
  return below_hi & (kAllOnes << lo);
}

// Bits [bit, bit + 64) of a vector of n_words elements, as one element; bits outside the vector
// read as 0. bit may be negative (down to -63): replace() aligns the source to the destination.
STAR_HD std::uint64_t window64(const std::uint64_t* v, std::uint64_t n_words, std::int64_t bit) {
  if (bit < 0) return n_words == 0 ? 0 : v[0] << static_cast<unsigned>(-bit);
  const std::uint64_t q = static_cast<std::uint64_t>(bit) / 64;
  const unsigned s = static_cast<unsigned>(bit % 64);
  const std::uint64_t lo = q < n_words ? v[q] : 0;
  if (s == 0) return lo;
  const std::uint64_t hi = q + 1 < n_words ? v[q + 1] : 0;
  return (lo >> s) | (hi << (64 - s));
}

// Reverses the bits of an element. Words are numbers with bit 0 most significant; reversing each
// element turns it into an ordinary limb (the last, partial element becomes a limb shifted left
// by its unused bits, which are 0 in both operands and so carry nothing).
STAR_HD std::uint64_t reverseBits(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __brevll(x);
#else
  std::uint64_t r = 0;
  for (int i = 0; i < 64; ++i, x >>= 1) r = (r << 1) | (x & 1);
  return r;
#endif
}

// Carry-lookahead state of one limb, packed for a block scan: bit 0 = generates a carry (borrow),
// bit 1 = propagates an incoming one.
inline constexpr unsigned kCarryGenerate = 1;
inline constexpr unsigned kCarryPropagate = 2;
inline constexpr unsigned kCarryIdentity = kCarryPropagate;

STAR_HD unsigned addCarryState(std::uint64_t x, std::uint64_t y) {
  const std::uint64_t s = x + y;
  return (s < x ? kCarryGenerate : 0u) | (s == kAllOnes ? kCarryPropagate : 0u);
}

STAR_HD unsigned subBorrowState(std::uint64_t x, std::uint64_t y) {
  return (x < y ? kCarryGenerate : 0u) | (x == y ? kCarryPropagate : 0u);
}

// Combines the state of a less significant run (lo) with the next more significant one (hi).
// Associative, so usable as a scan operator in order of increasing significance.
STAR_HD unsigned combineCarry(unsigned lo, unsigned hi) {
  const unsigned g = (hi & kCarryGenerate) | ((hi & kCarryPropagate) && (lo & kCarryGenerate));
  const unsigned p = (hi & kCarryPropagate) & (lo & kCarryPropagate);
  return g | p;
}

// Carry (borrow) out of a limb with state `state` given the carry (borrow) in.
STAR_HD unsigned carryOut(unsigned state, unsigned carry_in) {
  return (state & kCarryGenerate) | ((state & kCarryPropagate) && carry_in);
}

}  // namespace star::cuda
