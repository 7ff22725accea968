// The device engine's interpreter: the bytecode run on a team of threads (a GPU block, a whole
// cooperative grid, or host threads in tests), with the host interpreter's semantics. Compiled by
// nvcc for the GPU and by the host compiler for the emulation; the Team says how threads meet.
//
// How a team runs one instruction stream: each block's leader thread interprets (scalars,
// jumps, calls, shapes) on its block's copy of the state (EngineLayout.h); every thread takes part
// in the instructions that read or write the bits of values (isTeamOp), each on its own share of
// the words. A step starts with a block barrier after which every thread reads where the leader
// says the step is (Ctl); only the leader writes the state, and only where no other thread of the
// step still reads it. Whatever the engine does not do itself (I/O, strings, errors, growth) it
// stops for before it has any effect, so that the host executes that instruction exactly as the
// host interpreter would, and hands the run back afterwards.
//
// Team requirements (all threads of the team call the collective ones together):
//   bool leader()           this block's interpreting thread
//   bool teamFirst()        one thread of the whole team (writes single words of shared data)
//   u64 rank(), size()      this thread's place in the team, and the team's size
//   u64 blockRank(), blockSize()
//   void syncBlock()        a barrier of this block
//   void syncData()         a barrier of the whole team: bits written by any thread visible to
//                           all of it, and every thread done reading the state, which the
//                           leader may then change (a shape's length, a result register)
//   u64 reduceMin(u64), reduceSum(u64); bool reduceOr(bool)    over the team, result to all
//   Ctl* ctl()              this block's two control slots
//   bool interrupted()      the host asks the run to stop (read by leaders only)
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/BitLayout.h"
#include "core/CheckedMath.h"
#include "core/HostFloat.h"
#include "vm/bytecode/Opcodes.h"
#include "vm/engine/EngineLayout.h"

namespace star::engine {

#if !defined(__CUDA_ARCH__)
static_assert(std::endian::native == std::endian::little, "gatherRow writes words byte by byte");
#endif

// Where the next step of a block is. Two slots alternate between steps, so that the leader's
// writes for step s + 1 never meet a slow thread still reading the slot of step s.
struct Ctl {
  std::uint32_t pc;
  std::uint32_t function;
  std::uint64_t base;
  std::uint32_t stop;  // StopReason: the block stops at (pc, function, base)
  std::uint32_t mode;  // kRun, kCheck (agree on the interrupt flag first), kChecked
  std::uint32_t jobs;  // CopyJobs to run first
  std::uint32_t reads;  // the leader read bits in the step before (grids: settle before writes)
};
inline constexpr std::uint32_t kRun = 0, kCheck = 1, kChecked = 2;

// A reference to a global slot has this bit; otherwise it is an absolute stack index (the host
// interpreter's encoding, so that references survive the move between engines).
inline constexpr std::uint64_t kRefGlobal = std::uint64_t{1} << 63;
inline constexpr std::uint32_t kKindScalar = 0, kKindBits = 1, kKindTable = 2;
inline constexpr std::uint64_t kNone = ~std::uint64_t{0};

// The instructions every thread of the team takes part in: they write the bits of values or
// reduce them. The leader runs the others alone (they may read bits: earlier steps made them
// visible).
STAR_HD constexpr bool isTeamOp(Op op) {
  switch (op) {
    case Op::BNEW: case Op::BCONST: case Op::BCOPY: case Op::BFILL: case Op::BAND: case Op::BOR:
    case Op::BXOR: case Op::BNOT: case Op::BFRST: case Op::BFND: case Op::BSTEP: case Op::BNUMB:
    case Op::BSOME: case Op::BSET: case Op::WEQ: case Op::WNE: case Op::WLT: case Op::WLE:
    case Op::WGT: case Op::WGE: case Op::WADD: case Op::WSUB: case Op::WTRIM: case Op::WREP:
    case Op::WBIN: case Op::WSBIN: case Op::WFBIN: case Op::TNEW: case Op::TCOPY: case Op::TEQ:
    case Op::TGETCOL: case Op::TSETCOL: case Op::TGETROW: case Op::TSETROW: case Op::PFOR:
      return true;
    default:
      return false;
  }
}

// The instructions the leader runs alone that read the bits of values. In a grid, another block
// may be ahead, already in the next instruction on the bits: that one must wait until every
// block's leader has read (EngineCore's pendingReads_).
STAR_HD constexpr bool leaderReadsBits(Op op) {
  return op == Op::BGET || op == Op::WVAL || op == Op::WSVAL || op == Op::WFVAL;
}

STAR_HD double asReal(Word w) {
  double d;
  std::memcpy(&d, &w, sizeof d);
  return d;
}
STAR_HD Word realBits(double d) {
  Word w;
  std::memcpy(&w, &d, sizeof w);
  return w;
}

// Words of a shape's value (a table's columns, or a bit vector).
STAR_HD std::uint64_t valueWords(const Shape& s) { return s.cols * wordsForBits(s.rows); }

template <class Team>
class Core {
 public:
  STAR_HD_FN Core(Team& team, const Program& program, Region region)
      : t_(team), p_(program), s_(region) {}

  // Runs until the engine stops (every thread of the team); the block's header then says where
  // and why.
  STAR_HD_FN void run() {
    Header& h = *s_.h;
    Ctl* ctl = t_.ctl();
    if (t_.leader()) ctl[0] = Ctl{h.pc, h.function, h.base, 0, kRun, 0, 0};
    std::uint64_t step = 0;
    for (;;) {
      t_.syncBlock();
      const Ctl c = ctl[step & 1];
      Ctl& next = ctl[(step + 1) & 1];
      ++step;
      if (c.stop) {
        if (t_.leader()) {
          h.pc = c.pc;
          h.function = c.function;
          h.base = c.base;
          h.stop = c.stop;
        }
        return;
      }
      pc_ = c.pc;
      fn_ = c.function;
      base_ = c.base;
      pendingReads_ = pendingReads_ || c.reads;
      if (t_.leader()) next = Ctl{pc_, fn_, base_, 0, kRun, 0, 0};
      if (c.jobs) {
        settleReads();
        runJobs(c.jobs);
        continue;
      }
      if (c.mode == kCheck) {
        const bool stopNow = t_.reduceOr(t_.leader() && t_.interrupted());
        if (t_.leader()) {
          if (stopNow) next.stop = static_cast<std::uint32_t>(StopReason::Poll);
          else next.mode = kChecked;
        }
        continue;
      }
      Op op = decode();
      if (t_.leader()) next.pc = nextPc_;
      if (isTeamOp(op)) {
        settleReads();
        teamOp(op, next);
        if (t_.leader()) count(op, next);
        continue;
      }
      if (t_.leader()) leaderRun(op, next, c.mode == kChecked);
    }
  }

