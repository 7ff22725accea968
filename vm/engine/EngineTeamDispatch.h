// The device engine's instructions on the bits (EngineCore.h's Core, every thread of the team):
// teamOp decodes an instruction's operands, makes the host interpreter's checks (a failed one
// stops the run before any effect, and the host executes the instruction), runs one of
// EngineTeamOps.h's operations, and after the team's barrier the leader sets the result's shape.
// Decisions read only what no thread writes before the step's end, so every thread decides alike.
#pragma once

#include <cstdint>

#include "core/BitLayout.h"
#include "core/CheckedMath.h"
#include "core/HostFloat.h"
#include "vm/bytecode/Opcodes.h"
#include "vm/engine/EngineCore.h"
#include "vm/engine/EngineTeamOps.h"
#include "vm/semantics/Scalar.h"

namespace star::engine {

// BAND, BOR, BXOR, BNOT, BFRST.
template <class Team>
template <class Ops>
STAR_HD void Core<Team>::bitwise(Op op, Ops& o, Ctl& next) {
  const std::uint32_t d = o.H(0), x = o.H(1);
  const std::uint64_t len = S(x).rows;
  if (op != Op::BNOT && op != Op::BFRST && S(o.H(2)).rows != len) return stop(next, StopReason::Error);
  if (!fitsBits(d, len)) return stop(next, StopReason::Error);
  const std::uint64_t n = wordsForBits(len);
  if (!roomFor(d, n)) return stop(next, StopReason::Storage);
  Word* D = S(d).data;
  const Word* X = S(x).data;
  if (op == Op::BFRST) {
    teamFirstOne(t_, D, X, n);
    t_.syncData();
  } else {
    beforeOwnedWrite(d);
    if (op == Op::BNOT) teamNot(t_, D, X, len);
    else teamCombine(t_, op, D, X, S(o.H(2)).data, n);
    wrote(d);
  }
  setRows(d, len);
}

// TGETCOL, TGETROW: a column or a row of a table into a bit vector.
template <class Team>
template <class Ops>
STAR_HD void Core<Team>::getLine(Op op, Ops& o, Ctl& next) {
  const std::uint32_t d = o.H(0);
  const Shape& t = S(o.H(1));
  const std::int64_t at = o.I(2);
  const bool col = op == Op::TGETCOL;
  if (!sem::inRange(at, col ? t.cols : t.rows)) return stop(next, StopReason::Error);
  const std::uint64_t len = col ? t.rows : t.cols;
  if (!fitsBits(d, len)) return stop(next, StopReason::Error);
  if (!roomFor(d, wordsForBits(len))) return stop(next, StopReason::Storage);
  const std::uint64_t k = static_cast<std::uint64_t>(at - 1);
  if (col) {
    beforeOwnedWrite(d);
    teamGetColumn(t_, S(d).data, t, k);
    wrote(d);
  } else {
    teamGetRow(t_, S(d).data, t, k);
    t_.syncData();
  }
  setRows(d, len);
}

// TSETCOL, TSETROW: a bit vector into a column or a row of a table.
template <class Team>
template <class Ops>
STAR_HD void Core<Team>::setLine(Op op, Ops& o, Ctl& next) {
  const Shape& t = S(o.H(0));
  const Shape& src = S(o.H(2));
  const std::int64_t at = o.I(1);
  const bool col = op == Op::TSETCOL;
  if (!sem::inRange(at, col ? t.cols : t.rows) || src.rows != (col ? t.rows : t.cols))
    return stop(next, StopReason::Error);
  const std::uint64_t k = static_cast<std::uint64_t>(at - 1);
  if (col) {
    beforeOwnedWrite(o.H(0));
    teamSetColumn(t_, t, k, src.data);
    wrote(o.H(0));
  } else {
    teamSetRow(t_, t, k, src.data);
    t_.syncData();
  }
}

template <class Team>
template <class Ops>
STAR_HD void Core<Team>::teamOp(Op op, Ops& o, Ctl& next) {
  // The commonest first, behind range tests (as in leaderOp).
  if (within(op, Op::BAND, Op::BFRST)) return bitwise(op, o, next);
  if (op == Op::TGETCOL || op == Op::TGETROW) return getLine(op, o, next);
  if (op == Op::TSETCOL || op == Op::TSETROW) return setLine(op, o, next);
  switch (op) {
    case Op::BNEW: {
      const std::uint32_t d = o.H(0);
      const std::int64_t n = o.I(1);
      if (n < 0) return stop(next, StopReason::Error);
      const std::uint64_t words = wordsForBits(static_cast<std::uint64_t>(n));
      if (!roomFor(d, words)) return stop(next, StopReason::Storage);
      beforeOwnedWrite(d);
      fillWords(t_, S(d).data, words, 0);
      wrote(d);
      setShape(d, static_cast<std::uint64_t>(n), S(d).cols, o.imm(2));
      return;
    }
    case Op::BCONST: {
      const std::uint32_t d = o.H(0);
      const std::uint64_t len = p_.constLength[o.imm(1)];
      if (!fitsBits(d, len)) return stop(next, StopReason::Error);
      if (!roomFor(d, wordsForBits(len))) return stop(next, StopReason::Storage);
      beforeOwnedWrite(d);
      copyWords(t_, S(d).data, p_.constWords + p_.constBits[o.imm(1)], wordsForBits(len));
      wrote(d);
      setRows(d, len);
      return;
    }
    case Op::BCOPY: {
      const std::uint32_t d = o.H(0), x = o.H(1);
      if (d == x) return;
      const std::uint64_t len = S(x).rows;
      if (!fitsBits(d, len)) return stop(next, StopReason::Error);
      if (!roomFor(d, wordsForBits(len))) return stop(next, StopReason::Storage);
      beforeOwnedWrite(d);
      copyWords(t_, S(d).data, S(x).data, wordsForBits(len));
      wrote(d);
      setRows(d, len);
      return;
    }
    case Op::BFILL: {
      const Shape& d = S(o.H(0));
      beforeOwnedWrite(o.H(0));
      teamFill(t_, d.data, d.rows, o.imm(1) != 0);
      wrote(o.H(0));
      return;
    }
    case Op::BFND: case Op::BSTEP: {
      const Shape& x = S(o.H(1));
      // BSTEP writes a word another thread owns: not owned, settled before (Core::team).
      const std::uint64_t first = findFirst(t_, x.data, wordsForBits(x.rows));
      if (op == Op::BFND) reduced();
      if (op == Op::BSTEP) {
        if (first != kNone) teamSetBit(t_, x.data, first, false);
        t_.syncData();
      }
      o.put(0, first == kNone ? 0 : static_cast<std::int64_t>(first) + 1);
      return;
    }
    case Op::BNUMB: case Op::BSOME: {
      const Shape& x = S(o.H(1));
      const std::uint64_t n = wordsForBits(x.rows);
      const std::int64_t r = op == Op::BNUMB ? static_cast<std::int64_t>(teamCountOnes(t_, x.data, n)) : teamAnyOne(t_, x.data, n);
      reduced();
      o.put(0, r);
      return;
    }
    case Op::BSET: {
      const Shape& x = S(o.H(0));
      const std::int64_t i = o.I(1), v = o.I(2);
      if (!sem::inRange(i, x.rows) || !sem::isComponent(v))
        return stop(next, StopReason::Error);
      teamSetBit(t_, x.data, static_cast<std::uint64_t>(i - 1), v != 0);
      t_.syncData();
      return;
    }
    case Op::WEQ: case Op::WNE: case Op::WLT: case Op::WLE: case Op::WGT: case Op::WGE: {
      const Shape& x = S(o.H(1));
      const Shape& y = S(o.H(2));
      if (x.rows != y.rows) return stop(next, StopReason::Error);
      const int c = teamCompareWords(t_, x.data, y.data, wordsForBits(x.rows));
      // Read after the reduction's barrier: the next write of bits waits for every block.
      if (c != 0) pendingReads_ = true;
      const bool r = op == Op::WEQ ? c == 0 : op == Op::WNE ? c != 0 : op == Op::WLT ? c < 0
                     : op == Op::WLE ? c <= 0 : op == Op::WGT ? c > 0 : c >= 0;
      o.put(0, r);
      return;
    }
    case Op::WADD: case Op::WSUB: {
      const std::uint32_t d = o.H(0);
      const Shape& x = S(o.H(1));
      const Shape& y = S(o.H(2));
      if (x.rows != y.rows || !fitsBits(d, x.rows)) return stop(next, StopReason::Error);
      const std::uint64_t len = x.rows, n = wordsForBits(len);
      if (!roomFor(d, n)) return stop(next, StopReason::Storage);
      teamAddWords(t_, op == Op::WSUB, S(d).data, x.data, y.data, n);
      t_.syncData();
      setRows(d, len);
      return;
    }
    case Op::WTRIM: {
      const std::uint32_t d = o.H(0), src = o.H(3);
      const std::uint64_t len = S(src).rows;
      const std::int64_t i = o.I(1), j = o.I(2);
      if (!sem::inRange(i, len) || !sem::inRange(j, len) || j < i)
        return stop(next, StopReason::Error);
      if (d == src) return stop(next, StopReason::Other);
      const std::uint64_t n = static_cast<std::uint64_t>(j - i + 1);
      if (!fitsBits(d, n)) return stop(next, StopReason::Error);
      if (!roomFor(d, wordsForBits(n))) return stop(next, StopReason::Storage);
      teamTrim(t_, S(d).data, S(src).data, wordsForBits(len), static_cast<std::uint64_t>(i - 1), n);
      t_.syncData();
      setRows(d, n);
      return;
    }
    case Op::WREP: {
      const std::uint32_t v = o.H(2), w = o.H(3);
      const std::uint64_t len = S(w).rows;
      const std::int64_t i = o.I(0), j = o.I(1);
      if (!sem::inRange(i, len) || !sem::inRange(j, len) || j < i ||
          S(v).rows != static_cast<std::uint64_t>(j - i + 1))
        return stop(next, StopReason::Error);
      if (v == w) return stop(next, StopReason::Other);
      teamReplace(t_, S(w).data, S(v).data, static_cast<std::uint64_t>(i - 1), S(v).rows);
      t_.syncData();
      return;
    }
    case Op::WBIN: case Op::WSBIN: case Op::WFBIN: {
      const std::uint32_t d = o.H(0);
      const std::int64_t k = o.I(2);
      Word packed = 0;
      if (op == Op::WBIN) {
        const std::int64_t n = o.I(1);
        if (k < 1 || n < 0 || (k < 63 && n >= (std::int64_t{1} << k))) return stop(next, StopReason::Error);
      } else if (op == Op::WSBIN) {
        const std::int64_t n = o.I(1);
        if (k < 1 || k > 64 || !fitsSigned(n, static_cast<unsigned>(k))) return stop(next, StopReason::Error);
        packed = numberToWord(lowBits(static_cast<std::uint64_t>(n), static_cast<unsigned>(k)), static_cast<std::uint64_t>(k));
      } else {
        if (k != 32 && k != 64) return stop(next, StopReason::Error);
        packed = sem::realToWordBits(o.F(1), static_cast<std::uint64_t>(k));
      }
      const std::uint64_t len = static_cast<std::uint64_t>(k);
      if (!fitsBits(d, len)) return stop(next, StopReason::Error);
      if (!roomFor(d, wordsForBits(len))) return stop(next, StopReason::Storage);
      if (op == Op::WBIN) teamUnsignedBits(t_, S(d).data, o.I(1), len);
      else teamSetWord(t_, S(d).data, packed);
      t_.syncData();
      setRows(d, len);
      return;
    }
    case Op::TNEW: {
      const std::uint32_t d = o.H(0);
      const std::int64_t r = o.I(1), c = o.I(2);
      if (r < 0 || c < 0) return stop(next, StopReason::Error);
      const std::uint64_t wpc = wordsForBits(static_cast<std::uint64_t>(r));
      const std::uint64_t cols = static_cast<std::uint64_t>(c);
      // A table of no columns needs the room of one (its rows count against the memory limit,
      // as on the host, which refuses a shape that cannot fit).
      const std::uint64_t counted = cols != 0 ? cols : 1;
      if (wpc > ~std::uint64_t{0} / sizeof(Word) / counted) return stop(next, StopReason::Storage);
      if (!roomFor(d, counted * wpc)) return stop(next, StopReason::Storage);
      fillWords(t_, S(d).data, cols * wpc, 0);
      t_.syncData();
      setShape(d, static_cast<std::uint64_t>(r), cols, o.imm(3));
      return;
    }
    case Op::TCOPY: {
      const std::uint32_t d = o.H(0), x = o.H(1);
      if (d == x) return;
      const Shape& src = S(x);
      if (!fitsTable(d, src.rows, src.cols)) return stop(next, StopReason::Error);
      if (!roomFor(d, valueWords(src))) return stop(next, StopReason::Storage);
      copyWords(t_, S(d).data, src.data, valueWords(src));
      t_.syncData();
      setShape(d, src.rows, src.cols, S(d).fixed);
      return;
    }
    case Op::TEQ: {
      const std::uint32_t x = o.H(1), y = o.H(2);
      const bool sameShape = S(x).rows == S(y).rows && S(x).cols == S(y).cols;
      // Every thread reduces (also when nothing is compared): the barrier in it orders every
      // read of this step before the leader's write.
      const bool differ = teamWordsDiffer(t_, S(x).data, S(y).data, sameShape && x != y ? valueWords(S(x)) : 0);
      o.put(0, sameShape && !differ);
      return;
    }
    case Op::PFOR: return parallelLoop(next);
    default:
      return stop(next, StopReason::Other);
  }
}

}  // namespace star::engine
