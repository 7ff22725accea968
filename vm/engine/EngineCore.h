// The device engine's interpreter: the bytecode run on a team of threads (a GPU block, a whole
// cooperative grid, or host threads in tests), with the host interpreter's semantics. Compiled by
// nvcc for the GPU and by the host compiler for the emulation; the Team (EngineTeam.h) says how
// threads meet.
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
// The Core is one class; its parts are member functions defined in headers of their own, which
// this one includes at its end (each includes this one, so any of them may be included first):
//   EngineCore.h          the state, the decoding and the run loop (run, leaderRun)
//   EngineLeader.h        the leader's instructions (leaderOp) and control: call, ret, poll, jump
//   EngineTeamDispatch.h  teamOp: an instruction on the bits decoded, checked, and run by one of
//                         EngineTeamOps.h's free operations
//   EngineParallelLoop.h  PFOR (parallelLoop)
// and its team's pieces are free functions: EngineTeam.h (the Team, copies, finds, jobs) and
// EngineTeamOps.h (the operations on bit vectors, words and tables). Nothing on the path of an
// instruction goes through a pointer or a virtual call: the parts are member functions called
// directly (forced inline on the GPU, STAR_HD), and the free operations are inlined into them.
#pragma once

#include <cstdint>

#include "vm/bytecode/Opcodes.h"
#include "core/HostFloat.h"
#include "vm/engine/EngineLayout.h"
#include "vm/engine/EngineTeam.h"
#include "vm/engine/EngineTeamOps.h"

namespace star::engine {

// A reference to a global slot has this bit; otherwise it is an absolute stack index (the host
// interpreter's encoding, so that references survive the move between engines).
inline constexpr std::uint64_t kRefGlobal = std::uint64_t{1} << 63;
inline constexpr std::uint32_t kKindScalar = 0, kKindBits = 1, kKindTable = 2;

// isTeamOp and leaderReadsBits, the split between the team and its leader, are columns of
// vm/bytecode/Opcodes.def.

template <class Team>
class Core {
  static_assert(EngineTeam<Team>);

 public:
  STAR_HD_FN Core(Team& team, const Program& program, Region region, bool compiled = false)
      : t_(team), p_(program), s_(region), compiled_(compiled) {}

  // Runs until the engine stops (every thread of the team); the block's header then says where
  // and why.
  STAR_HD_FN void run() {
    Header& h = *s_.h;
    if (t_.leader()) t_.ctl()[0] = Ctl{h.pc, h.function, h.base, 0, kRun, 0, 0};
    std::uint64_t step = 0;
    for (;;) {
      const Ctl c = beginStep(step);
      if (c.stop) return;
      runStep(c, step, false);
    }
  }

  // ---- for compiled code (vm/engine/EngineCompiled.h), whose every thread runs the scalar code
  // and calls these together.