 private:
  // The leader runs instructions of its own back to back, without the team, up to the next
  // instruction on the bits, a stop, an interrupt check or copies the team must make. It works on
  // a copy of the step's control slot and counts in a register, writing both once at the end: a
  // lone thread's every load and branch is latency nobody hides.
  STAR_HD void leaderRun(Op op, Ctl& slot, bool checked) {
    Header& h = *s_.h;
    const bool stats = (h.flags & kFlagStats) != 0;
    Ctl next = slot;
    bool reads = false;
    std::uint64_t executed = 0;
    for (;;) {
      leaderOp(op, next, checked);
      checked = false;
      reads = reads || leaderReadsBits(op);
      if (next.stop) break;  // a stopped instruction is the host's to count
      ++executed;
      countOp(op, stats);
      if (next.mode != kRun || next.jobs) break;
      pc_ = next.pc;
      fn_ = next.function;
      base_ = next.base;
      op = decode();
      if (isTeamOp(op)) break;
      next.pc = nextPc_;
    }
    h.instructions += executed;
    next.reads = reads;
    slot = next;
  }

  // The instruction at (fn_, pc_): its opcode, operands (a_) and the next instruction's offset.
  // The function's code is looked up again only when the function changes.
  STAR_HD Op decode() {
    if (fn_ != codeFunction_) {
      code_ = p_.code + p_.functions[fn_].code;
      codeFunction_ = fn_;
    }
    const Op op = static_cast<Op>(code_[pc_]);
    a_ = code_ + pc_ + 1;
    nextPc_ = pc_ + 1 + operandCount(op);
    return op;
  }

  // An instruction the engine executed (leader); a stopped one is the host's to count.
  STAR_HD void count(Op op, const Ctl& next) {
    if (next.stop) return;
    Header& h = *s_.h;
    ++h.instructions;
    countOp(op, (h.flags & kFlagStats) != 0);
  }
  // The opcode's counter, for --stats.
  STAR_HD void countOp(Op op, bool stats) {
    if (stats && static_cast<std::uint32_t>(op) < kOpCounters) ++s_.opCounts[static_cast<std::uint32_t>(op)];
  }

  // ---- state
  STAR_HD Word& R(std::uint32_t operand) {
    return (operand & kGlobalBit) ? s_.globals[operand & ~kGlobalBit] : s_.stack[base_ + operand];
  }
  STAR_HD std::int64_t I(int k) { return static_cast<std::int64_t>(R(a_[k])); }
  STAR_HD double F(int k) { return asReal(R(a_[k])); }
  STAR_HD std::uint32_t H(int k) { return static_cast<std::uint32_t>(R(a_[k])); }
  STAR_HD Shape& S(std::uint32_t handle) { return s_.shapes[handle]; }
  STAR_HD void setI(int k, std::int64_t v) { R(a_[k]) = static_cast<Word>(v); }
  STAR_HD void setF(int k, double v) { R(a_[k]) = realBits(v); }

  // The instruction stops the run; the host executes it (leader only writes).
  STAR_HD void stop(Ctl& next, StopReason why) {
    if (!t_.leader()) return;
    next.pc = pc_;
    next.stop = static_cast<std::uint32_t>(why);
  }
  // Whether a bit vector may take `length` bits: a fixed size must match (requireBitsFit).
  STAR_HD bool fitsBits(std::uint32_t d, std::uint64_t length) {
    return !(S(d).fixed && S(d).rows != length);
  }
  STAR_HD bool fitsTable(std::uint32_t d, std::uint64_t rows, std::uint64_t cols) {
    return !(S(d).fixed && (S(d).rows != rows || S(d).cols != cols));
  }
  STAR_HD bool roomFor(std::uint32_t d, std::uint64_t words) { return words <= S(d).capacity; }

  // Before bits may be written: every block's leader has done its reads of them (grids only;
  // in one block, the barrier that starts each step orders them already).
  STAR_HD void settleReads() {
    if (pendingReads_) t_.syncData();
    pendingReads_ = false;
  }

  // ---- data-parallel pieces (every thread)
  STAR_HD void copyWords(Word* d, const Word* s, std::uint64_t n) {
    if (d == s) return;
    for (std::uint64_t w = t_.rank(); w < n; w += t_.size()) d[w] = s[w];
  }
  STAR_HD void fillWords(Word* d, std::uint64_t n, Word v) {
    for (std::uint64_t w = t_.rank(); w < n; w += t_.size()) d[w] = v;
  }
  // Row k (0-based) of table t, as a bit vector of t.cols bits: a thread per byte of the result
  // (its eight loads independent of each other), so that a long row is gathered by many threads.
  STAR_HD void gatherRow(Word* D, const Shape& t, std::uint64_t k) {
    const std::uint64_t wpc = wordsForBits(t.rows), bytes = wordsForBits(t.cols) * 8;
    if (bytes == 0) return;  // no columns: no storage either
    const Word* column = t.data + k / 64;  // word k / 64 of column 0; column j is wpc words on
    const unsigned shift = static_cast<unsigned>(k % 64);
    auto* out = reinterpret_cast<unsigned char*>(D);
    for (std::uint64_t y = t_.rank(); y < bytes; y += t_.size()) {
      unsigned v = 0;
      for (unsigned b = 0; b < 8; ++b) {
        const std::uint64_t j = y * 8 + b;
        if (j < t.cols) v |= static_cast<unsigned>((column[j * wpc] >> shift) & 1) << b;
      }
      out[y] = static_cast<unsigned char>(v);  // bytes of a little-endian word: bits 8y..8y+7
    }
  }
  // The first 1 of n words, or kNone.
  STAR_HD std::uint64_t findFirst(const Word* x, std::uint64_t n) {
    std::uint64_t mine = kNone;
    for (std::uint64_t w = t_.rank(); w < n; w += t_.size())
      if (x[w]) {
        mine = w * 64 + static_cast<std::uint64_t>(countTrailingZeros(x[w]));
        break;
      }
    return t_.reduceMin(mine);
  }
  // x op y for the bitwise instructions (BAND, BOR, BXOR).
  STAR_HD static Word combine(Op op, Word x, Word y) {
    return op == Op::BAND ? x & y : op == Op::BOR ? x | y : x ^ y;
  }

