// Carry arithmetic of the word kernels (ADD, SUBT, field arithmetic): pure functions on 64-bit
// limbs, usable on the host too (so they can be checked without a GPU). The layout helpers
// (wordsForBits, tailMask, ...) are core/BitLayout.h.
#pragma once

#include <cstdint>

#include "core/BitLayout.h"

namespace star::cuda {

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
