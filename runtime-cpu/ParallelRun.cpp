#include "runtime-cpu/ParallelRun.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/BitLayout.h"
#include "core/HostFloat.h"
#include "vm/backend/FusedUpdate.h"
#include "vm/engine/EngineReads.h"
#include "vm/semantics/ScalarOps.h"

namespace star::cpu {
namespace {

using Word = std::uint64_t;

// At most this many words of private vectors at once: iterations run in chunks beyond it.
constexpr std::uint64_t kChunkWords = std::uint64_t{8} << 20;  // 64 MB

// A bit vector as an operand: its words and length.
struct Bits {
  Word* w;
  std::uint64_t len;
  std::uint64_t words() const { return wordsForBits(len); }
};

// One chunk of iterations: their private scalars and vectors, where each is in the body, and
// the first fault.
class Chunk {
 public:
  Chunk(const ParallelPlan& plan, Storage& storage, const std::int64_t* index, std::size_t n)
      : plan_(plan), storage_(storage), index_(index), n_(n),
        scalars_(n * plan.scalarSlots, 0), pc_(n, 0),
        lastScalarWriter_(plan.scalarSlots, -1), lastBitsWriter_(plan.bitsSlotLength.size(), -1) {
    bitsBase_.resize(plan.bitsSlotLength.size());
    for (std::size_t s = 0; s < plan.bitsSlotLength.size(); ++s) {
      bitsBase_[s] = bitsTotal_;
      bitsTotal_ += n * wordsForBits(plan.bitsSlotLength[s]);
    }
  }

  // Runs every instruction for every iteration of the chunk; returns the position of the first
  // failing iteration (n when none).
  std::size_t run() {
    const std::uint32_t end = static_cast<std::uint32_t>(plan_.ops.size());
    std::vector<std::size_t> active;
    active.reserve(n_);
    for (std::uint32_t k = 0; k < end; ++k) {
      active.clear();
      for (std::size_t p = 0; p < n_; ++p)
        if (pc_[p] == k) active.push_back(p);
      if (active.empty()) continue;
      if (auto update = fusedUpdateAt(plan_, k)) {
        fusedUpdate(*update, k, active);
        for (std::size_t p : active)
          if (pc_[p] == k) pc_[p] = k + 3;  // (an out-of-range iteration has stopped)
        k += 2;
        continue;
      }
      const PlanOp& op = plan_.ops[k];
      for (std::size_t p : active) pc_[p] = k + 1;
      for (std::size_t p : active) execute(op, k, p);
    }
    return faultPos_;
  }