  // By-value parameters and bit-vector results, left by CALL and RET.
  STAR_HD void runJobs(std::uint32_t n) {
    for (std::uint32_t j = 0; j < n; ++j) {
      const CopyJob job = s_.jobs[j];
      const Shape& src = S(job.src);
      copyWords(S(job.dst).data, src.data, valueWords(src));
    }
    t_.syncData();
  }

  // ---- control (leader)
  // At backward jumps and calls: the interrupt flag now and then (the team agrees on it in a step
  // of its own, after which the instruction runs again with `checked`), and the budget.
  STAR_HD bool poll(Ctl& next, bool checked) {
    Header& h = *s_.h;
    if (!checked) {
      if (h.pollsToCheck == 0) {
        h.pollsToCheck = kPollsPerCheck;
        next.pc = pc_;
        next.mode = kCheck;
        return false;
      }
      --h.pollsToCheck;
    }
    if (h.budgetLeft) {
      if (h.budgetLeft == 1) {
        stop(next, StopReason::Poll);  // the host's poll reports the used-up budget
        return false;
      }
      --h.budgetLeft;
    }
    return true;
  }

  STAR_HD std::uint32_t acquire(std::uint32_t kind) {
    Header& h = *s_.h;
    const std::uint32_t handle = kind == kKindTable ? s_.freeTables[--h.freeTables] : s_.freeBits[--h.freeBits];
    Shape& s = S(handle);
    s.rows = 0;
    s.cols = kind == kKindTable ? 0 : 1;
    s.fixed = 0;
    return handle;
  }

  STAR_HD void call(Ctl& next, bool checked) {
    Header& h = *s_.h;
    if (!poll(next, checked)) return;
    const std::uint32_t calleeIndex = a_[0];
    const FunctionInfo& callee = p_.functions[calleeIndex];
    if ((h.flags & kFlagNatives) && callee.nativeId >= 0) return stop(next, StopReason::Native);
    if (h.frames >= h.maxFrames) return stop(next, StopReason::Error);
    const std::uint64_t argBase = base_ + a_[1];
    const std::uint64_t newBase = h.stackSize;
    if ((newBase + callee.numRegs) * sizeof(Word) > h.maxStack) return stop(next, StopReason::Error);
    if (newBase + callee.numRegs > h.stackCap || h.frames + 1 > h.framesCap)
      return stop(next, StopReason::Room);
    // The handles the call takes from the pools, in the host's order: parameters, then owned.
    std::uint64_t needBits = 0, needTables = 0, jobs = 0;
    for (std::uint32_t i = 0; i < callee.nParams; ++i) {
      const ParamInfo& pi = p_.params[callee.params + i];
      if (pi.byRef || (pi.kind != kKindBits && pi.kind != kKindTable)) continue;
      const std::uint64_t top = pi.kind == kKindTable ? h.freeTables - needTables : h.freeBits - needBits;
      if (top == 0) return stop(next, StopReason::Pools);
      const std::uint32_t taken = pi.kind == kKindTable ? s_.freeTables[top - 1] : s_.freeBits[top - 1];
      if (!roomFor(taken, valueWords(S(static_cast<std::uint32_t>(s_.stack[argBase + i])))))
        return stop(next, StopReason::Storage);
      (pi.kind == kKindTable ? needTables : needBits) += 1;
      ++jobs;
    }
    for (std::uint32_t k = 0; k < callee.nOwned; ++k)
      (p_.ownedRegs[callee.owned + k].kind == kKindTable ? needTables : needBits) += 1;
    if (needBits > h.freeBits || needTables > h.freeTables) return stop(next, StopReason::Pools);
    if (h.owned + needBits + needTables > h.ownedCap) return stop(next, StopReason::Room);
    if (jobs > kMaxCopyJobs) return stop(next, StopReason::Other);

    s_.frames[h.frames - 1].pc = nextPc_;
    for (std::uint64_t r = 0; r < callee.numRegs; ++r) s_.stack[newBase + r] = 0;
    const std::uint64_t ownedBegin = h.owned;
    std::uint32_t job = 0;
    for (std::uint32_t i = 0; i < callee.nParams; ++i) {
      const ParamInfo& pi = p_.params[callee.params + i];
      const Word arg = s_.stack[argBase + i];
      if (!pi.byRef && (pi.kind == kKindBits || pi.kind == kKindTable)) {
        const std::uint32_t handle = acquire(pi.kind);
        s_.owned[h.owned++] = Owned{handle, pi.kind};
        const Shape& src = S(static_cast<std::uint32_t>(arg));
        S(handle).rows = src.rows;
        S(handle).cols = src.cols;
        s_.jobs[job++] = CopyJob{handle, static_cast<std::uint32_t>(arg)};
        s_.stack[newBase + i] = handle;
      } else {
        s_.stack[newBase + i] = arg;
      }
    }
    for (std::uint32_t k = 0; k < callee.nOwned; ++k) {
      const OwnedReg& o = p_.ownedRegs[callee.owned + k];
      const std::uint32_t handle = acquire(o.kind);
      s_.owned[h.owned++] = Owned{handle, o.kind};
      s_.stack[newBase + o.reg] = handle;
    }
    s_.frames[h.frames++] = Frame{calleeIndex, 0, a_[2], 0, newBase, ownedBegin};
    h.stackSize = newBase + callee.numRegs;
    next = Ctl{0, calleeIndex, newBase, 0, kRun, job, 0};
  }

