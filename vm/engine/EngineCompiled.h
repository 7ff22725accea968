// What compiled code (vm/compile/: a module's functions as C++, compiled for the GPU by NVRTC or
// for host threads by the host compiler) runs on: the device engine's team, state and protocol.
//
// Every thread of the team runs the compiled functions together: scalar instructions on its own
// copy of the registers (C++ locals, so in machine registers), instructions on the bits through
// the interpreter's own code for them (Core::team, with the operands in hand), so that checks,
// stops and results are the interpreter's by construction. The block region holds the state
// between functions: a compiled function loads the registers it uses on entry and, before it
// leaves (a stop, or an instruction it leaves to the interpreter, Core::runOne), each block's
// leader writes back the ones it writes. A run that stops is in exactly the state the interpreter
// engine leaves, so the host takes over the same way.
//
// The generated code is one function per Star function, `Exit f_N(Compiled<Team>&)`, entered at
// c.pc (0, a jump target, or the instruction after one it left to the interpreter), and one
// trampoline, runCompiled, that enters the function the run is in until the run stops.
#pragma once

#include <cstdint>

#include "core/HostFloat.h"
#include "vm/bytecode/Opcodes.h"
#include "vm/engine/EngineCore.h"
#include "vm/engine/EngineReads.h"
#include "vm/semantics/ScalarOps.h"

namespace star::engine {

// How a compiled function left: the run stopped (the header says where and why), or it goes on
// at (c.function, c.pc, c.base), in this function or another.
enum class Exit : std::uint32_t { Stopped, Moved };

// An instruction's operands in hand, for Core::team: registers' values, the immediates, and the
// scalar result it puts.
struct Values {
  Word v[4];
  std::uint32_t im[4];
  STAR_HD std::uint32_t H(int k) const { return static_cast<std::uint32_t>(v[k]); }
  STAR_HD std::int64_t I(int k) const { return static_cast<std::int64_t>(v[k]); }
  STAR_HD double F(int k) const { return realFromBits(v[k]); }
  STAR_HD std::uint32_t imm(int k) const { return im[k]; }
  STAR_HD void put(int k, std::int64_t x) { v[k] = static_cast<Word>(x); }
};

// The generated loops over a thread's kept words (unrolled: the words stay in registers).
#if defined(__CUDACC__)
#define STAR_OWNED_FOR(j) _Pragma("unroll") for (int j = 0; j < ::star::engine::kOwnedWords; ++j)
#else
#define STAR_OWNED_FOR(j) \
  _Pragma("GCC unroll 8") for (int j = 0; j < ::star::engine::kOwnedWords; ++j)
#endif

template <class Team>
class Compiled {
 public:
  STAR_HD_FN Compiled(Team& team, const Program& program, Region region)
      : t(team), core(team, program, region, true), s_(region) {
    const Header& h = *s_.h;
    stats = (h.flags & kFlagStats) != 0;
    polls_ = h.pollsToCheck;
    budget_ = h.budgetLeft;
    function = h.function;
    pc = h.pc;
    base = h.base;
  }

  // ---- the state
  STAR_HD Word reg(std::uint32_t r) const { return s_.stack[base + r]; }
  STAR_HD Word global(std::uint32_t g) const { return s_.globals[g]; }
  // Writes back (each block's leader; the next barrier makes them seen).
  STAR_HD void putReg(std::uint32_t r, Word v) {
    if (t.leader()) s_.stack[base + r] = v;
  }
  STAR_HD void putGlobal(std::uint32_t g, Word v) {
    if (t.leader()) s_.globals[g] = v;
  }
  STAR_HD const Shape& shape(Word handle) const {
    return s_.shapes[static_cast<std::uint32_t>(handle)];
  }
  STAR_HD Word constant(std::uint32_t k) const { return core.constant(k); }

  // ---- counting, for --stats (only with it on)
  STAR_HD void counted(Op op) {
    ++executed_;
    if (t.leader() && static_cast<std::uint32_t>(op) < kOpCounters)
      ++s_.opCounts[static_cast<std::uint32_t>(op)];
  }