  // The papers' update (vm/backend/FusedUpdate.h): one pass over the column (row) in place, the
  // way the papers' hand-written kernel does it. v's value is kept when a later instruction or
  // the code after the loop reads it.
  void fusedUpdate(const FusedUpdate& u, std::uint32_t k, const std::vector<std::size_t>& active) {
    const bool col = u.columns, row = !u.columns, keep = u.keep;
    const PlanOperand &v = *u.v, *x = u.x;
    const Handle t = u.table;
    const std::uint64_t rows = storage_.rowsOf(t), cols = storage_.colsOf(t), wpc = wordsForBits(rows);
    Word* words = storage_.wordsOf(t);
    if (row && x->source == Source::Shared) {
      // The same x for every row: column by column, every selected row at once (a mask of them).
      std::vector<Word> mask(wpc, 0);
      for (std::size_t p : active)
        if (inRange(p, k, index_[p], rows)) {
          std::uint64_t r = static_cast<std::uint64_t>(index_[p] - 1);
          mask[r / 64] |= Word{1} << (r % 64);
        }
      Bits xs = b(*x, active.front());
      for (std::uint64_t j = 0; j < cols; ++j) {
        Word* c = words + j * wpc;
        bool bit = (xs.w[j / 64] >> (j % 64)) & 1;
        if (u.op == Op::BOR && bit) for (std::uint64_t w = 0; w < wpc; ++w) c[w] |= mask[w];
        else if (u.op == Op::BAND && !bit) for (std::uint64_t w = 0; w < wpc; ++w) c[w] &= ~mask[w];
        else if (u.op == Op::BXOR && bit) for (std::uint64_t w = 0; w < wpc; ++w) c[w] ^= mask[w];
      }
      if (keep)
        for (std::size_t p : active) {
          if (pc_[p] == plan_.ops.size()) continue;  // out of range: stopped
          const std::uint64_t r = static_cast<std::uint64_t>(index_[p] - 1), q = r / 64;
          Bits d = written(v, p);
          std::fill_n(d.w, d.words(), 0);
          for (std::uint64_t j = 0; j < cols; ++j)
            if ((words[j * wpc + q] >> (r % 64)) & 1) d.w[j / 64] |= Word{1} << (j % 64);
        }
      return;
    }
    const bool sharedX = x->source == Source::Shared;
    const Bits xShared = sharedX ? b(*x, active.front()) : Bits{nullptr, 0};
    for (std::size_t p : active) {
      const std::int64_t at = index_[p];
      if (!inRange(p, k, at, col ? cols : rows)) continue;
      const Bits xs = sharedX ? xShared : b(*x, p);
      if (col) {
        Word* c = words + static_cast<std::uint64_t>(at - 1) * wpc;
        if (u.op == Op::BOR) for (std::uint64_t w = 0; w < wpc; ++w) c[w] |= xs.w[w];
        else if (u.op == Op::BAND) for (std::uint64_t w = 0; w < wpc; ++w) c[w] &= xs.w[w];
        else for (std::uint64_t w = 0; w < wpc; ++w) c[w] ^= xs.w[w];
        if (keep) std::copy_n(c, wpc, written(v, p).w);
      } else {
        const std::uint64_t r = static_cast<std::uint64_t>(at - 1), q = r / 64;
        const unsigned shift = static_cast<unsigned>(r % 64);
        for (std::uint64_t j = 0; j < cols; ++j) {
          Word bit = (xs.w[j / 64] >> (j % 64)) & 1;
          Word& w = words[j * wpc + q];
          Word mine = (w >> shift) & 1;
          Word result = u.op == Op::BOR ? (mine | bit) : u.op == Op::BAND ? (mine & bit) : (mine ^ bit);
          w = (w & ~(Word{1} << shift)) | (result << shift);
        }
        if (keep) {
          Bits d = written(v, p);
          std::fill_n(d.w, d.words(), 0);
          for (std::uint64_t j = 0; j < cols; ++j)
            if ((words[j * wpc + q] >> shift) & 1) d.w[j / 64] |= Word{1} << (j % 64);
        }
      }
    }
  }

  const ParallelFault& fault() const { return fault_; }
  std::int64_t lastScalarWriter(std::uint32_t slot) const { return lastScalarWriter_[slot]; }
  std::int64_t lastBitsWriter(std::uint32_t slot) const { return lastBitsWriter_[slot]; }
  std::uint64_t scalar(std::size_t p, std::uint32_t slot) const { return scalars_[p * plan_.scalarSlots + slot]; }
  Bits privateBits(std::size_t p, std::uint32_t slot) {
    // Allocated (zeroed) on first use: a fused update that keeps no v never needs them, and a
    // pass is short enough that zeroing n private columns would cost as much as the pass.
    if (bits_.empty() && bitsTotal_ > 0) bits_.assign(bitsTotal_, 0);
    std::uint64_t len = plan_.bitsSlotLength[slot];
    return {bits_.data() + bitsBase_[slot] + p * wordsForBits(len), len};
  }

 private:
  // ---- operands
  std::uint64_t s(const PlanOperand& o, std::size_t p) const {
    switch (o.source) {
      case Source::Private: return scalars_[p * plan_.scalarSlots + o.slot];
      case Source::Index: return static_cast<std::uint64_t>(index_[p]);
      default: return o.value;
    }
  }
  std::int64_t i(const PlanOperand& o, std::size_t p) const { return static_cast<std::int64_t>(s(o, p)); }
  void setS(const PlanOperand& o, std::size_t p, std::uint64_t v) {
    scalars_[p * plan_.scalarSlots + o.slot] = v;
    lastScalarWriter_[o.slot] = std::max<std::int64_t>(lastScalarWriter_[o.slot], static_cast<std::int64_t>(p));
  }
  void setI(const PlanOperand& o, std::size_t p, std::int64_t v) { setS(o, p, static_cast<std::uint64_t>(v)); }
  Bits b(const PlanOperand& o, std::size_t p) {
    if (o.source == Source::Private) return privateBits(p, o.slot);
    return {storage_.wordsOf(o.handle), storage_.rowsOf(o.handle)};
  }
  Bits written(const PlanOperand& o, std::size_t p) {
    lastBitsWriter_[o.slot] = std::max<std::int64_t>(lastBitsWriter_[o.slot], static_cast<std::int64_t>(p));
    return privateBits(p, o.slot);
  }

