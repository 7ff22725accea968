// The device engine's instructions on the bits, as free operations of a team (EngineTeam.h) on
// explicit operands: words and lengths, already checked. The interpreter's teamOp
// (EngineTeamDispatch.h) decodes an instruction's operands, makes the host's checks (a stop when
// one fails), calls one of these and sets the result's shape; generated code may call them the
// same way.
//
// Every thread of the team calls an operation together with the same operands. One that writes
// bits writes its share of the result's words and ends without a barrier: the caller's
// syncData() makes them visible (and only then may the leader change a shape). One that returns
// a value returns it to every thread, after a reduction (whose barriers order every read of the
// operands before it returns). A result may not overlap an operand unless the operation says so.
#pragma once

#include <cstdint>

#include "core/BitLayout.h"
#include "vm/bytecode/Opcodes.h"
#include "vm/engine/EngineLayout.h"
#include "vm/engine/EngineTeam.h"

namespace star::engine {

// ---- bit vectors (n: words, len: bits; a vector's bits past len are 0 and stay 0)

// D = X op Y, op one of BAND, BOR, BXOR (D may be X or Y).
template <class Team>
STAR_HD void teamCombine(Team& t, Op op, Word* D, const Word* X, const Word* Y, std::uint64_t n) {
  for (std::uint64_t w = t.rank(); w < n; w += t.size()) D[w] = combine(op, X[w], Y[w]);
}
template <class Team>
STAR_HD void teamAnd(Team& t, Word* D, const Word* X, const Word* Y, std::uint64_t n) {
  teamCombine(t, Op::BAND, D, X, Y, n);
}
template <class Team>
STAR_HD void teamOr(Team& t, Word* D, const Word* X, const Word* Y, std::uint64_t n) {
  teamCombine(t, Op::BOR, D, X, Y, n);
}
template <class Team>
STAR_HD void teamXor(Team& t, Word* D, const Word* X, const Word* Y, std::uint64_t n) {
  teamCombine(t, Op::BXOR, D, X, Y, n);
}

// D = NOT X, of len bits (D may be X).
template <class Team>
STAR_HD void teamNot(Team& t, Word* D, const Word* X, std::uint64_t len) {
  const std::uint64_t n = wordsForBits(len);
  const Word tail = tailMask(len);
  for (std::uint64_t w = t.rank(); w < n; w += t.size()) D[w] = ~X[w] & (w + 1 == n ? tail : kAllOnes);
}

// D = X's first 1 alone (BFRST; D may be X: every read of X is done before the first write).
template <class Team>
STAR_HD void teamFirstOne(Team& t, Word* D, const Word* X, std::uint64_t n) {
  const std::uint64_t first = findFirst(t, X, n);
  for (std::uint64_t w = t.rank(); w < n; w += t.size())
    D[w] = first != kNone && w == first / 64 ? Word{1} << (first % 64) : 0;
}

// Every bit of D's len to 1 (ones) or to 0.
template <class Team>
STAR_HD void teamFill(Team& t, Word* D, std::uint64_t len, bool ones) {
  const std::uint64_t n = wordsForBits(len);
  const Word tail = tailMask(len);
  for (std::uint64_t w = t.rank(); w < n; w += t.size()) D[w] = ones ? (w + 1 == n ? tail : kAllOnes) : 0;
}

// Bit `bit` (0-based) of X to v; one thread writes it.
template <class Team>
STAR_HD void teamSetBit(Team& t, Word* X, std::uint64_t bit, bool v) {
  if (!t.teamFirst()) return;
  const Word m = Word{1} << (bit % 64);
  X[bit / 64] = v ? X[bit / 64] | m : X[bit / 64] & ~m;
}

// The number of 1s of n words.
template <class Team>
STAR_HD std::uint64_t teamCountOnes(Team& t, const Word* X, std::uint64_t n) {
  std::uint64_t mine = 0;
  for (std::uint64_t w = t.rank(); w < n; w += t.size()) mine += static_cast<std::uint64_t>(popCount(X[w]));
  return t.reduceSum(mine);
}

// Whether n words have a 1.
template <class Team>
STAR_HD bool teamAnyOne(Team& t, const Word* X, std::uint64_t n) {
  Word mine = 0;
  for (std::uint64_t w = t.rank(); w < n; w += t.size()) mine |= X[w];
  return t.reduceOr(mine != 0);
}

// ---- words (bit 1 is the most significant; lengths alike)

// X against Y, n words each: -1, 0 or 1 (the first differing bit decides). Where they differ,
// X and Y are read again after the reduction: on a grid, the next write of bits must first wait
// for every block (the interpreter's settleReads).
template <class Team>
STAR_HD int teamCompareWords(Team& t, const Word* X, const Word* Y, std::uint64_t n) {
  std::uint64_t mine = kNone;
  for (std::uint64_t w = t.rank(); w < n; w += t.size())
    if (X[w] != Y[w]) {
      mine = w;
      break;
    }
  const std::uint64_t at = t.reduceMin(mine);
  if (at == kNone) return 0;
  const Word diff = X[at] ^ Y[at];
  return (X[at] & (diff & (0 - diff))) ? 1 : -1;
}

// D = X + Y, or X - Y (subtract), modulo 2^len; n words each (D may be X or Y). One thread
// computes the carries through every word.
template <class Team>
STAR_HD void teamAddWords(Team& t, bool subtract, Word* D, const Word* X, const Word* Y, std::uint64_t n) {
  if (!t.teamFirst()) return;
  // Reversed, each element is an ordinary limb and the last one's unused bits are low.
  Word carry = 0;
  for (std::uint64_t i = n; i-- > 0;) {
    const Word a = reverseBits(X[i]), b = reverseBits(Y[i]);
    Word r;
    if (!subtract) {
      const Word s1 = a + b;
      r = s1 + carry;
      carry = (s1 < a) | (r < s1);
    } else {
      const Word d1 = a - b;
      r = d1 - carry;
      carry = (a < b) | (d1 < carry);
    }
    D[i] = reverseBits(r);
  }
}

// D = the len bits of W (of wWords words) from bit `from` (0-based) on; within W (TRIM).
template <class Team>
STAR_HD void teamTrim(Team& t, Word* D, const Word* W, std::uint64_t wWords, std::uint64_t from, std::uint64_t len) {
  const std::uint64_t words = wordsForBits(len);
  const Word tail = tailMask(len);
  for (std::uint64_t w = t.rank(); w < words; w += t.size())
    D[w] = window64(W, wWords, static_cast<std::int64_t>(from) + static_cast<std::int64_t>(64 * w)) &
           (w + 1 == words ? tail : kAllOnes);
}

// W's bits from .. from + len - 1 (0-based, len > 0, within W) = V's len bits (REP).
template <class Team>
STAR_HD void teamReplace(Team& t, Word* W, const Word* V, std::uint64_t from, std::uint64_t len) {
  const std::uint64_t firstWord = from / 64, lastWord = (from + len - 1) / 64;
  for (std::uint64_t k = firstWord + t.rank(); k <= lastWord; k += t.size()) {
    const std::uint64_t lo = k * 64 < from ? from - k * 64 : 0;
    const std::uint64_t hi = (k + 1) * 64 > from + len ? from + len - k * 64 : 64;
    const Word mask = rangeMask(static_cast<unsigned>(lo), static_cast<unsigned>(hi));
    const Word bits = window64(V, wordsForBits(len), static_cast<std::int64_t>(k * 64) - static_cast<std::int64_t>(from));
    W[k] = (W[k] & ~mask) | (bits & mask);
  }
}

// D = value (0 <= value < 2^len) in len bits (BIN).
template <class Team>
STAR_HD void teamUnsignedBits(Team& t, Word* D, std::int64_t value, std::uint64_t len) {
  const std::uint64_t words = wordsForBits(len);
  for (std::uint64_t w = t.rank(); w < words; w += t.size()) {
    Word out = 0;
    for (std::uint64_t b = 0; b < 64 && w * 64 + b < len; ++b) {
      const std::uint64_t power = len - 1 - (w * 64 + b);  // bit 1 is the most significant
      if (power < 63 && ((value >> power) & 1)) out |= Word{1} << b;
    }
    D[w] = out;
  }
}

// D's one word = v (a value of at most 64 bits, packed); one thread writes it.
template <class Team>
STAR_HD void teamSetWord(Team& t, Word* D, Word v) {
  if (t.teamFirst()) D[0] = v;
}

// ---- tables (column-major: column j is wordsForBits(rows) words from data + j * that)

// D = column k (0-based) of tb.
template <class Team>
STAR_HD void teamGetColumn(Team& t, Word* D, const Shape& tb, std::uint64_t k) {
  const std::uint64_t wpc = wordsForBits(tb.rows);
  copyWords(t, D, tb.data + k * wpc, wpc);
}

// D = row k (0-based) of tb, tb.cols bits.
template <class Team>
STAR_HD void teamGetRow(Team& t, Word* D, const Shape& tb, std::uint64_t k) {
  gatherRow(t, D, tb, k);
}

// Column k (0-based) of tb = src's tb.rows bits.
template <class Team>
STAR_HD void teamSetColumn(Team& t, const Shape& tb, std::uint64_t k, const Word* src) {
  const std::uint64_t wpc = wordsForBits(tb.rows);
  copyWords(t, tb.data + k * wpc, src, wpc);
}

// Row k (0-based) of tb = src's tb.cols bits: a thread per column.
template <class Team>
STAR_HD void teamSetRow(Team& t, const Shape& tb, std::uint64_t k, const Word* src) {
  const std::uint64_t wpc = wordsForBits(tb.rows), q = k / 64;
  const Word m = Word{1} << (k % 64);
  for (std::uint64_t j = t.rank(); j < tb.cols; j += t.size()) {
    Word& w = tb.data[j * wpc + q];
    w = ((src[j / 64] >> (j % 64)) & 1) ? (w | m) : (w & ~m);
  }
}

// Whether n words of X and Y differ. Every thread reduces, also for n = 0: its barrier orders
// every read of the step before the leader's next write.
template <class Team>
STAR_HD bool teamWordsDiffer(Team& t, const Word* X, const Word* Y, std::uint64_t n) {
  bool differ = false;
  for (std::uint64_t w = t.rank(); w < n && !differ; w += t.size()) differ = X[w] != Y[w];
  return t.reduceOr(differ);
}

}  // namespace star::engine