  // ---- control
  // A backward jump's poll (Core::poll): the interrupt flag every kPollsPerCheck, agreed by the
  // team, and the budget. False: the run stops there (the caller writes its registers back first
  // and then calls stopAt).
  STAR_HD bool poll() { return poll(polls_, budget_); }
  // The same on counters the caller keeps: an owned loop's code holds them in locals (in
  // registers, where the members are memory) from its way in to its way out.
  STAR_HD bool poll(std::uint64_t& polls, std::uint64_t& budget) {
    if (polls == 0) {
      polls = kPollsPerCheck;
      if (t.reduceOr(t.leader() && t.interrupted())) return false;
    } else {
      --polls;
    }
    if (budget) {
      if (budget == 1) return false;
      --budget;
    }
    return true;
  }
  STAR_HD void takePolls(std::uint64_t& polls, std::uint64_t& budget) const {
    polls = polls_;
    budget = budget_;
  }
  STAR_HD void givePolls(std::uint64_t polls, std::uint64_t budget) {
    polls_ = polls;
    budget_ = budget;
  }
  // The run stops before the instruction at `at` (the host executes it).
  STAR_HD_OUTLINE Exit stopAt(std::uint32_t at, StopReason why) {
    core.settle();
    if (t.leader()) {
      Header& h = *s_.h;
      h.function = function;
      h.pc = at;
      h.base = base;
      h.stop = static_cast<std::uint32_t>(why);
    }
    saveCounters();
    return Exit::Stopped;
  }
  // The instruction at `at` run by the interpreter (Core::runOne), after the caller wrote its
  // registers back; the trampoline then enters whatever function the run goes on in.
  STAR_HD_OUTLINE Exit interpret(std::uint32_t at);
  // A CALL or RET at `at`, after the caller wrote its registers back: the interpreter's call
  // (its poll, checks, frame and parameter copies) or return (the result's copy, the frame
  // popped), without the trampoline. True: the run goes on at (function, pc, base), the callee's
  // start or the caller's instruction after its call; false: it stopped before the instruction
  // (the header says why).
  STAR_HD_OUTLINE bool control(std::uint32_t at, bool isCall);
  // An instruction on the bits, exactly as the interpreter runs it: the interpreter's code for
  // that opcode alone (its dispatch folded away), one copy per opcode. True: the run stops there
  // (exitPc, exitWhy say where and why).
  template <Op kOp>
  STAR_HD_OUTLINE bool team(std::uint32_t at, Values& v);
  // A read of a shape or bits (EngineReads.h) by every thread; false: the host reports the error.
  STAR_HD bool read(Op op, Word handle, std::int64_t index, Word& out) {
    if (leaderReadsBits(op)) core.beforeSharedRead(static_cast<std::uint32_t>(handle));
    return readInLoop(op, handle, index, out);
  }
  // The same in an owned loop's code: the loop's way in settled the handles it reads the bits of
  // (ownedLoopEnter), and nothing in the loop writes their words (ownedLoopFits), so no read in it
  // has anything to wait for.
  STAR_HD bool readInLoop(Op op, Word handle, std::int64_t index, Word& out) const {
    return readShape(op, shape(handle), index, out);
  }