  void fail(std::size_t p, std::uint32_t op, FaultKind kind, std::int64_t v0 = 0, std::int64_t v1 = 0) {
    pc_[p] = static_cast<std::uint32_t>(plan_.ops.size());  // this iteration stops
    if (p >= faultPos_) return;
    faultPos_ = p;
    fault_ = {kind, index_[p], op, {v0, v1}};
  }

  // 1-based index `at` into a range of `limit`: true when it is in range; a fault otherwise.
  bool inRange(std::size_t p, std::uint32_t k, std::int64_t at, std::uint64_t limit) {
    if (sem::inRange(at, limit)) return true;
    fail(p, k, FaultKind::IndexRange, at, static_cast<std::int64_t>(limit));
    return false;
  }

  void execute(const PlanOp& op, std::uint32_t k, std::size_t p) {
    const PlanOperand* a = op.a;
    auto jumpTo = [&](std::uint32_t t) { pc_[p] = t; };
    switch (op.op) {
      case Op::LOADI: case Op::LOADK: setS(a[0], p, a[1].value); break;
      case Op::MOVE: setS(a[0], p, s(a[1], p)); break;
      // The scalar operations (vm/semantics/ScalarOps.h): one case each, from Opcodes.def.
#define STAR_SCALAR_CASE(name)                                                              \
  case Op::name: {                                                                          \
    const std::uint64_t x = s(a[1], p), y = operandCount(Op::name) > 2 ? s(a[2], p) : 0;    \
    std::uint64_t r;                                                                        \
    const FaultKind fault = scalarOp<Op::name>(x, y, r);                                    \
    if (fault != FaultKind::None) return fail(p, k, fault, static_cast<std::int64_t>(x));   \
    setS(a[0], p, r);                                                                       \
    break;                                                                                  \
  }
#define STAR_HOST_MATH_CASE(name) STAR_SCALAR_CASE(name)
#include "vm/semantics/ScalarCases.inc"
      case Op::JMP: jumpTo(op.target); break;
      case Op::JMPF: if (!i(a[0], p)) jumpTo(op.target); break;
      case Op::JMPT: if (i(a[0], p)) jumpTo(op.target); break;
      case Op::RAISE: return fail(p, k, FaultKind::Raise, static_cast<std::int64_t>(s(a[0], p)));

      // ---- bit vectors
      case Op::BCONST: {
        Bits d = written(a[0], p);
        std::copy_n(plan_.constantWords[a[1].slot].data(), d.words(), d.w);
        break;
      }
      case Op::BCOPY: {
        Bits src = b(a[1], p);
        Bits d = written(a[0], p);
        if (d.words()) std::memmove(d.w, src.w, d.words() * sizeof(Word));  // empty: maybe no storage
        break;
      }
      case Op::BFILL: {
        Bits d = written(a[0], p);
        std::fill_n(d.w, d.words(), a[1].value ? kAllOnes : 0);
        if (a[1].value && d.words()) d.w[d.words() - 1] &= tailMask(d.len);
        break;
      }
      case Op::BAND: case Op::BOR: case Op::BXOR: {
        Bits x = b(a[1], p), y = b(a[2], p);
        Bits d = written(a[0], p);
        const std::uint64_t n = d.words();
        if (op.op == Op::BAND) for (std::uint64_t w = 0; w < n; ++w) d.w[w] = x.w[w] & y.w[w];
        else if (op.op == Op::BOR) for (std::uint64_t w = 0; w < n; ++w) d.w[w] = x.w[w] | y.w[w];
        else for (std::uint64_t w = 0; w < n; ++w) d.w[w] = x.w[w] ^ y.w[w];
        break;
      }
      case Op::BNOT: {
        Bits x = b(a[1], p);
        Bits d = written(a[0], p);
        for (std::uint64_t w = 0; w < d.words(); ++w) d.w[w] = ~x.w[w];
        if (d.words()) d.w[d.words() - 1] &= tailMask(d.len);
        break;
      }
      case Op::BFRST: {
        Bits x = b(a[1], p);
        Bits d = written(a[0], p);
        bool seen = false;
        for (std::uint64_t w = 0; w < d.words(); ++w) {
          Word v = seen ? 0 : x.w[w] & (0 - x.w[w]);
          seen = seen || v;
          d.w[w] = v;
        }
        break;
      }
      case Op::BFND: case Op::BSTEP: {
        Bits x = op.op == Op::BSTEP ? written(a[1], p) : b(a[1], p);
        std::int64_t found = 0;
        for (std::uint64_t w = 0; w < x.words(); ++w)
          if (x.w[w]) {
            unsigned bit = static_cast<unsigned>(std::countr_zero(x.w[w]));
            found = static_cast<std::int64_t>(w * 64 + bit) + 1;
            if (op.op == Op::BSTEP) x.w[w] &= x.w[w] - 1;
            break;
          }
        setI(a[0], p, found);
        break;
      }
      case Op::BNUMB: {
        Bits x = b(a[1], p);
        std::int64_t n = 0;
        for (std::uint64_t w = 0; w < x.words(); ++w) n += std::popcount(x.w[w]);
        setI(a[0], p, n);
        break;
      }
      case Op::BSOME: {
        Bits x = b(a[1], p);
        bool any = false;
        for (std::uint64_t w = 0; w < x.words() && !any; ++w) any = x.w[w] != 0;
        setI(a[0], p, any);
        break;
      }
      case Op::BLEN: setI(a[0], p, static_cast<std::int64_t>(b(a[1], p).len)); break;
      case Op::BGET: {
        Bits x = b(a[1], p);
        std::int64_t at = i(a[2], p);
        if (!inRange(p, k, at, x.len)) return;
        std::uint64_t bit = static_cast<std::uint64_t>(at - 1);
        setI(a[0], p, (x.w[bit / 64] >> (bit % 64)) & 1);
        break;
      }
      case Op::BSET: {
        Bits x = a[0].source == Source::Private ? written(a[0], p) : b(a[0], p);
        std::int64_t at = i(a[1], p), v = i(a[2], p);
        if (!inRange(p, k, at, x.len)) return;
        if (!sem::isComponent(v)) return fail(p, k, FaultKind::ComponentValue, v);
        std::uint64_t bit = static_cast<std::uint64_t>(at - 1);
        if (v) x.w[bit / 64] |= Word{1} << (bit % 64);
        else x.w[bit / 64] &= ~(Word{1} << (bit % 64));
        break;
      }
      // VAL and FVAL of a word, FBIN of a real: the plan checked the lengths (the sequential code
      // reports any that would fail), so none faults here.
      case Op::WVAL: case Op::WFVAL: {
        const Bits x = b(a[1], p);
        Word v = 0;
        engine::readShape(op.op, engine::Shape{x.w, x.len, 1, x.words(), 1, 0}, 0, v);
        setS(a[0], p, v);
        break;
      }
      case Op::WFBIN: {
        Bits d = written(a[0], p);
        const std::uint64_t k = d.len;
        const double r = std::bit_cast<double>(s(a[1], p));
        d.w[0] = sem::realToWordBits(r, k);
        break;
      }
      case Op::WEQ: case Op::WNE: case Op::WLT: case Op::WLE: case Op::WGT: case Op::WGE: {
        Bits x = b(a[1], p), y = b(a[2], p);
        int c = 0;
        for (std::uint64_t w = 0; w < x.words() && c == 0; ++w)
          if (Word diff = x.w[w] ^ y.w[w]) {
            Word top = diff & (0 - diff);  // the most significant differing bit (bit 0 first)
            c = (x.w[w] & top) ? 1 : -1;
          }
        bool r = op.op == Op::WEQ ? c == 0 : op.op == Op::WNE ? c != 0 : op.op == Op::WLT ? c < 0
                 : op.op == Op::WLE ? c <= 0 : op.op == Op::WGT ? c > 0 : c >= 0;
        setI(a[0], p, r);
        break;
      }

      // ---- tables
      case Op::TROWS: setI(a[0], p, static_cast<std::int64_t>(storage_.rowsOf(a[1].handle))); break;
      case Op::TCOLS: setI(a[0], p, static_cast<std::int64_t>(storage_.colsOf(a[1].handle))); break;
      case Op::TGETCOL: case Op::TSETCOL: {
        const PlanOperand& t = op.op == Op::TGETCOL ? a[1] : a[0];
        std::int64_t j = i(op.op == Op::TGETCOL ? a[2] : a[1], p);
        std::uint64_t rows = storage_.rowsOf(t.handle), cols = storage_.colsOf(t.handle);
        if (!inRange(p, k, j, cols)) return;
        Word* column = storage_.wordsOf(t.handle) + static_cast<std::uint64_t>(j - 1) * wordsForBits(rows);
        if (op.op == Op::TGETCOL) {
          Bits d = written(a[0], p);
          std::copy_n(column, d.words(), d.w);
        } else {
          Bits src = b(a[2], p);
          std::copy_n(src.w, src.words(), column);
        }
        break;
      }
      case Op::TGETROW: case Op::TSETROW: {
        const PlanOperand& t = op.op == Op::TGETROW ? a[1] : a[0];
        std::int64_t r = i(op.op == Op::TGETROW ? a[2] : a[1], p);
        std::uint64_t rows = storage_.rowsOf(t.handle), cols = storage_.colsOf(t.handle), wpc = wordsForBits(rows);
        if (!inRange(p, k, r, rows)) return;
        const std::uint64_t row = static_cast<std::uint64_t>(r - 1), q = row / 64;
        const Word mask = Word{1} << (row % 64);
        Word* words = storage_.wordsOf(t.handle);
        if (op.op == Op::TGETROW) {
          Bits d = written(a[0], p);
          std::fill_n(d.w, d.words(), 0);
          for (std::uint64_t j = 0; j < cols; ++j)
            if (words[j * wpc + q] & mask) d.w[j / 64] |= Word{1} << (j % 64);
        } else {
          Bits src = b(a[2], p);
          for (std::uint64_t j = 0; j < cols; ++j) {
            Word& w = words[j * wpc + q];
            w = ((src.w[j / 64] >> (j % 64)) & 1) ? (w | mask) : (w & ~mask);
          }
        }
        break;
      }
      default:
        break;  // not in a plan (isParallelOp)
    }
  }

