// PFOR: a parallel loop's body run for all its iterations at once by the backend's executor
// (vm/backend/ParallelPlan.h), or, when that cannot be done, its sequential code (the caller
// falls through into it). The result is what the sequential loop leaves: the written cells, the
// loop variable, the selector, and the iteration-local variables that are read afterwards.
#include <bit>
#include <map>

#include "vm/backend/ParallelPlan.h"
#include "vm/bytecode/Decode.h"
#include "vm/interp/FaultText.h"
#include "vm/interp/Interpreter.h"
#include "vm/interp/ParallelBody.h"

namespace star {

namespace {

// The lengths every instruction needs to agree, from the shapes at the PFOR; false when one
// would fail (the sequential code then reports it).
struct PlanShapes {
  Backend& backend;
  std::vector<std::int64_t> slotLength;  // private bit vectors; -1 until written

  std::int64_t length(const PlanOperand& o) const {
    if (o.source == Source::Private) return slotLength[o.slot];
    return static_cast<std::int64_t>(backend.length(o.handle));
  }
};

}  // namespace

const ParallelBody& Interpreter::parallelBody(const Module& m, std::uint32_t fnIndex,
                                              std::uint32_t loopIndex) {
  const auto key = std::make_pair(fnIndex, loopIndex);
  auto cached = parallelBodies_.find(key);
  if (cached == parallelBodies_.end()) {
    const Function& fn = m.functions[fnIndex];
    cached = parallelBodies_.emplace(key, analyseParallelBody(m, fn, fn.parallelLoops[loopIndex])).first;
  }
  return cached->second;
}

bool Interpreter::runParallel(const Module& m, const Function& fn, std::uint32_t loopIndex,
                              std::uint32_t pforPc) {
  ParallelExecutor* executor = backend_.parallelExecutor();
  if (!executor) return false;
  const ParallelBody& body = parallelBody(m, frames_.back().function, loopIndex);
  const ParallelLoop& loop = fn.parallelLoops[loopIndex];
  auto fallBack = [&] {
    ++parallelStats_.sequential;
    return false;
  };
  if (!body.ok) return fallBack();

  ParallelPlan plan;
  std::map<std::uint32_t, std::uint32_t> slotOf;  // private register -> slot
  for (const auto& p : body.privates) {
    if (p.kind == SlotKind::Bits) {
      slotOf[p.reg] = static_cast<std::uint32_t>(plan.bitsSlotLength.size());
      plan.bitsSlotLength.push_back(0);
    } else {
      slotOf[p.reg] = plan.scalarSlots++;
    }
  }
  PlanShapes shapes{backend_, std::vector<std::int64_t>(plan.bitsSlotLength.size(), -1)};
  std::vector<Handle> shared;  // shared handles the body reads, for the alias check

  auto operandOf = [&](std::uint32_t r, char shape) {
    PlanOperand o;
    if (r == loop.index && shape != 'b' && shape != 'T') {
      o.source = Source::Index;
      return o;
    }
    auto s = slotOf.find(r);
    if (s != slotOf.end()) {
      o.source = Source::Private;
      o.slot = s->second;
      return o;
    }
    o.source = Source::Shared;
    o.value = reg(r).u;
    if (shape == 'b' || shape == 'T') {
      o.handle = static_cast<Handle>(o.value);
      shared.push_back(o.handle);
    }
    return o;
  };

  // Private scalars holding a constant where an instruction reads them (FBIN's length, say):
  // the value of a LOADI or LOADK, until the slot is written again or paths merge (a jump's
  // target; jumps go forward).
  std::vector<std::uint8_t> target(body.ops.size() + 1, 0);
  for (const ParallelBody::Op& bo : body.ops)
    if (isJump(bo.op)) target[bo.target] = 1;
  std::map<std::uint32_t, std::uint64_t> knownSlot;  // private scalar slot -> its value here
  auto known = [&](const PlanOperand& o, std::uint64_t& v) {
    if (o.source == Source::Shared) {
      v = o.value;
      return true;
    }
    auto it = o.source == Source::Private ? knownSlot.find(o.slot) : knownSlot.end();
    if (it == knownSlot.end()) return false;
    v = it->second;
    return true;
  };

  for (const ParallelBody::Op& bo : body.ops) {
    if (target[plan.ops.size()]) knownSlot.clear();
    PlanOp po;
    po.op = bo.op;
    po.pc = bo.pc;
    po.target = bo.target;
    const OpInfo& info = opInfo(bo.op);
    for (std::size_t k = 0; k < info.shape.size(); ++k) {
      char c = info.shape[k];
      if (isRegisterShape(c)) {
        po.a[k] = operandOf(bo.operand[k], c);
        continue;
      }
      po.a[k].source = Source::None;
      std::uint32_t v = bo.operand[k];
      switch (c) {
        case 'i': po.a[k].value = static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(v))); break;
        case 'k': {
          const Constant& constant = m.constants[v];
          if (bo.op == Op::BCONST) {
            std::vector<std::uint64_t> words(wordsForBits(constant.text.size()), 0);
            for (std::size_t b = 0; b < constant.text.size(); ++b)
              if (constant.text[b] == '1') words[b / 64] |= std::uint64_t{1} << (b % 64);
            po.a[k].slot = static_cast<std::uint32_t>(plan.constantWords.size());
            plan.constantWords.push_back(std::move(words));
            plan.constantLength.push_back(constant.text.size());
          } else if (constant.tag == ValueTag::Real) {
            po.a[k].value = std::bit_cast<std::uint64_t>(constant.realValue);
          } else if (constant.tag == ValueTag::String) {
            po.a[k].value = constStrings_[v];
          } else {
            po.a[k].value = static_cast<std::uint64_t>(constant.intValue);
          }
          break;
        }
        default: po.a[k].value = v; break;
      }
    }
    // Lengths: every instruction's operands agree, and a private vector has one length.
    auto need = [&](bool ok) { return ok; };
    auto define = [&](const PlanOperand& dst, std::int64_t len) {
      if (dst.source != Source::Private) return false;
      std::int64_t& have = shapes.slotLength[dst.slot];
      if (have >= 0 && have != len) return false;
      have = len;
      return true;
    };
    bool ok = true;
    switch (bo.op) {
      case Op::BCONST: ok = define(po.a[0], static_cast<std::int64_t>(plan.constantLength[po.a[1].slot])); break;
      case Op::BCOPY: case Op::BNOT: case Op::BFRST: {
        std::int64_t len = shapes.length(po.a[1]);
        ok = len >= 0 && define(po.a[0], len);
        break;
      }
      case Op::BFILL:
        if (po.a[0].source == Source::Private && shapes.slotLength[po.a[0].slot] < 0)
          ok = define(po.a[0], static_cast<std::int64_t>(backend_.length(static_cast<Handle>(reg(bo.operand[0]).u))));
        break;
      case Op::BAND: case Op::BOR: case Op::BXOR: {
        std::int64_t x = shapes.length(po.a[1]), y = shapes.length(po.a[2]);
        ok = x >= 0 && x == y && define(po.a[0], x);
        break;
      }
      case Op::WEQ: case Op::WNE: case Op::WLT: case Op::WLE: case Op::WGT: case Op::WGE:
        ok = need(shapes.length(po.a[1]) == shapes.length(po.a[2]) && shapes.length(po.a[1]) >= 0);
        break;
      // Where VAL, FVAL or FBIN would fail on a length, the sequential code reports it.
      case Op::WVAL: {
        const std::int64_t len = shapes.length(po.a[1]);
        ok = len >= 0 && len <= 63;
        break;
      }
      case Op::WFVAL: {
        const std::int64_t len = shapes.length(po.a[1]);
        ok = len == 32 || len == 64;
        break;
      }
      case Op::WFBIN: {
        std::uint64_t k = 0;
        ok = known(po.a[2], k) && (k == 32 || k == 64) && define(po.a[0], static_cast<std::int64_t>(k));
        break;
      }
      case Op::TGETCOL: ok = define(po.a[0], static_cast<std::int64_t>(backend_.rows(po.a[1].handle))); break;
      case Op::TGETROW: ok = define(po.a[0], static_cast<std::int64_t>(backend_.cols(po.a[1].handle))); break;
      case Op::TSETCOL: ok = shapes.length(po.a[2]) == static_cast<std::int64_t>(backend_.rows(po.a[0].handle)); break;
      case Op::TSETROW: ok = shapes.length(po.a[2]) == static_cast<std::int64_t>(backend_.cols(po.a[0].handle)); break;
      default: break;
    }
    if (!ok) return fallBack();
    for (std::size_t k = 0; k < info.shape.size(); ++k)
      if ((info.shape[k] == 's' || info.shape[k] == 'm') && info.access[k] == 'w' &&
          po.a[k].source == Source::Private)
        knownSlot.erase(po.a[k].slot);
    if ((bo.op == Op::LOADI || bo.op == Op::LOADK) && po.a[0].source == Source::Private)
      knownSlot[po.a[0].slot] = po.a[1].value;
    plan.ops.push_back(po);
  }
  // A private vector keeps the size its variable's declaration fixes.
  for (const auto& p : body.privates)
    if (p.kind == SlotKind::Bits) {
      std::uint32_t slot = slotOf[p.reg];
      if (shapes.slotLength[slot] < 0) return fallBack();  // never written: nothing to give it
      plan.bitsSlotLength[slot] = static_cast<std::uint64_t>(shapes.slotLength[slot]);
      Handle h = static_cast<Handle>(reg(p.reg).u);
      if (fixedShape(h) && backend_.length(h) != plan.bitsSlotLength[slot]) return fallBack();
    }
  // Cells written at the iteration's index belong to one iteration each: no other register may
  // name the same storage (two var parameters bound to one table, say).
  for (const auto& [r, op] : body.writtenAtIndex) {
    Handle h = static_cast<Handle>(reg(r).u);
    int named = 0;
    for (std::uint32_t k = 0; k < body.ops.size(); ++k) {
      const OpInfo& info = opInfo(body.ops[k].op);
      for (std::size_t j = 0; j < info.shape.size(); ++j)
        if ((info.shape[j] == 'b' || info.shape[j] == 'T') && body.ops[k].operand[j] != r &&
            static_cast<Handle>(reg(body.ops[k].operand[j]).u) == h && !slotOf.count(body.ops[k].operand[j]))
          ++named;
    }
    if (named || static_cast<Handle>(reg(loop.selector).u) == h) return fallBack();
  }

  // The iterations and what the loop leaves.
  plan.selector = static_cast<Handle>(reg(loop.selector).u);
  const std::uint64_t selectorLength = backend_.length(plan.selector);
  switch (loop.form) {
    case LoopForm::Forall:
    case LoopForm::StepWhile:
      plan.from = 1;
      plan.to = selectorLength;
      plan.clearSelector = loop.form == LoopForm::StepWhile;
      break;
    case LoopForm::SomeStep:
      plan.from = 1;
      plan.to = selectorLength;
      plan.clearSelector = true;
      plan.wantLastIndex = body.indexLiveOut;
      break;
    case LoopForm::ForIf: {
      std::int64_t a = reg(loop.first).i, b = reg(loop.last).i;
      // The sequential code reads X(i) for every i of the range: out of range, it reports that.
      if (a > b || a < 1 || static_cast<std::uint64_t>(b) > selectorLength) return fallBack();
      plan.from = static_cast<std::uint64_t>(a);
      plan.to = static_cast<std::uint64_t>(b);
      break;
    }
  }
  for (const auto& p : body.privates)
    if (p.liveOut)
      plan.liveOut.push_back({p.kind == SlotKind::Bits, slotOf[p.reg],
                              p.kind == SlotKind::Bits ? static_cast<Handle>(reg(p.reg).u) : kNoHandle});

  plan.countIterations = statsOn_;
  ParallelOutcome outcome;
  if (!executor->runParallel(plan, outcome)) return fallBack();
  ++parallelStats_.parallel;
  parallelStats_.iterations += outcome.iterations;

  if (outcome.fault.kind != FaultKind::None) {
    const PlanOp& op = plan.ops[outcome.fault.op];
    const std::int64_t* v = outcome.fault.values;
    std::string message;
    switch (outcome.fault.kind) {
      case FaultKind::Overflow: case FaultKind::DivisionByZero: case FaultKind::NotAnInteger:
        message = scalarFaultMessage(op.op, outcome.fault.kind, static_cast<std::uint64_t>(v[0]));
        break;
      case FaultKind::IndexRange: message = indexMessage(indexWhat(op.op), v[0], static_cast<std::uint64_t>(v[1])); break;
      case FaultKind::ComponentValue: message = componentMessage(v[0]); break;
      case FaultKind::Raise: {
        Value s;
        s.u = static_cast<std::uint64_t>(v[0]);
        message = text(s);
        break;
      }
      case FaultKind::None: break;
    }
    out_.flush();
    RuntimeError error(op.pc < fn.locs.size() ? fn.locs[op.pc] : fn.locs[pforPc], message);
    traceCallers(m, frames_.size(), error);
    throw error;
  }

  // The loop variable as the sequential loop leaves it.
  switch (loop.form) {
    case LoopForm::Forall:
    case LoopForm::StepWhile: reg(loop.index).i = 0; break;
    case LoopForm::SomeStep:
      if (plan.wantLastIndex && outcome.lastIndex > 0) reg(loop.index).i = outcome.lastIndex;
      break;
    case LoopForm::ForIf: reg(loop.index).i = reg(loop.last).i; break;
  }
  for (std::size_t k = 0; k < plan.liveOut.size(); ++k) {
    const auto& lo = plan.liveOut[k];
    if (lo.bits || !outcome.liveOutWritten[k]) continue;
    for (const auto& p : body.privates)
      if (p.kind != SlotKind::Bits && slotOf[p.reg] == lo.slot) reg(p.reg).u = outcome.liveOutScalars[k];
  }
  return true;
}

}  // namespace star