  // The position the next instruction is at (for its stop).
  STAR_HD void at(std::uint32_t function, std::uint32_t pc, std::uint64_t base) {
    fn_ = function;
    pc_ = pc;
    base_ = base;
  }
  // An instruction on the bits with its operands in hand (Ops: H, I, F, imm, put), exactly as
  // the interpreter runs it; the reason it stops, or None.
  template <class Ops>
  STAR_HD StopReason team(Op op, Ops& o) {
    settleReads();
    if (!ownedOp(op)) settle();
    Ctl next{pc_, fn_, base_, 0, kRun, 0, 0};
    ownSlot_ = true;  // every thread records a stop in its own `next`
    teamOp(op, o, next);
    ownSlot_ = false;
    return static_cast<StopReason>(next.stop);
  }
  STAR_HD Word constant(std::uint32_t k) const { return p_.constValue[k]; }
  // The threads read bits outside an instruction on the bits (a grid settles before the next
  // write).
  STAR_HD void noteReads() { pendingReads_ = true; }
  // Every thread is about to read bits of `handle` that other threads own (compiled code's bit
  // reads): owned writes to it are settled first, and the next owned write to it waits.
  STAR_HD void beforeSharedRead(std::uint32_t handle) {
    if (ownedWrites_ & handleBit(handle)) settle();
    sharedReads_ |= handleBit(handle);
  }
  // Compiled code's owned loops (EngineCompiled.h): before a loop that will write `handle`'s
  // words (kept in locals) on the way out, and after it wrote them.
  STAR_HD void beforeOwnedLoop(std::uint32_t handle) {
    settleReads();
    beforeOwnedWrite(handle);
  }
  STAR_HD void afterOwnedLoop(std::uint32_t handle) { wrote(handle); }
  STAR_HD void ownedLoopRows(std::uint32_t handle, std::uint64_t rows) { setRows(handle, rows); }
  // Every owned access since the last team-wide barrier done and seen (compiled code, before it
  // leaves the instructions it runs itself).
  STAR_HD void settle() {
    if ((ownedWrites_ | sharedReads_) == 0) return;
    t_.syncData();
    ownedWrites_ = sharedReads_ = 0;
  }
  // The one instruction at `at` run as run() runs it (its interrupt check and the copies of a call
  // included), for instructions compiled code leaves to the interpreter; where the run goes on,
  // to every thread. A stop is written to the header.
  STAR_HD Ctl runOne(Ctl at) {
    settle();
    t_.syncBlock();  // the caller's writes to the state are seen; every read of the slots is done
    if (t_.leader()) t_.ctl()[0] = at;
    std::uint64_t step = 0;
    bool done = false;
    for (;;) {
      const Ctl c = beginStep(step);
      // A leader that read bits in the step before: compiled code's next write of bits (Core::team)
      // waits for it, as the interpreter's next step would (runStep). Returning without noting it
      // let another block overwrite a word a leader was still reading, and the blocks decide apart.
      pendingReads_ = pendingReads_ || c.reads;
      if (c.stop || (done && !c.jobs && c.mode != kCheck)) return c;
      done = runStep(c, step, true) || done;
    }
  }
  // Compiled code's CALL (after compiled code's own poll) and RET at `at`: the leader's
  // Core::enter or Core::ret, then the team's copies they ask for; where the run goes on, to
  // every thread. A stop is not written to the header (Compiled::stopAt does that). The control
  // slot is free to write: every way here from its last read passes a block barrier (a compiled
  // function's entry, or runOne's first).
  STAR_HD Ctl control(std::uint32_t function, std::uint32_t at, std::uint64_t base) {
    settle();  // the copies read words other threads wrote
    fn_ = function;
    pc_ = at;
    base_ = base;
    const Op op = decode();
    Ctl& slot = t_.ctl()[0];
    if (t_.leader()) {
      Ctl next{pc_, fn_, base_, 0, kRun, 0, 0};
      if (op == Op::CALL) enter(next);
      else ret(next);
      slot = next;
    }
    t_.syncBlock();
    const Ctl c = slot;
    if (!c.stop && c.jobs) {
      settleReads();
      runJobs(t_, s_.jobs, s_.shapes, c.jobs);
    }
    return c;
  }