  // ---- owned loops (vm/compile/CompiledIr.h's OwnedLoop): each thread keeps its words of the
  // loop's bit vectors (word rank + j * size for j < kOwnedWords) in locals.
  // Whether the loop can run so from here: its vectors (distinct handles) and tables all have the
  // same rows, room for their words, no more words than the team keeps, and none of its bit reads
  // reads a kept vector. Then every element-wise instruction in it keeps every shape as it is, so
  // its only checks left are the column numbers (made in the loop). The first `nd` vectors are
  // written before they are read in each pass (a procedure's temporaries): theirs may be any
  // rows that the loop's first write would change to the others' (OwnedLoop::defined).
  // `rows`: the others' rows.
  STAR_HD bool ownedLoopFits(const Word* vectors, int nv, int nd, const Word* tables, int nt,
                             const Word* reads, int nr, std::uint64_t& rows) const {
    if (nv > nd)
      rows = shape(vectors[nd]).rows;
    else if (nt)
      rows = shape(tables[0]).rows;
    else
      return false;
    const std::uint64_t words = wordsForBits(rows);
    if (words > kOwnedWords * t.size()) return false;
    for (int i = 0; i < nv; ++i) {
      const Shape& x = shape(vectors[i]);
      if (x.capacity < words) return false;
      if (i < nd ? x.fixed && x.rows != rows : x.rows != rows) return false;
      for (int k = 0; k < i; ++k)
        if (vectors[k] == vectors[i]) return false;
      for (int k = 0; k < nr; ++k)
        if (reads[k] == vectors[i]) return false;
    }
    for (int i = 0; i < nt; ++i)
      if (shape(tables[i]).rows != rows) return false;
    return true;
  }
  // On the way out, a temporary the loop wrote takes the loop's rows (as its first write in the
  // interpreter sets them; every thread calls it).
  STAR_HD void ownedLoopWrote(Word handle, std::uint64_t rows) {
    core.ownedLoopRows(static_cast<std::uint32_t>(handle), rows);
  }
  // On the way in: the loop's writes of `written` wait for every thread's reads of them, and its
  // bit reads of `reads` for the owned writes before the loop (as each read's own test would on
  // its first pass).
  STAR_HD void ownedLoopEnter(const Word* written, int n, const Word* reads, int nr) {
    if (stats && t.leader()) ++s_.h->ownedLoops;
    for (int i = 0; i < n; ++i) core.beforeOwnedLoop(static_cast<std::uint32_t>(written[i]));
    for (int i = 0; i < nr; ++i) core.beforeSharedRead(static_cast<std::uint32_t>(reads[i]));
  }
  // On the way out, after the words are stored.
  STAR_HD void ownedLoopLeave(const Word* written, int n) {
    for (int i = 0; i < n; ++i) core.afterOwnedLoop(static_cast<std::uint32_t>(written[i]));
  }

  // The end of a launch: the counters to the header (the host reads block 0's).
  STAR_HD void saveCounters() {
    t.syncBlock();  // every thread is done reading the header's counters
    if (t.leader()) {
      Header& h = *s_.h;
      h.pollsToCheck = polls_;
      h.budgetLeft = budget_;
      h.instructions += executed_;
    }
    executed_ = 0;
    t.syncBlock();
  }

  Team& t;
  Core<Team> core;
  bool stats = false;
  std::uint32_t function = 0, pc = 0;
  // Where and why the function leaves (its Lstop and Linterpret exits read them).
  std::uint32_t exitPc = 0;
  StopReason exitWhy = StopReason::None;
  std::uint64_t base = 0;

 private:
  STAR_HD void loadCounters() {
    const Header& h = *s_.h;
    polls_ = h.pollsToCheck;
    budget_ = h.budgetLeft;
  }

  Region s_;
  std::uint64_t polls_ = 0, budget_ = 0, executed_ = 0;
};

// The ways into the interpreter's code, out of line. Where generated code is linked against
// them (NVRTC's relocatable code and runtime-cuda/kernels/CompiledLibrary.cu, which instantiates
// them once at build time), STAR_COMPILED_LINKED hides their bodies: the interpreter is then
// compiled once with star, not again with every program.
#ifndef STAR_COMPILED_LINKED
template <class Team>
STAR_HD_OUTLINE Exit Compiled<Team>::interpret(std::uint32_t at) {
  saveCounters();
  const Ctl next = core.runOne(Ctl{at, function, base, 0, kRun, 0, 0});
  loadCounters();
  if (next.stop) return Exit::Stopped;
  function = next.function;
  pc = next.pc;
  base = next.base;
  return Exit::Moved;
}

template <class Team>
STAR_HD_OUTLINE bool Compiled<Team>::control(std::uint32_t at, bool isCall) {
  if (isCall && !poll()) {
    stopAt(at, StopReason::Poll);
    return false;
  }
  const Ctl next = core.control(function, at, base);
  if (next.stop) {
    stopAt(at, static_cast<StopReason>(next.stop));
    return false;
  }
  function = next.function;
  pc = next.pc;
  base = next.base;
  return true;
}

template <class Team>
template <Op kOp>
STAR_HD_OUTLINE bool Compiled<Team>::team(std::uint32_t at, Values& v) {
  static_assert(isTeamOp(kOp));
  core.at(function, at, base);
  const StopReason why = core.team(kOp, v);
  if (why == StopReason::None) return false;
  exitPc = at;
  exitWhy = why;
  return true;
}
#endif

}  // namespace star::engine
