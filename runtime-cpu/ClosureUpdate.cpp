#include "runtime-cpu/ClosureUpdate.h"

#include <bit>

#include "core/Interrupt.h"
#include "runtime-cpu/TableWords.h"

namespace star::cpu {
namespace {

using Word = std::uint64_t;

// n-bit slices of scratch memory and the columns of the tables.
struct Columns {
  Word* t;
  std::uint64_t wpc;
  Word* col(std::uint64_t j) const { return t + j * wpc; }
  bool at(std::uint64_t row, std::uint64_t j) const { return (col(j)[row / 64] >> (row % 64)) & 1; }
};

void setBit(Word* s, std::uint64_t i) {
  s[i / 64] |= Word{1} << (i % 64);
}
void clearBit(Word* s, std::uint64_t i) {
  s[i / 64] &= ~(Word{1} << (i % 64));
}
bool bitOf(const Word* s, std::uint64_t i) {
  return (s[i / 64] >> (i % 64)) & 1;
}
std::uint64_t ones(const Word* s, std::uint64_t wpc) {
  std::uint64_t k = 0;
  for (std::uint64_t q = 0; q < wpc; ++q) k += static_cast<std::uint64_t>(std::popcount(s[q]));
  return k;
}
bool any(const Word* s, std::uint64_t wpc) {
  for (std::uint64_t q = 0; q < wpc; ++q)
    if (s[q]) return true;
  return false;
}
// STEP: the first 1 of s (cleared), or n when there is none.
std::uint64_t step(Word* s, std::uint64_t wpc, std::uint64_t n) {
  for (std::uint64_t q = 0; q < wpc; ++q)
    if (s[q]) {
      const std::uint64_t i = 64 * q + static_cast<unsigned>(std::countr_zero(s[q]));
      s[q] &= s[q] - 1;
      return i;
    }
  return n;
}
// Every column j of C in `which` (a row of C, as a slice over columns) |= src.
void orIntoColumns(const Columns& c, const Word* which, const Word* src, std::uint64_t n) {
  for (std::uint64_t j = 0; j < n; ++j)
    if (bitOf(which, j)) orInto(c.col(j), src, c.wpc);
}

}  // namespace

bool closureInsertWords(std::uint64_t* a, std::uint64_t* c, std::uint64_t n, std::uint64_t u,
                        std::uint64_t v, std::uint64_t* scratch) {
  const std::uint64_t wpc = (n + 63) / 64;
  const Columns A{a, wpc}, C{c, wpc};
  const bool reaches = C.at(u, v);
  if (A.at(u, v)) return reaches;  // nothing to do, or the body's error
  setBit(A.col(v), u);
  if (reaches) return true;
  Word* gain = scratch;
  Word* y = gain + wpc;
  for (std::uint64_t q = 0; q < wpc; ++q) gain[q] = C.col(u)[q] & ~C.col(v)[q];
  setBit(gain, u);  // u itself (it does not reach v)
  gatherRow(C.t, wpc, n, v, y);
  setBit(y, v);
  orIntoColumns(C, y, gain, n);
  return true;
}

bool closureDeleteWords(std::uint64_t* a, std::uint64_t* c, std::uint64_t n, std::uint64_t u,
                        std::uint64_t v, std::uint64_t* scratch) {
  const std::uint64_t wpc = (n + 63) / 64;
  const Columns A{a, wpc}, C{c, wpc};
  if (!A.at(u, v) || !C.at(u, v)) return false;  // the body's errors
  Word* up = scratch;                            // U, then U'
  Word* g = up + wpc;                            // G
  Word* f = g + wpc;                             // the search's frontier, then the exits
  Word* y = f + wpc;                             // Y (a row of C: over columns)
  Word* src = y + wpc;                           // a column's rows of U'
  Word* xw = src + wpc;                          // a pivot's columns within Y
  clearBit(A.col(v), u);
  for (std::uint64_t q = 0; q < wpc; ++q) {
    up[q] = C.col(u)[q];
    g[q] = 0;
  }
  setBit(up, u);
  // 1. G: the rows of U that still reach v. The targets: v, and the rows outside U reaching v.
  Word* tgt = src;
  for (std::uint64_t q = 0; q < wpc; ++q) tgt[q] = C.col(v)[q] & ~up[q];
  setBit(tgt, v);
  if (ones(tgt, wpc) <= ones(up, wpc)) {
    for (std::uint64_t q = 0; q < wpc; ++q) f[q] = tgt[q];
  } else {
    for (std::uint64_t j = 0; j < n; ++j) {  // the rows of U with an arc to a target
      if (!bitOf(tgt, j)) continue;
      for (std::uint64_t q = 0; q < wpc; ++q) g[q] |= A.col(j)[q] & up[q];
    }
    if (bitOf(g, u)) return true;
    for (std::uint64_t q = 0; q < wpc; ++q) f[q] = g[q];
  }
  for (std::uint64_t k = step(f, wpc, n); k < n; k = step(f, wpc, n)) {
    throwIfInterrupted();
    Word* newg = src;
    for (std::uint64_t q = 0; q < wpc; ++q) newg[q] = A.col(k)[q] & up[q] & ~g[q];
    if (bitOf(newg, u)) return true;  // u still reaches v: nothing changes
    for (std::uint64_t q = 0; q < wpc; ++q) {
      g[q] |= newg[q];
      f[q] |= newg[q];
    }
  }
  for (std::uint64_t q = 0; q < wpc; ++q) up[q] &= ~g[q];  // U': the rows that change
  gatherRow(C.t, wpc, n, v, y);
  setBit(y, v);  // Y: the columns in which they may change
  // 2. The rectangle U' x Y := the arcs there.
  for (std::uint64_t j = 0; j < n; ++j) {
    if (!bitOf(y, j)) continue;
    Word* cj = C.col(j);
    const Word* aj = A.col(j);
    for (std::uint64_t q = 0; q < wpc; ++q) cj[q] = (cj[q] & ~up[q]) | (aj[q] & up[q]);
  }
  // 3. The exits (out-neighbours of U' outside it, whose rows are final) give U' their rows.
  for (std::uint64_t q = 0; q < wpc; ++q) f[q] = 0;
  for (std::uint64_t k = 0; k < n; ++k) {
    if (bitOf(up, k)) continue;
    const Word* ak = A.col(k);
    for (std::uint64_t q = 0; q < wpc; ++q)
      if (ak[q] & up[q]) {
        setBit(f, k);
        break;
      }
  }
  for (std::uint64_t k = step(f, wpc, n); k < n; k = step(f, wpc, n)) {
    throwIfInterrupted();
    for (std::uint64_t q = 0; q < wpc; ++q) src[q] = A.col(k)[q] & up[q];
    gatherRow(C.t, wpc, n, k, xw);
    for (std::uint64_t q = 0; q < wpc; ++q) xw[q] &= y[q];
    orIntoColumns(C, xw, src, n);
  }
  // 4. Warshall with the pivots of U', inside the rectangle, in increasing order.
  for (std::uint64_t k = 0; k < n; ++k) {
    if (!bitOf(up, k)) continue;
    throwIfInterrupted();
    for (std::uint64_t q = 0; q < wpc; ++q) src[q] = C.col(k)[q] & up[q];
    if (!any(src, wpc)) continue;
    gatherRow(C.t, wpc, n, k, xw);
    for (std::uint64_t q = 0; q < wpc; ++q) xw[q] &= y[q];
    orIntoColumns(C, xw, src, n);
  }
  return true;
}

}  // namespace star::cpu