 private:
  // A step begins: the block meets, and every thread reads where the leader says the step is
  // (two slots alternate, so that the leader's writes for the next step never meet a slow thread
  // still reading this one). At a stop the leader writes it to the header.
  STAR_HD Ctl beginStep(std::uint64_t& step) {
    t_.syncBlock();
    const Ctl c = t_.ctl()[step & 1];
    ++step;
    if (c.stop && t_.leader()) {
      Header& h = *s_.h;
      h.pc = c.pc;
      h.function = c.function;
      h.base = c.base;
      h.stop = c.stop;
    }
    return c;
  }
  // The rest of the step `c` (not a stop): the copies it asks for, the interrupt agreement, or
  // instructions — the team's one on the bits, or the leader's own, back to back unless `one`.
  // Whether it executed an instruction.
  STAR_HD bool runStep(const Ctl& c, std::uint64_t step, bool one) {
    Ctl& next = t_.ctl()[step & 1];
    pc_ = c.pc;
    fn_ = c.function;
    base_ = c.base;
    pendingReads_ = pendingReads_ || c.reads;
    if (t_.leader()) next = Ctl{pc_, fn_, base_, 0, kRun, 0, 0};
    if (c.jobs) {
      settleReads();
      runJobs(t_, s_.jobs, s_.shapes, c.jobs);
      return false;
    }
    if (c.mode == kCheck) {
      const bool stopNow = t_.reduceOr(t_.leader() && t_.interrupted());
      if (t_.leader()) {
        if (stopNow) next.stop = static_cast<std::uint32_t>(StopReason::Poll);
        else next.mode = kChecked;
      }
      return false;
    }
    Op op = decode();
    if (t_.leader()) next.pc = nextPc_;
    if (opWord_ & kTeamFlag) {  // isTeamOp(op)
      settleReads();
      teamOp(op, *this, next);
      if (t_.leader()) count(op, next);
      return true;
    }
    if (!t_.leader()) return true;
    if (!one) {
      leaderRun(op, next, c.mode == kChecked);
    } else {
      leaderOp(op, next, c.mode == kChecked);
      if (opWord_ & kReadsBitsFlag) next.reads = 1;
      count(op, next);
    }
    return true;
  }

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
      reads = reads || (opWord_ & kReadsBitsFlag) != 0;  // leaderReadsBits(op)
      if (next.stop) break;  // a stopped instruction is the host's to count
      ++executed;
      countOp(op, stats);
      if (next.mode != kRun || next.jobs) break;
      pc_ = next.pc;
      fn_ = next.function;
      base_ = next.base;
      op = decode();
      if (opWord_ & kTeamFlag) break;  // isTeamOp(op)
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
    // The op word carries what the loop asks of every instruction (engineOpWord): no table lookup.
    const std::uint32_t w = code_[pc_];
    opWord_ = w;
    a_ = code_ + pc_ + 1;
    nextPc_ = pc_ + 1 + ((w >> kOperandCountShift) & kOperandCountMask);
    return static_cast<Op>(w & kOpcodeMask);
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
  // The interpreter's operands (teamOp's Ops): the registers the instruction names.
  STAR_HD std::uint32_t imm(int k) const { return a_[k]; }
  STAR_HD void put(int k, std::int64_t v) {
    if (t_.leader()) setI(k, v);
  }
  // A result's new shape, written by each block's leader after the team's barrier. The
  // interpreter's next step begins with a block barrier that makes it seen; compiled code goes
  // straight on, so there the block meets before (every read of the old shape done) and after,
  // and only when the shape changes.
  STAR_HD void setRows(std::uint32_t d, std::uint64_t rows) { setShape(d, rows, S(d).cols, S(d).fixed); }
  STAR_HD void setShape(std::uint32_t d, std::uint64_t rows, std::uint64_t cols, std::uint32_t fixed) {
    if (compiled_) {
      const Shape& s = S(d);
      if (s.rows == rows && s.cols == cols && s.fixed == fixed) return;
      t_.syncBlock();
    }
    if (t_.leader()) {
      S(d).rows = rows;
      S(d).cols = cols;
      S(d).fixed = fixed;
    }
    if (compiled_) t_.syncBlock();
  }
  STAR_HD Word& R(std::uint32_t operand) {
    return (operand & kGlobalBit) ? s_.globals[operand & ~kGlobalBit] : s_.stack[base_ + operand];
  }
  STAR_HD std::int64_t I(int k) { return static_cast<std::int64_t>(R(a_[k])); }
  STAR_HD double F(int k) { return realFromBits(R(a_[k])); }
  STAR_HD std::uint32_t H(int k) { return static_cast<std::uint32_t>(R(a_[k])); }
  STAR_HD Shape& S(std::uint32_t handle) { return s_.shapes[handle]; }
  STAR_HD void setI(int k, std::int64_t v) { R(a_[k]) = static_cast<Word>(v); }
  STAR_HD void setF(int k, double v) { R(a_[k]) = realBitsOf(v); }

