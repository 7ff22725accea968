// The device engine's PFOR (EngineCore.h's Core, every thread of the team): a parallel loop the
// compiler planned for the engine (LoopInfo), run as one pass of the team over the table.
#pragma once

#include <cstdint>

#include "core/BitLayout.h"
#include "vm/bytecode/Opcodes.h"
#include "vm/engine/EngineCore.h"

namespace star::engine {

// PFOR. A loop the engine runs itself (LoopInfo) is one pass over the selected columns (or
// rows) of the table, then what the sequential loop leaves: the selector emptied (the STEP
// forms), the loop variable. Whatever would make an iteration fail (an index outside the table,
// lengths that differ) hands the loop to the host, which runs it, or its sequential code, and
// reports what that finds.
template <class Team>
STAR_HD void Core<Team>::parallelLoop(Ctl& next) {
  Header& h = *s_.h;
  if (!(h.flags & kFlagParallelLoops)) return;  // the loop's sequential code follows
  const FunctionInfo& f = p_.functions[fn_];
  if (a_[0] >= f.nLoops) return stop(next, StopReason::Loop);
  const LoopInfo& L = p_.loops[f.loops + a_[0]];
  if (L.kind == kLoopHost) return stop(next, StopReason::Loop);
  const Shape& T = S(static_cast<std::uint32_t>(R(L.table)));
  const Shape& X = S(static_cast<std::uint32_t>(R(L.update)));
  const Shape& V = S(static_cast<std::uint32_t>(R(L.temp)));
  const Shape& sel = S(static_cast<std::uint32_t>(R(L.selector)));
  const bool cols = L.kind == kLoopColumns;
  const std::uint64_t length = cols ? T.rows : T.cols;  // v's
  std::uint64_t from = 1, to = sel.rows;
  if (L.form == kForIf) {
    const std::int64_t a = static_cast<std::int64_t>(R(L.first)), b = static_cast<std::int64_t>(R(L.last));
    if (a > b || a < 1 || static_cast<std::uint64_t>(b) > sel.rows) return stop(next, StopReason::Loop);
    from = static_cast<std::uint64_t>(a);
    to = static_cast<std::uint64_t>(b);
  }
  if (to > (cols ? T.cols : T.rows) || X.rows != length || (V.fixed && V.rows != length))
    return stop(next, StopReason::Loop);
  if (L.tempLiveOut && !roomFor(static_cast<std::uint32_t>(R(L.temp)), wordsForBits(length)))
    return stop(next, StopReason::Storage);

  // Each selector word is taken by one block: only that block reads it and writes the cells of
  // its iterations, so the block may clear it after a block barrier.
  const std::uint64_t blocks = t_.size() / t_.blockSize(), block = t_.rank() / t_.blockSize();
  const std::uint64_t wpc = wordsForBits(T.rows), lastWord = to == 0 ? 0 : (to - 1) / 64;
  const std::uint64_t firstWord = (from - 1) / 64, words = to < from ? 0 : lastWord - firstWord + 1;
  Word* s = sel.data;
  const Word* x = X.data;
  Word* t = T.data;
  const Op op = static_cast<Op>(L.op);
  std::uint64_t count = 0, last = 0;
  for (std::uint64_t q = firstWord + block; q < firstWord + words; q += blocks) {
    Word m = s[q];
    if (q == firstWord) m &= ~Word{0} << ((from - 1) % 64);
    if (q == lastWord) m &= tailMask(to - q * 64);
    if (!m) continue;
    if (cols) {  // column i of the word's iterations: t's words of it op= x's
      for (std::uint64_t k = t_.blockRank(); k < 64 * wpc; k += t_.blockSize()) {
        const std::uint64_t bit = k / wpc, w = k % wpc;
        if (!((m >> bit) & 1)) continue;
        Word& c = t[(q * 64 + bit) * wpc + w];
        c = combine(op, c, x[w]);
      }
    } else {  // rows: word q of every column j holds the word's iterations' cells of column j
      for (std::uint64_t j = t_.blockRank(); j < T.cols; j += t_.blockSize()) {
        const Word xj = ((x[j / 64] >> (j % 64)) & 1) ? kAllOnes : 0;  // bit j of x, in every row
        Word& c = t[j * wpc + q];
        c = (c & ~m) | (combine(op, c, xj) & m);
      }
    }
    count += static_cast<std::uint64_t>(popCount(m));
    last = q * 64 + 64 - static_cast<std::uint64_t>(countLeadingZeros(m));
  }
  if (L.form == kStepWhile || L.form == kSomeStep) {
    t_.syncBlock();
    for (std::uint64_t q = firstWord + block + blocks * t_.blockRank(); q < firstWord + words;
         q += blocks * t_.blockSize())
      s[q] = 0;
  }
  // Each block's leader counted its words (every thread of the block did the same).
  const bool stats = (h.flags & kFlagStats) != 0;
  const std::uint64_t iterations = stats ? t_.reduceSum(t_.leader() ? count : 0) : 0;
  const bool wantLast = (L.form == kSomeStep && L.indexLiveOut) || L.tempLiveOut;
  const std::uint64_t lastIndex = wantLast ? ~t_.reduceMin(~(t_.leader() ? last : 0)) : 0;
  t_.syncData();
  // v, read after the loop, as the last iteration left it: that iteration's updated cells.
  if (L.tempLiveOut && lastIndex > 0) {
    Word* v = V.data;
    if (cols) copyWords(t_, v, t + (lastIndex - 1) * wpc, wpc);
    else gatherRow(t_, v, T, lastIndex - 1);
    t_.syncData();
    if (t_.leader()) S(static_cast<std::uint32_t>(R(L.temp))).rows = length;
  }
  if (!t_.leader()) return;
  ++h.loopsRun;
  h.loopIterations += iterations;
  if (L.form == kForall || L.form == kStepWhile) R(L.index) = 0;
  else if (L.form == kForIf) R(L.index) = R(L.last);
  else if (wantLast && lastIndex > 0) R(L.index) = lastIndex;
  next.pc = L.exit;
}

}  // namespace star::engine