  STAR_HD void ret(Ctl& next) {
    Header& h = *s_.h;
    if (h.frames == 1) return stop(next, StopReason::End);
    const Frame done = s_.frames[h.frames - 1];
    const Frame caller = s_.frames[h.frames - 2];
    const FunctionInfo& callee = p_.functions[done.function];
    std::uint32_t jobs = 0;
    if (callee.resultReg >= 0) {
      const Word result = s_.stack[done.base + static_cast<std::uint32_t>(callee.resultReg)];
      Word& dst = (done.resultDst & kGlobalBit) ? s_.globals[done.resultDst & ~kGlobalBit]
                                                : s_.stack[caller.base + done.resultDst];
      if (callee.resultKind == kKindBits) {
        const std::uint32_t d = static_cast<std::uint32_t>(dst), src = static_cast<std::uint32_t>(result);
        if (!fitsBits(d, S(src).rows)) return stop(next, StopReason::Error);
        if (!roomFor(d, wordsForBits(S(src).rows))) return stop(next, StopReason::Storage);
        if (d != src) {
          S(d).rows = S(src).rows;
          s_.jobs[0] = CopyJob{d, src};
          jobs = 1;
        }
      } else {
        dst = result;
      }
    }
    for (std::uint64_t i = done.ownedBegin; i < h.owned; ++i) {
      const Owned o = s_.owned[i];
      S(o.handle).fixed = 0;
      if (o.kind == kKindTable) s_.freeTables[h.freeTables++] = o.handle;
      else s_.freeBits[h.freeBits++] = o.handle;
    }
    h.owned = done.ownedBegin;
    h.stackSize = done.base;
    --h.frames;
    next = Ctl{caller.pc, caller.function, caller.base, 0, kRun, jobs, 0};
  }

  // A reference's target, or null when it is invalid (the host reports that).
  STAR_HD Word* deref(Word ref) {
    const Header& h = *s_.h;
    if (ref & kRefGlobal) {
      const Word g = ref & ~kRefGlobal;
      return g < h.globals ? &s_.globals[g] : nullptr;
    }
    return ref < h.stackSize ? &s_.stack[ref] : nullptr;
  }

  STAR_HD void jump(Ctl& next, std::uint32_t target, bool checked) {
    if (target <= pc_ && !poll(next, checked)) return;
    next.pc = target;
  }

  // leaderOp's and teamOp's fast paths take families of opcodes that are consecutive in
  // Opcodes.def: each family exactly, nothing else between its ends.
  STAR_HD static constexpr int number(Op op) { return static_cast<int>(op); }
  static_assert(number(Op::LOADI) == 0 && number(Op::LOADK) == 1 && number(Op::MOVE) == 2 && number(Op::IADD) == 3 &&
                number(Op::ISUB) == 4);
  static_assert(number(Op::INE) == number(Op::IEQ) + 1 && number(Op::ILT) == number(Op::IEQ) + 2 &&
                number(Op::ILE) == number(Op::IEQ) + 3 && number(Op::IGT) == number(Op::IEQ) + 4 &&
                number(Op::IGE) == number(Op::IEQ) + 5);
  static_assert(number(Op::JMPF) == number(Op::JMP) + 1 && number(Op::JMPT) == number(Op::JMP) + 2);
  static_assert(number(Op::BOR) == number(Op::BAND) + 1 && number(Op::BXOR) == number(Op::BAND) + 2 &&
                number(Op::BNOT) == number(Op::BAND) + 3 && number(Op::BFRST) == number(Op::BAND) + 4);
  // Whether op is one of first .. last, with one compare.
  STAR_HD static constexpr bool within(Op op, Op first, Op last) {
    const auto offset = static_cast<std::uint32_t>(number(op) - number(first));
    return offset <= static_cast<std::uint32_t>(number(last) - number(first));
  }