  // The instruction stops the run; the host executes it (leader only writes).
  STAR_HD void stop(Ctl& next, StopReason why) {
    if (!t_.leader() && !ownSlot_) return;
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

  // ---- compiled code's owned instructions. Element-wise instructions on bit vectors and table
  // columns (ownedOp) touch only the words each thread owns: word w of every vector and of
  // every column is thread w mod size's, the same thread in every instruction. So in compiled
  // code, where the team goes straight on, one needs no barrier before the next: the team meets
  // only before an instruction that touches words other threads own (settle), and before a bit
  // read or an owned write that would race with one (beforeSharedRead; an owned write to a
  // handle that every thread read). The handles so touched since the last barrier are kept as
  // 64-bit masks (handle mod 64: a collision only adds a barrier). A reduction's barriers order
  // every access before it, so it clears them. The interpreter keeps a barrier after every
  // instruction (its next step begins with the leader's decisions).
  STAR_HD static std::uint64_t handleBit(std::uint32_t h) { return std::uint64_t{1} << (h & 63); }
  // Owned instructions are Opcodes.def's flags o and v (isOwnedWrite, isOwnedReduction).
  STAR_HD bool ownedOp(Op op) const { return compiled_ && isOwned(op); }
  // An owned instruction is about to write `handle`'s words: after every thread's read of them.
  STAR_HD void beforeOwnedWrite(std::uint32_t handle) {
    if (sharedReads_ & handleBit(handle)) settle();
  }
  // The instruction's bits are written: a barrier in the interpreter, a note in compiled code.
  STAR_HD void wrote(std::uint32_t handle) {
    if (compiled_) ownedWrites_ |= handleBit(handle);
    else t_.syncData();
  }
  // A reduction's barriers ordered every access before it.
  STAR_HD void reduced() { ownedWrites_ = sharedReads_ = 0; }

  // Before bits may be written: every block's leader has done its reads of them (grids only;
  // in one block, the barrier that starts each step orders them already).
  STAR_HD void settleReads() {
    if (pendingReads_) t_.syncData();
    pendingReads_ = false;
  }

  // ---- the leader's instructions (EngineLeader.h)
  STAR_HD void leaderOp(Op op, Ctl& next, bool checked);
  STAR_HD bool poll(Ctl& next, bool checked);
  STAR_HD void call(Ctl& next, bool checked);
  STAR_HD void enter(Ctl& next);
  STAR_HD void ret(Ctl& next);
  STAR_HD Word* deref(Word ref);
  STAR_HD void jump(Ctl& next, std::uint32_t target, bool checked);

  // ---- the team's instructions (EngineTeamDispatch.h, EngineParallelLoop.h)
  template <class Ops>
  STAR_HD void teamOp(Op op, Ops& o, Ctl& next);
  template <class Ops>
  STAR_HD void bitwise(Op op, Ops& o, Ctl& next);
  template <class Ops>
  STAR_HD void getLine(Op op, Ops& o, Ctl& next);
  template <class Ops>
  STAR_HD void setLine(Op op, Ops& o, Ctl& next);
  STAR_HD void parallelLoop(Ctl& next);

  // LoopForm's values (vm/bytecode/Module.h; EngineLoops.cpp checks that they agree).
  static constexpr std::uint32_t kForall = 1, kStepWhile = 2, kSomeStep = 3, kForIf = 4;

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

  Team& t_;
  const Program& p_;
  Region s_;
  std::uint32_t pc_ = 0, fn_ = 0, nextPc_ = 0;
  std::uint32_t opWord_ = 0;  // the op word decode() read last (engineOpWord's flags)
  std::uint64_t base_ = 0;
  const std::uint32_t* a_ = nullptr;
  const std::uint32_t* code_ = nullptr;       // function codeFunction_'s code
  std::uint32_t codeFunction_ = ~std::uint32_t{0};
  bool pendingReads_ = false;  // a leader read bits since the last team-wide barrier
  std::uint64_t ownedWrites_ = 0, sharedReads_ = 0;  // compiled code's masks (handleBit)
  bool compiled_ = false;      // every thread runs on after an instruction (setShape)
  bool ownSlot_ = false;       // `next` is the thread's own, not the block's control slot
};

}  // namespace star::engine

// The Core's parts (each includes this header first).
#include "vm/engine/EngineLeader.h"
#include "vm/engine/EngineParallelLoop.h"
#include "vm/engine/EngineTeamDispatch.h"
