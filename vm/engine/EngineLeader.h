// The device engine's leader (EngineCore.h's Core, its part run by each block's interpreting
// thread alone): the instructions on scalars, shapes and control (leaderOp), and control itself:
// calls and returns, jumps, polls for interrupts and the budget, references. The leader writes
// the block's copy of the state; where the team must copy bits (by-value parameters, a returned
// vector), it leaves CopyJobs for the next step.
#pragma once

#include <cstdint>

#include "core/BitLayout.h"
#include "core/CheckedMath.h"
#include "core/HostFloat.h"
#include "vm/bytecode/Opcodes.h"
#include "vm/engine/EngineCore.h"
#include "vm/engine/EngineReads.h"
#include "vm/semantics/ScalarOps.h"

namespace star::engine {

// ---- control (leader)
// At backward jumps and calls: the interrupt flag now and then (the team agrees on it in a step
// of its own, after which the instruction runs again with `checked`), and the budget.
template <class Team>
STAR_HD bool Core<Team>::poll(Ctl& next, bool checked) {
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

template <class Team>
STAR_HD void Core<Team>::call(Ctl& next, bool checked) {
  if (poll(next, checked)) enter(next);
}

// Calls and returns keep the header's counters and the region's arrays in locals and write the
// counters once at the end: every store below could alias them, and the compiler reloaded them
// after each store in the parameter and release loops (profiled on the GPU; this took 8% off a
// compiled call, whose other loads are of the state itself).

// A call after its poll: the checks, the callee's frame, its parameters' copies (CopyJobs).
template <class Team>
STAR_HD void Core<Team>::enter(Ctl& next) {
  Header& h = *s_.h;
  Word* const stack = s_.stack;
  Shape* const shapes = s_.shapes;
  const std::uint32_t* const freeBits = s_.freeBits;
  const std::uint32_t* const freeTables = s_.freeTables;
  const std::uint32_t calleeIndex = a_[0], argOffset = a_[1], resultDst = a_[2];
  const FunctionInfo callee = p_.functions[calleeIndex];
  const ParamInfo* const params = p_.params + callee.params;
  const OwnedReg* const ownedRegs = p_.ownedRegs + callee.owned;
  const std::uint64_t frames = h.frames, stackSize = h.stackSize;
  std::uint64_t bitsLeft = h.freeBits, tablesLeft = h.freeTables, owned = h.owned;
  if ((h.flags & kFlagNatives) && callee.nativeId >= 0) return stop(next, StopReason::Native);
  if (frames >= h.maxFrames) return stop(next, StopReason::Error);
  const std::uint64_t argBase = base_ + argOffset;
  const std::uint64_t newBase = stackSize;
  if ((newBase + callee.numRegs) * sizeof(Word) > h.maxStack) return stop(next, StopReason::Error);
  if (newBase + callee.numRegs > h.stackCap || frames + 1 > h.framesCap)
    return stop(next, StopReason::Room);
  // The handles the call takes from the pools, in the host's order: parameters, then owned.
  std::uint64_t needBits = 0, needTables = 0, jobs = 0;
  for (std::uint32_t i = 0; i < callee.nParams; ++i) {
    const ParamInfo pi = params[i];
    if (pi.byRef || (pi.kind != kKindBits && pi.kind != kKindTable)) continue;
    const bool table = pi.kind == kKindTable;
    const std::uint64_t top = table ? tablesLeft - needTables : bitsLeft - needBits;
    if (top == 0) return stop(next, StopReason::Pools);
    const std::uint32_t taken = table ? freeTables[top - 1] : freeBits[top - 1];
    const Shape& arg = shapes[static_cast<std::uint32_t>(stack[argBase + i])];
    if (valueWords(arg) > shapes[taken].capacity) return stop(next, StopReason::Storage);
    (table ? needTables : needBits) += 1;
    ++jobs;
  }
  for (std::uint32_t k = 0; k < callee.nOwned; ++k)
    (ownedRegs[k].kind == kKindTable ? needTables : needBits) += 1;
  if (needBits > bitsLeft || needTables > tablesLeft) return stop(next, StopReason::Pools);
  if (owned + needBits + needTables > h.ownedCap) return stop(next, StopReason::Room);
  if (jobs > kMaxCopyJobs) return stop(next, StopReason::Other);

  s_.frames[frames - 1].pc = nextPc_;
  // The callee's registers start at zero.
  Word* const calleeRegs = stack + newBase;
  for (std::uint32_t r = 0; r < callee.numRegs; ++r) calleeRegs[r] = 0;
  // A handle from a pool (the last one freed), its shape cleared, owned by the new frame.
  const auto take = [&](std::uint32_t kind) {
    const std::uint32_t handle = kind == kKindTable ? freeTables[--tablesLeft] : freeBits[--bitsLeft];
    Shape& s = shapes[handle];
    s.rows = 0;
    s.cols = kind == kKindTable ? 0 : 1;
    s.fixed = 0;
    s_.owned[owned++] = Owned{handle, kind};
    return handle;
  };
  const std::uint64_t ownedBegin = owned;
  std::uint32_t job = 0;
  for (std::uint32_t i = 0; i < callee.nParams; ++i) {
    const ParamInfo pi = params[i];
    const Word arg = stack[argBase + i];
    if (!pi.byRef && (pi.kind == kKindBits || pi.kind == kKindTable)) {
      const std::uint32_t handle = take(pi.kind);
      const Shape& src = shapes[static_cast<std::uint32_t>(arg)];
      shapes[handle].rows = src.rows;
      shapes[handle].cols = src.cols;
      s_.jobs[job++] = CopyJob{handle, static_cast<std::uint32_t>(arg)};
      calleeRegs[i] = handle;
    } else {
      calleeRegs[i] = arg;
    }
  }
  for (std::uint32_t k = 0; k < callee.nOwned; ++k) {
    const OwnedReg o = ownedRegs[k];
    calleeRegs[o.reg] = take(o.kind);
  }
  s_.frames[frames] = Frame{calleeIndex, 0, resultDst, 0, newBase, ownedBegin};
  h.frames = frames + 1;
  h.stackSize = newBase + callee.numRegs;
  h.freeBits = bitsLeft;
  h.freeTables = tablesLeft;
  h.owned = owned;
  next = Ctl{0, calleeIndex, newBase, 0, kRun, job, 0};
}

template <class Team>
STAR_HD void Core<Team>::ret(Ctl& next) {
  Header& h = *s_.h;
  const std::uint64_t frames = h.frames;
  if (frames == 1) return stop(next, StopReason::End);
  Shape* const shapes = s_.shapes;
  const Frame done = s_.frames[frames - 1];
  const Frame caller = s_.frames[frames - 2];
  const FunctionInfo& callee = p_.functions[done.function];
  const std::int32_t resultReg = callee.resultReg;
  const std::uint32_t resultKind = callee.resultKind;
  std::uint32_t jobs = 0;
  if (resultReg >= 0) {
    const Word result = s_.stack[done.base + static_cast<std::uint32_t>(resultReg)];
    Word& dst = (done.resultDst & kGlobalBit) ? s_.globals[done.resultDst & ~kGlobalBit]
                                              : s_.stack[caller.base + done.resultDst];
    if (resultKind == kKindBits) {
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
  std::uint64_t bitsLeft = h.freeBits, tablesLeft = h.freeTables;
  const std::uint64_t ownedEnd = h.owned;
  const Owned* const owned = s_.owned;
  std::uint32_t* const freeBits = s_.freeBits;
  std::uint32_t* const freeTables = s_.freeTables;
  for (std::uint64_t i = done.ownedBegin; i < ownedEnd; ++i) {
    const Owned o = owned[i];
    shapes[o.handle].fixed = 0;
    if (o.kind == kKindTable) freeTables[tablesLeft++] = o.handle;
    else freeBits[bitsLeft++] = o.handle;
  }
  h.freeBits = bitsLeft;
  h.freeTables = tablesLeft;
  h.owned = done.ownedBegin;
  h.stackSize = done.base;
  h.frames = frames - 1;
  next = Ctl{caller.pc, caller.function, caller.base, 0, kRun, jobs, 0};
}

// A reference's target, or null when it is invalid (the host reports that).
template <class Team>
STAR_HD Word* Core<Team>::deref(Word ref) {
  const Header& h = *s_.h;
  if (ref & kRefGlobal) {
    const Word g = ref & ~kRefGlobal;
    return g < h.globals ? &s_.globals[g] : nullptr;
  }
  return ref < h.stackSize ? &s_.stack[ref] : nullptr;
}

template <class Team>
STAR_HD void Core<Team>::jump(Ctl& next, std::uint32_t target, bool checked) {
  if (target <= pc_ && !poll(next, checked)) return;
  next.pc = target;
}

template <class Team>
STAR_HD void Core<Team>::leaderOp(Op op, Ctl& next, bool checked) {
  // The commonest instructions first, each family behind one range test: the switch below
  // compiles to a tree of about seven compares and branches.
  if (within(op, Op::IEQ, Op::IGE)) {
    setI(0, sem::compareIntegers(static_cast<unsigned>(number(op) - number(Op::IEQ)), I(1), I(2)));
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
    const FaultKind fault = op == Op::IADD ? sem::add(I(1), I(2), r) : sem::subtract(I(1), I(2), r);
    if (fault != FaultKind::None) return stop(next, StopReason::Error);
    return setI(0, r);
  }
  const Header& h = *s_.h;
  switch (op) {
    // The scalar operations (vm/semantics/ScalarOps.h), one case each from Opcodes.def; a fault
    // hands the instruction back, and the host reports it.
#define STAR_SCALAR_CASE(name)                                                      \
  case Op::name: {                                                                  \
    std::uint64_t r;                                                                \
    const Word y = operandCount(Op::name) > 2 ? R(a_[2]) : 0;                       \
    if (scalarOp<Op::name>(R(a_[1]), y, r) != FaultKind::None)                      \
      return stop(next, StopReason::Error);                                         \
    R(a_[0]) = r;                                                                   \
    break;                                                                          \
  }
// isHostMathOp: the host's C library computes them.
#define STAR_HOST_MATH_CASE(name) \
  case Op::name: return stop(next, StopReason::Math);
#include "vm/semantics/ScalarCases.inc"
    case Op::SEQ: case Op::SNE: {
      // Strings are interned: two known strings are equal exactly when their indices are.
      const Word x = R(a_[1]), y = R(a_[2]);
      if (x >= h.stringCount || y >= h.stringCount) return stop(next, StopReason::Text);
      setI(0, op == Op::SEQ ? x == y : x != y);
      break;
    }
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
    case Op::PSTR: case Op::STOI: case Op::STOF:
    case Op::SLEN: case Op::SCHAR: case Op::STOW: case Op::WTOS:
      return stop(next, StopReason::Text);
    case Op::TLOAD: case Op::TSAVE: case Op::TLOADG: case Op::TLOADE: case Op::TLOADN: case Op::TSAVEN:
    case Op::TSAVEP: case Op::BSAVEP:
      return stop(next, StopReason::File);
    case Op::RAISE: return stop(next, StopReason::Error);

    // ---- reads of shapes and bits (made visible by the steps before)
    case Op::BGET: case Op::BLEN: case Op::WVAL: case Op::WSVAL: case Op::WFVAL: case Op::TROWS: case Op::TCOLS: {
      Word r;
      if (!readShape(op, S(H(1)), op == Op::BGET ? I(2) : 0, r)) return stop(next, StopReason::Error);
      R(a_[0]) = r;
      break;
    }
    default:
      return stop(next, StopReason::Other);
  }
}

}  // namespace star::engine