  STAR_HD void leaderOp(Op op, Ctl& next, bool checked) {
    // The commonest instructions first, each family behind one range test: the switch below
    // compiles to a tree of about seven compares and branches.
    if (within(op, Op::IEQ, Op::IGE)) {
      const std::int64_t x = I(1), y = I(2);
      const bool lt = x < y, eq = x == y;
      setI(0, op == Op::IEQ ? eq : op == Op::INE ? !eq : op == Op::ILT ? lt : op == Op::ILE ? lt || eq
              : op == Op::IGT ? !(lt || eq) : !lt);
      return;
    }
    if (within(op, Op::JMP, Op::JMPT)) {
      if (op == Op::JMP) return jump(next, a_[0], checked);
      if ((I(0) != 0) == (op == Op::JMPT)) jump(next, a_[1], checked);
      return;
    }
    if (within(op, Op::LOADI, Op::ISUB)) {
      if (op == Op::LOADI) return setI(0, static_cast<std::int32_t>(a_[1]));
      if (op == Op::MOVE) {
        R(a_[0]) = R(a_[1]);
        return;
      }
      if (op == Op::LOADK) {
        R(a_[0]) = p_.constValue[a_[1]];
        return;
      }
      std::int64_t r;
      const bool over = op == Op::IADD ? addOverflows(I(1), I(2), r) : subOverflows(I(1), I(2), r);
      if (over) return stop(next, StopReason::Error);
      return setI(0, r);
    }
    const Header& h = *s_.h;
    switch (op) {
      case Op::IMUL: {
        std::int64_t r;
        if (mulOverflows(I(1), I(2), r)) return stop(next, StopReason::Error);
        setI(0, r);
        break;
      }
      case Op::IDIV: case Op::IMOD: {
        const std::int64_t x = I(1), y = I(2);
        if (y == 0) return stop(next, StopReason::Error);
        if (x == INT64_MIN && y == -1) {
          if (op == Op::IDIV) return stop(next, StopReason::Error);
          setI(0, 0);
        } else {
          setI(0, op == Op::IDIV ? x / y : x % y);
        }
        break;
      }
      case Op::INEG: case Op::IABS: {
        const std::int64_t x = I(1);
        if (x == INT64_MIN) return stop(next, StopReason::Error);
        setI(0, op == Op::INEG ? -x : (x < 0 ? -x : x));
        break;
      }
      case Op::FADD: setF(0, starNaN(F(1) + F(2), F(1), F(2))); break;
      case Op::FSUB: setF(0, starNaN(F(1) - F(2), F(1), F(2))); break;
      case Op::FMUL: setF(0, starNaN(F(1) * F(2), F(1), F(2))); break;
      case Op::FDIV: setF(0, starNaN(F(1) / F(2), F(1), F(2))); break;
      case Op::FNEG: setF(0, starNeg(F(1))); break;
      case Op::ITOF: setF(0, static_cast<double>(I(1))); break;
      case Op::FEQ: setI(0, F(1) == F(2)); break;
      case Op::FNE: setI(0, F(1) != F(2)); break;
      case Op::FLT: setI(0, F(1) < F(2)); break;
      case Op::FLE: setI(0, F(1) <= F(2)); break;
      case Op::FGT: setI(0, F(1) > F(2)); break;
      case Op::FGE: setI(0, F(1) >= F(2)); break;
      case Op::SEQ: case Op::SNE: {
        // Strings are interned: two known strings are equal exactly when their indices are.
        const Word x = R(a_[1]), y = R(a_[2]);
        if (x >= h.stringCount || y >= h.stringCount) return stop(next, StopReason::Text);
        setI(0, op == Op::SEQ ? x == y : x != y);
        break;
      }
      case Op::NOT: setI(0, !I(1)); break;
      case Op::AND: setI(0, I(1) && I(2)); break;
      case Op::OR: setI(0, I(1) || I(2)); break;
      case Op::XOR: setI(0, (I(1) != 0) != (I(2) != 0)); break;
      case Op::FSQRT: setF(0, starNaN(sqrt(F(1)), F(1), F(1))); break;
      case Op::FABS: setF(0, starAbs(F(1))); break;
      case Op::FTRUNC: case Op::FROUND: {
        const double x = F(1);
        const double whole = op == Op::FTRUNC ? trunc(x) : round(x);
        if (x != x || !(whole >= -9223372036854775808.0 && whole < 9223372036854775808.0))
          return stop(next, StopReason::Error);
        setI(0, static_cast<std::int64_t>(whole));
        break;
      }
      case Op::FEXP: case Op::FLN: case Op::FSIN: case Op::FCOS: case Op::FATAN: case Op::FPOW:
        return stop(next, StopReason::Math);  // isHostMathOp: the host's C library computes them

      // ---- control
      case Op::CALL: return call(next, checked);
      case Op::RET: return ret(next);
      case Op::MKREF:
        R(a_[0]) = (a_[1] & kGlobalBit) ? (kRefGlobal | (a_[1] & ~kGlobalBit)) : base_ + a_[1];
        break;
      case Op::LDREF: {
        Word* target = deref(R(a_[1]));
        if (!target) return stop(next, StopReason::Error);
        R(a_[0]) = *target;
        break;
      }
      case Op::STREF: {
        Word* target = deref(R(a_[0]));
        if (!target) return stop(next, StopReason::Error);
        *target = R(a_[1]);
        break;
      }
      case Op::HALT: return stop(next, StopReason::End);
      case Op::PCOUNT: setI(0, static_cast<std::int64_t>(h.argCount)); break;
      case Op::WRITE: case Op::WRITELN: return stop(next, StopReason::Output);
      case Op::PSTR: case Op::STOI: case Op::STOF: return stop(next, StopReason::Text);
      case Op::TLOAD: case Op::TSAVE: case Op::TLOADG: case Op::TLOADE: case Op::TLOADN: case Op::TSAVEN:
      case Op::TSAVEP: case Op::BSAVEP:
        return stop(next, StopReason::File);
      case Op::RAISE: return stop(next, StopReason::Error);

      // ---- reads of bits (made visible by the steps before)
      case Op::BGET: {
        const Shape& x = S(H(1));
        const std::int64_t i = I(2);
        if (i < 1 || static_cast<std::uint64_t>(i) > x.rows) return stop(next, StopReason::Error);
        const std::uint64_t bit = static_cast<std::uint64_t>(i - 1);
        setI(0, static_cast<std::int64_t>((x.data[bit / 64] >> (bit % 64)) & 1));
        break;
      }
      case Op::BLEN: setI(0, static_cast<std::int64_t>(S(H(1)).rows)); break;
      case Op::WVAL: case Op::WSVAL: case Op::WFVAL: {
        const Shape& x = S(H(1));
        const std::uint64_t len = x.rows;
        if (op == Op::WVAL && len > 63) return stop(next, StopReason::Error);
        if (op == Op::WSVAL && (len < 1 || len > 64)) return stop(next, StopReason::Error);
        if (op == Op::WFVAL && len != 32 && len != 64) return stop(next, StopReason::Error);
        const Word v = len ? wordToNumber(x.data[0], len) : 0;
        if (op == Op::WVAL) {
          setI(0, static_cast<std::int64_t>(v));
        } else if (op == Op::WSVAL) {
          setI(0, signExtend(v, static_cast<unsigned>(len)));
        } else if (len == 32) {
          setF(0, floatBitsToReal(static_cast<std::uint32_t>(v)));
        } else {
          setF(0, asReal(v));
        }
        break;
      }
      case Op::TROWS: setI(0, static_cast<std::int64_t>(S(H(1)).rows)); break;
      case Op::TCOLS: setI(0, static_cast<std::int64_t>(S(H(1)).cols)); break;
      default:
        return stop(next, StopReason::Other);
    }
  }