  const ParallelPlan& plan_;
  Storage& storage_;
  const std::int64_t* index_;
  std::size_t n_;
  std::vector<std::uint64_t> scalars_;
  std::vector<Word> bits_;
  std::uint64_t bitsTotal_ = 0;
  std::vector<std::uint64_t> bitsBase_;
  std::vector<std::uint32_t> pc_;
  std::vector<std::int64_t> lastScalarWriter_, lastBitsWriter_;
  std::size_t faultPos_ = std::numeric_limits<std::size_t>::max();
  ParallelFault fault_;
};

}  // namespace

bool runParallel(const ParallelPlan& plan, ParallelOutcome& outcome, Storage& storage) {
  // The iterations, in increasing order.
  std::vector<std::int64_t> index;
  const Word* sel = storage.wordsOf(plan.selector);
  if (plan.from >= 1 && plan.from <= plan.to) {
    // The selector's 1s in [from, to], a word at a time.
    const std::uint64_t lo = plan.from - 1, hi = plan.to - 1;  // bit positions
    for (std::uint64_t q = lo / 64; q <= hi / 64; ++q) {
      Word w = sel[q];
      if (q == lo / 64) w &= ~Word{0} << (lo % 64);
      if (q == hi / 64) w &= tailMask(hi + 1);  // the bits up to `to`
      for (; w; w &= w - 1) index.push_back(static_cast<std::int64_t>(q * 64 + countTrailingZeros(w) + 1));
    }
  }
  outcome.iterations = index.size();
  outcome.lastIndex = index.empty() ? 0 : index.back();
  outcome.liveOutScalars.assign(plan.liveOut.size(), 0);
  outcome.liveOutWritten.assign(plan.liveOut.size(), 0);

  std::uint64_t wordsPerIteration = 1;
  for (std::uint64_t len : plan.bitsSlotLength) wordsPerIteration += wordsForBits(len);
  const std::size_t chunk = static_cast<std::size_t>(std::max<std::uint64_t>(1, kChunkWords / wordsPerIteration));
  for (std::size_t start = 0; start < index.size(); start += chunk) {
    const std::size_t n = std::min(chunk, index.size() - start);
    Chunk c(plan, storage, index.data() + start, n);
    std::size_t failed = c.run();
    // The last iteration (so far) that wrote each value needed after the loop.
    for (std::size_t k = 0; k < plan.liveOut.size(); ++k) {
      const auto& lo = plan.liveOut[k];
      std::int64_t p = lo.bits ? c.lastBitsWriter(lo.slot) : c.lastScalarWriter(lo.slot);
      if (p < 0) continue;
      outcome.liveOutWritten[k] = 1;
      if (lo.bits) {
        Bits v = c.privateBits(static_cast<std::size_t>(p), lo.slot);
        storage.assignBits(lo.handle, v.len, v.w);
      } else {
        outcome.liveOutScalars[k] = c.scalar(static_cast<std::size_t>(p), lo.slot);
      }
    }
    if (failed < n) {
      outcome.fault = c.fault();  // the lowest failing iteration: later chunks hold higher ones
      return true;
    }
  }
  if (plan.clearSelector) {
    Word* w = storage.wordsOf(plan.selector);
    std::fill_n(w, wordsForBits(storage.rowsOf(plan.selector)), 0);
  }
  return true;
}

}  // namespace star::cpu