  // ---- instructions on the bits (every thread; decisions read only what no thread writes
  // before the step's end, so every thread decides alike)
  // BAND, BOR, BXOR, BNOT, BFRST.
  STAR_HD void bitwise(Op op, Ctl& next) {
    const std::uint32_t d = H(0), x = H(1);
    const std::uint64_t len = S(x).rows;
    if (op != Op::BNOT && op != Op::BFRST && S(H(2)).rows != len) return stop(next, StopReason::Error);
    if (!fitsBits(d, len)) return stop(next, StopReason::Error);
    const std::uint64_t n = wordsForBits(len);
    if (!roomFor(d, n)) return stop(next, StopReason::Storage);
    Word* D = S(d).data;
    const Word* X = S(x).data;
    if (op == Op::BFRST) {
      const std::uint64_t first = findFirst(X, n);  // every read of x before any write of d
      for (std::uint64_t w = t_.rank(); w < n; w += t_.size())
        D[w] = first != kNone && w == first / 64 ? Word{1} << (first % 64) : 0;
    } else if (op == Op::BNOT) {
      const Word tail = tailMask(len);
      for (std::uint64_t w = t_.rank(); w < n; w += t_.size()) D[w] = ~X[w] & (w + 1 == n ? tail : kAllOnes);
    } else {
      const Word* Y = S(H(2)).data;
      for (std::uint64_t w = t_.rank(); w < n; w += t_.size()) D[w] = combine(op, X[w], Y[w]);
    }
    t_.syncData();
    if (t_.leader()) S(d).rows = len;
  }

  // TGETCOL, TGETROW: a column or a row of a table into a bit vector.
  STAR_HD void getLine(Op op, Ctl& next) {
    const std::uint32_t d = H(0);
    const Shape& t = S(H(1));
    const std::int64_t at = I(2);
    const bool col = op == Op::TGETCOL;
    if (at < 1 || static_cast<std::uint64_t>(at) > (col ? t.cols : t.rows)) return stop(next, StopReason::Error);
    const std::uint64_t len = col ? t.rows : t.cols, words = wordsForBits(len), wpc = wordsForBits(t.rows);
    if (!fitsBits(d, len)) return stop(next, StopReason::Error);
    if (!roomFor(d, words)) return stop(next, StopReason::Storage);
    const std::uint64_t k = static_cast<std::uint64_t>(at - 1);
    if (col) copyWords(S(d).data, t.data + k * wpc, words);
    else gatherRow(S(d).data, t, k);
    t_.syncData();
    if (t_.leader()) S(d).rows = len;
  }

  // TSETCOL, TSETROW: a bit vector into a column or a row of a table.
  STAR_HD void setLine(Op op, Ctl& next) {
    const Shape& t = S(H(0));
    const Shape& src = S(H(2));
    const std::int64_t at = I(1);
    const bool col = op == Op::TSETCOL;
    if (at < 1 || static_cast<std::uint64_t>(at) > (col ? t.cols : t.rows) || src.rows != (col ? t.rows : t.cols))
      return stop(next, StopReason::Error);
    const std::uint64_t k = static_cast<std::uint64_t>(at - 1), wpc = wordsForBits(t.rows);
    if (col) {
      copyWords(t.data + k * wpc, src.data, wpc);
    } else {
      const std::uint64_t q = k / 64;
      const Word m = Word{1} << (k % 64);
      for (std::uint64_t j = t_.rank(); j < t.cols; j += t_.size()) {
        Word& w = t.data[j * wpc + q];
        w = ((src.data[j / 64] >> (j % 64)) & 1) ? (w | m) : (w & ~m);
      }
    }
    t_.syncData();
  }

  STAR_HD void teamOp(Op op, Ctl& next) {
    // The commonest first, behind range tests (as in leaderOp).
    if (within(op, Op::BAND, Op::BFRST)) return bitwise(op, next);
    if (op == Op::TGETCOL || op == Op::TGETROW) return getLine(op, next);
    if (op == Op::TSETCOL || op == Op::TSETROW) return setLine(op, next);
    switch (op) {
      case Op::BNEW: {
        const std::uint32_t d = H(0);
        const std::int64_t n = I(1);
        if (n < 0) return stop(next, StopReason::Error);
        const std::uint64_t words = wordsForBits(static_cast<std::uint64_t>(n));
        if (!roomFor(d, words)) return stop(next, StopReason::Storage);
        fillWords(S(d).data, words, 0);
        t_.syncData();
        if (t_.leader()) {
          S(d).rows = static_cast<std::uint64_t>(n);
          S(d).fixed = a_[2];
        }
        return;
      }
      case Op::BCONST: {
        const std::uint32_t d = H(0);
        const std::uint64_t len = p_.constLength[a_[1]];
        if (!fitsBits(d, len)) return stop(next, StopReason::Error);
        if (!roomFor(d, wordsForBits(len))) return stop(next, StopReason::Storage);
        copyWords(S(d).data, p_.constWords + p_.constBits[a_[1]], wordsForBits(len));
        t_.syncData();
        if (t_.leader()) S(d).rows = len;
        return;
      }
      case Op::BCOPY: {
        const std::uint32_t d = H(0), x = H(1);
        if (d == x) return;
        const std::uint64_t len = S(x).rows;
        if (!fitsBits(d, len)) return stop(next, StopReason::Error);
        if (!roomFor(d, wordsForBits(len))) return stop(next, StopReason::Storage);
        copyWords(S(d).data, S(x).data, wordsForBits(len));
        t_.syncData();
        if (t_.leader()) S(d).rows = len;
        return;
      }
      case Op::BFILL: {
        const Shape& d = S(H(0));
        const std::uint64_t n = wordsForBits(d.rows);
        const Word tail = tailMask(d.rows);
        for (std::uint64_t w = t_.rank(); w < n; w += t_.size())
          d.data[w] = a_[1] ? (w + 1 == n ? tail : kAllOnes) : 0;
        t_.syncData();
        return;
      }
      case Op::BFND: case Op::BSTEP: {
        const Shape& x = S(H(1));
        const std::uint64_t first = findFirst(x.data, wordsForBits(x.rows));
        if (op == Op::BSTEP && first != kNone && t_.teamFirst())
          x.data[first / 64] &= ~(Word{1} << (first % 64));
        if (op == Op::BSTEP) t_.syncData();
        if (t_.leader()) setI(0, first == kNone ? 0 : static_cast<std::int64_t>(first) + 1);
        return;
      }
      case Op::BNUMB: case Op::BSOME: {
        const Shape& x = S(H(1));
        const std::uint64_t n = wordsForBits(x.rows);
        std::uint64_t mine = 0;
        for (std::uint64_t w = t_.rank(); w < n; w += t_.size()) mine += static_cast<std::uint64_t>(popCount(x.data[w]));
        const std::int64_t r = op == Op::BNUMB ? static_cast<std::int64_t>(t_.reduceSum(mine)) : t_.reduceOr(mine != 0);
        if (t_.leader()) setI(0, r);
        return;
      }
      case Op::BSET: {
        const Shape& x = S(H(0));
        const std::int64_t i = I(1), v = I(2);
        if (i < 1 || static_cast<std::uint64_t>(i) > x.rows || (v != 0 && v != 1))
          return stop(next, StopReason::Error);
        const std::uint64_t bit = static_cast<std::uint64_t>(i - 1);
        if (t_.teamFirst()) {
          const Word m = Word{1} << (bit % 64);
          x.data[bit / 64] = v ? x.data[bit / 64] | m : x.data[bit / 64] & ~m;
        }
        t_.syncData();
        return;
      }
      case Op::WEQ: case Op::WNE: case Op::WLT: case Op::WLE: case Op::WGT: case Op::WGE: {
        const Shape& x = S(H(1));
        const Shape& y = S(H(2));
        if (x.rows != y.rows) return stop(next, StopReason::Error);
        const std::uint64_t n = wordsForBits(x.rows);
        std::uint64_t mine = kNone;
        for (std::uint64_t w = t_.rank(); w < n; w += t_.size())
          if (x.data[w] != y.data[w]) {
            mine = w;
            break;
          }
        const std::uint64_t at = t_.reduceMin(mine);
        int c = 0;
        if (at != kNone) {
          const Word diff = x.data[at] ^ y.data[at];
          c = (x.data[at] & (diff & (0 - diff))) ? 1 : -1;  // the first differing bit decides
          // Read after the reduction's barrier: the next write of bits waits for every block.
          pendingReads_ = true;
        }
        const bool r = op == Op::WEQ ? c == 0 : op == Op::WNE ? c != 0 : op == Op::WLT ? c < 0
                       : op == Op::WLE ? c <= 0 : op == Op::WGT ? c > 0 : c >= 0;
        if (t_.leader()) setI(0, r);
        return;
      }
      case Op::WADD: case Op::WSUB: {
        const std::uint32_t d = H(0);
        const Shape& x = S(H(1));
        const Shape& y = S(H(2));
        if (x.rows != y.rows || !fitsBits(d, x.rows)) return stop(next, StopReason::Error);
        const std::uint64_t len = x.rows, n = wordsForBits(len);
        if (!roomFor(d, n)) return stop(next, StopReason::Storage);
        if (t_.teamFirst()) {
          // Reversed, each element is an ordinary limb and the last one's unused bits are low.
          Word carry = 0;
          Word* D = S(d).data;
          for (std::uint64_t i = n; i-- > 0;) {
            const Word a = reverseBits(x.data[i]), b = reverseBits(y.data[i]);
            Word r;
            if (op == Op::WADD) {
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
        t_.syncData();
        if (t_.leader()) S(d).rows = len;
        return;
      }
      case Op::WTRIM: {
        const std::uint32_t d = H(0), src = H(3);
        const std::uint64_t len = S(src).rows;
        const std::int64_t i = I(1), j = I(2);
        if (i < 1 || static_cast<std::uint64_t>(i) > len || j < 1 || static_cast<std::uint64_t>(j) > len || j < i)
          return stop(next, StopReason::Error);
        if (d == src) return stop(next, StopReason::Other);
        const std::uint64_t n = static_cast<std::uint64_t>(j - i + 1), words = wordsForBits(n);
        if (!fitsBits(d, n)) return stop(next, StopReason::Error);
        if (!roomFor(d, words)) return stop(next, StopReason::Storage);
        const Word* W = S(src).data;
        Word* D = S(d).data;
        const Word tail = tailMask(n);
        for (std::uint64_t w = t_.rank(); w < words; w += t_.size())
          D[w] = window64(W, wordsForBits(len), (i - 1) + static_cast<std::int64_t>(64 * w)) &
                 (w + 1 == words ? tail : kAllOnes);
        t_.syncData();
        if (t_.leader()) S(d).rows = n;
        return;
      }
      case Op::WREP: {
        const std::uint32_t v = H(2), w = H(3);
        const std::uint64_t len = S(w).rows;
        const std::int64_t i = I(0), j = I(1);
        if (i < 1 || static_cast<std::uint64_t>(i) > len || j < 1 || static_cast<std::uint64_t>(j) > len || j < i ||
            S(v).rows != static_cast<std::uint64_t>(j - i + 1))
          return stop(next, StopReason::Error);
        if (v == w) return stop(next, StopReason::Other);
        const std::uint64_t from = static_cast<std::uint64_t>(i - 1), n = S(v).rows;
        const std::uint64_t firstWord = from / 64, lastWord = (from + n - 1) / 64;
        Word* W = S(w).data;
        const Word* V = S(v).data;
        for (std::uint64_t k = firstWord + t_.rank(); k <= lastWord; k += t_.size()) {
          const std::uint64_t lo = k * 64 < from ? from - k * 64 : 0;
          const std::uint64_t hi = (k + 1) * 64 > from + n ? from + n - k * 64 : 64;
          const Word mask = rangeMask(static_cast<unsigned>(lo), static_cast<unsigned>(hi));
          const Word bits = window64(V, wordsForBits(n), static_cast<std::int64_t>(k * 64) - static_cast<std::int64_t>(from));
          W[k] = (W[k] & ~mask) | (bits & mask);
        }
        t_.syncData();
        return;
      }
      case Op::WBIN: case Op::WSBIN: case Op::WFBIN: {
        const std::uint32_t d = H(0);
        const std::int64_t k = I(2);
        Word packed = 0;
        if (op == Op::WBIN) {
          const std::int64_t n = I(1);
          if (k < 1 || n < 0 || (k < 63 && n >= (std::int64_t{1} << k))) return stop(next, StopReason::Error);
        } else if (op == Op::WSBIN) {
          const std::int64_t n = I(1);
          if (k < 1 || k > 64 || !fitsSigned(n, static_cast<unsigned>(k))) return stop(next, StopReason::Error);
          packed = numberToWord(lowBits(static_cast<std::uint64_t>(n), static_cast<unsigned>(k)), static_cast<std::uint64_t>(k));
        } else {
          if (k != 32 && k != 64) return stop(next, StopReason::Error);
          Word v;
          if (k == 32) {
            v = realToFloatBits(F(1));
          } else {
            v = realBits(F(1));
          }
          packed = numberToWord(v, static_cast<std::uint64_t>(k));
        }
        const std::uint64_t len = static_cast<std::uint64_t>(k), words = wordsForBits(len);
        if (!fitsBits(d, len)) return stop(next, StopReason::Error);
        if (!roomFor(d, words)) return stop(next, StopReason::Storage);
        Word* D = S(d).data;
        if (op == Op::WBIN) {
          const std::int64_t n = I(1);
          for (std::uint64_t w = t_.rank(); w < words; w += t_.size()) {
            Word out = 0;
            for (std::uint64_t b = 0; b < 64 && w * 64 + b < len; ++b) {
              const std::uint64_t power = len - 1 - (w * 64 + b);  // bit 1 is the most significant
              if (power < 63 && ((n >> power) & 1)) out |= Word{1} << b;
            }
            D[w] = out;
          }
        } else if (t_.teamFirst()) {
          D[0] = packed;
        }
        t_.syncData();
        if (t_.leader()) S(d).rows = len;
        return;
      }
      case Op::TNEW: {
        const std::uint32_t d = H(0);
        const std::int64_t r = I(1), c = I(2);
        if (r < 0 || c < 0) return stop(next, StopReason::Error);
        const std::uint64_t wpc = wordsForBits(static_cast<std::uint64_t>(r));
        const std::uint64_t cols = static_cast<std::uint64_t>(c);
        // A table of no columns needs the room of one (its rows count against the memory limit,
        // as on the host, which refuses a shape that cannot fit).
        const std::uint64_t counted = cols != 0 ? cols : 1;
        if (wpc > ~std::uint64_t{0} / sizeof(Word) / counted) return stop(next, StopReason::Storage);
        if (!roomFor(d, counted * wpc)) return stop(next, StopReason::Storage);
        fillWords(S(d).data, cols * wpc, 0);
        t_.syncData();
        if (t_.leader()) {
          S(d).rows = static_cast<std::uint64_t>(r);
          S(d).cols = cols;
          S(d).fixed = a_[3];
        }
        return;
      }
      case Op::TCOPY: {
        const std::uint32_t d = H(0), x = H(1);
        if (d == x) return;
        const Shape& src = S(x);
        if (!fitsTable(d, src.rows, src.cols)) return stop(next, StopReason::Error);
        if (!roomFor(d, valueWords(src))) return stop(next, StopReason::Storage);
        copyWords(S(d).data, src.data, valueWords(src));
        t_.syncData();
        if (t_.leader()) {
          S(d).rows = src.rows;
          S(d).cols = src.cols;
        }
        return;
      }
      case Op::TEQ: {
        const std::uint32_t x = H(1), y = H(2);
        const bool sameShape = S(x).rows == S(y).rows && S(x).cols == S(y).cols;
        bool differ = false;
        if (sameShape && x != y) {
          const std::uint64_t n = valueWords(S(x));
          for (std::uint64_t w = t_.rank(); w < n && !differ; w += t_.size()) differ = S(x).data[w] != S(y).data[w];
        }
        // Every thread reduces (also when nothing differs): the barrier in it orders every read
        // of this step before the leader's write.
        differ = t_.reduceOr(differ);
        if (t_.leader()) setI(0, sameShape && !differ);
        return;
      }
      case Op::PFOR: return parallelLoop(next);
      default:
        return stop(next, StopReason::Other);
    }
  }

  // LoopForm's values (vm/bytecode/Module.h; EngineLoops.cpp checks that they agree).
  static constexpr std::uint32_t kForall = 1, kStepWhile = 2, kSomeStep = 3, kForIf = 4;

  // PFOR. A loop the engine runs itself (LoopInfo) is one pass over the selected columns (or
  // rows) of the table, then what the sequential loop leaves: the selector emptied (the STEP
  // forms), the loop variable. Whatever would make an iteration fail (an index outside the table,
  // lengths that differ) hands the loop to the host, which runs it, or its sequential code, and
  // reports what that finds.
  STAR_HD void parallelLoop(Ctl& next) {
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
      if (cols) copyWords(v, t + (lastIndex - 1) * wpc, wpc);
      else gatherRow(v, T, lastIndex - 1);
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

  Team& t_;
  const Program& p_;
  Region s_;
  std::uint32_t pc_ = 0, fn_ = 0, nextPc_ = 0;
  std::uint64_t base_ = 0;
  const std::uint32_t* a_ = nullptr;
  const std::uint32_t* code_ = nullptr;       // function codeFunction_'s code
  std::uint32_t codeFunction_ = ~std::uint32_t{0};
  bool pendingReads_ = false;  // a leader read bits since the last team-wide barrier
};

// Copies the parts of a region in use (the header and each array's prefix) with the threads of a
// block: into a block's region before a run, and out of block 0's after it.
template <class Team>
STAR_HD_FN void copyRegion(Team& t, Word* to, const Word* from, const Layout& l, const Header& h) {
  auto copy = [&](std::uint64_t offset, std::uint64_t words) {
    for (std::uint64_t w = t.blockRank(); w < words; w += t.blockSize()) to[offset + w] = from[offset + w];
  };
  copy(0, wordsFor(sizeof(Header)));
  copy(l.stack, h.stackSize);
  copy(l.frames, wordsFor(h.frames * sizeof(Frame)));
  copy(l.owned, wordsFor(h.owned * sizeof(Owned)));
  copy(l.freeBits, wordsFor(h.freeBits * sizeof(std::uint32_t)));
  copy(l.freeTables, wordsFor(h.freeTables * sizeof(std::uint32_t)));
  copy(l.shapes, wordsFor(h.handles * sizeof(Shape)));
  copy(l.globals, h.globals);
  if (h.flags & kFlagStats) copy(l.opCounts, kOpCounters);
}

}  // namespace star::engine
