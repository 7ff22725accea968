#include "vm/interp/ParallelBody.h"

#include <algorithm>
#include <map>
#include <set>

#include "vm/backend/ParallelPlan.h"
#include "vm/bytecode/ControlFlow.h"
#include "vm/bytecode/Decode.h"

namespace star {
namespace {

std::string regText(std::uint32_t r) {
  return (r & kGlobalBit) ? "G" + std::to_string(r & ~kGlobalBit) : "R" + std::to_string(r);
}

// Registers an instruction reads, writes whole, or updates in part (its access letters; a CALL
// reads its arguments and writes its result; through references and handles a callee may change
// more, so nothing is killed there).
struct Effects {
  std::vector<std::uint32_t> reads, writes;
};

Effects effectsOf(const Module& m, const Instr& in) {
  Effects e;
  const OpInfo& info = opInfo(in.op);
  const std::uint32_t* a = in.operands;
  if (in.op == Op::CALL) {
    const Function& callee = m.functions[a[0]];
    for (std::uint32_t i = 0; i < callee.params.size(); ++i) e.reads.push_back(a[1] + i);
    if (callee.resultReg >= 0) {
      if (callee.resultKind == SlotKind::Scalar) e.writes.push_back(a[2]);
      else e.reads.push_back(a[2]);  // copied into the caller's handle: an update
    }
    return e;
  }
  for (std::size_t k = 0; k < info.shape.size(); ++k) {
    if (!isRegisterShape(info.shape[k])) continue;
    char acc = info.access[k];
    if (acc == 'w') e.writes.push_back(a[k]);
    else e.reads.push_back(a[k]);  // '-' and 'u' (an update reads the rest)
  }
  return e;
}

}  // namespace

std::vector<std::uint8_t> liveAtExit(const Module& m, const Function& fn, std::uint32_t exitPc) {
  const std::size_t regs = fn.numRegs;
  // Basic blocks; the loop's exit starts one.
  const std::uint32_t marks[] = {exitPc};
  const ControlFlow cfg = controlFlow(fn.code, marks);
  const std::size_t blocks = cfg.blocks.size();
  std::vector<std::vector<std::uint8_t>> use(blocks, std::vector<std::uint8_t>(regs, 0)),
      def(blocks, std::vector<std::uint8_t>(regs, 0)), in(blocks, std::vector<std::uint8_t>(regs, 0));
  // What a return leaves visible: the result, and what the caller passed by reference.
  std::vector<std::uint8_t> atReturn(regs, 0);
  if (fn.resultReg >= 0) atReturn[static_cast<std::size_t>(fn.resultReg)] = 1;
  for (std::size_t i = 0; i < fn.params.size(); ++i)
    if (fn.params[i].byRef) atReturn[i] = 1;
  for (std::size_t b = 0; b < blocks; ++b)
    for (const Instr& instr : instructions(fn.code, cfg.blocks[b].begin, cfg.blocks[b].end)) {
      Effects e = effectsOf(m, instr);
      for (std::uint32_t r : e.reads)
        if (!(r & kGlobalBit) && r < regs && !def[b][r]) use[b][r] = 1;
      for (std::uint32_t r : e.writes)
        if (!(r & kGlobalBit) && r < regs) def[b][r] = 1;
    }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t b = blocks; b-- > 0;) {
      std::vector<std::uint8_t> out = cfg.blocks[b].leaves() ? atReturn : std::vector<std::uint8_t>(regs, 0);
      for (std::size_t s : cfg.blocks[b].successors)
        for (std::size_t r = 0; r < regs; ++r) out[r] |= in[s][r];
      for (std::size_t r = 0; r < regs; ++r) {
        std::uint8_t v = use[b][r] | (out[r] & !def[b][r]);
        if (v != in[b][r]) {
          in[b][r] = v;
          changed = true;
        }
      }
    }
  }
  const std::size_t exitBlock = cfg.blockAt(exitPc);
  return exitBlock == ControlFlow::npos ? std::vector<std::uint8_t>(regs, 1) : in[exitBlock];
}

ParallelBody analyseParallelBody(const Module& m, const Function& fn, const ParallelLoop& loop) {
  ParallelBody body;
  auto reject = [&](const std::string& why) {
    body.ok = false;
    body.whyNot = why;
    return body;
  };
  if (loop.bodyBegin > loop.bodyEnd || loop.bodyEnd > fn.code.size()) return reject("bad code range");
  const bool consumes = loop.form != LoopForm::ForIf;  // STEP empties the selector
  std::map<std::uint32_t, std::uint32_t> opAt;  // pc -> op index
  for (const Instr& in : instructions(fn.code, loop.bodyBegin, loop.bodyEnd)) {
    const Op op = in.op;
    const auto pc = static_cast<std::uint32_t>(in.pc);
    if (!isParallelOp(op)) return reject("the body uses " + std::string(opInfo(op).name) + ", which parallel loops do not run");
    ParallelBody::Op o{op, pc, {0, 0, 0, 0}, 0};
    for (std::size_t k = 0; k + 1 < in.size; ++k) o.operand[k] = in.operands[k];
    if (const int j = jumpOperand(op); j >= 0) {
      std::uint32_t to = in.operands[j];
      if (to <= pc || to > loop.bodyEnd) return reject("the body jumps backward or out of itself");
      o.target = to;
    }
    opAt[pc] = static_cast<std::uint32_t>(body.ops.size());
    body.ops.push_back(o);
  }
  opAt[loop.bodyEnd] = static_cast<std::uint32_t>(body.ops.size());
  for (auto& o : body.ops)
    if (isJump(o.op)) o.target = opAt.at(o.target);

  // Writes: whole writes make a register private; updates in part are allowed on privates, and on
  // shared handles only at the loop's index.
  std::map<std::uint32_t, SlotKind> privateKind;
  std::map<std::uint32_t, Op> atIndex;
  auto kindOfLetter = [](char c) { return c == 'b' ? SlotKind::Bits : c == 'T' ? SlotKind::Table : SlotKind::Scalar; };
  for (auto& o : body.ops) {
    const OpInfo& info = opInfo(o.op);
    for (std::size_t k = 0; k < info.shape.size(); ++k) {
      if (!isRegisterShape(info.shape[k])) continue;
      std::uint32_t r = o.operand[k];
      char acc = info.access[k];
      if (r == loop.index && acc != '-') return reject("the body writes the loop variable");
      if (r == loop.selector && (consumes || acc != '-'))
        return reject("the body uses the loop's selector " + regText(r));
      if (acc == 'w') {
        SlotKind kind = kindOfLetter(info.shape[k]);
        if (kind == SlotKind::Table) return reject("the body assigns a whole table");
        auto [it, added] = privateKind.emplace(r, kind);
        if (!added && it->second != kind) return reject("register " + regText(r) + " holds two kinds of value");
      }
    }
  }
  for (auto& o : body.ops) {
    const OpInfo& info = opInfo(o.op);
    for (std::size_t k = 0; k < info.shape.size(); ++k) {
      if (info.access[k] != 'u') continue;
      std::uint32_t r = o.operand[k];
      if (privateKind.count(r)) continue;  // an iteration's own vector
      bool at = (o.op == Op::TSETCOL || o.op == Op::TSETROW || o.op == Op::BSET) && k == 0 &&
                o.operand[1] == loop.index;
      if (!at) return reject("the body changes " + regText(r) + " at another place than its loop index");
      auto [it, added] = atIndex.emplace(r, o.op);
      if (!added && it->second != o.op) return reject(regText(r) + " is written both by rows and by columns");
    }
  }
  // Registers read as something else than they are used elsewhere; reads of what is written at
  // the index, anywhere but there.
  for (auto& o : body.ops) {
    const OpInfo& info = opInfo(o.op);
    for (std::size_t k = 0; k < info.shape.size(); ++k) {
      if (!isRegisterShape(info.shape[k])) continue;
      std::uint32_t r = o.operand[k];
      auto p = privateKind.find(r);
      if (p != privateKind.end() && info.shape[k] != 'm' && info.shape[k] != 'a' &&
          kindOfLetter(info.shape[k]) != p->second)
        return reject("register " + regText(r) + " holds two kinds of value");
      auto w = atIndex.find(r);
      if (w == atIndex.end() || info.access[k] == 'u') continue;
      Op writer = w->second;
      bool shapeOnly = o.op == Op::TROWS || o.op == Op::TCOLS || o.op == Op::BLEN;
      bool sameCell = (writer == Op::TSETCOL && o.op == Op::TGETCOL) ||
                      (writer == Op::TSETROW && o.op == Op::TGETROW) || (writer == Op::BSET && o.op == Op::BGET);
      bool atTheIndex = sameCell && k == 1 && o.operand[2] == loop.index;
      if (!shapeOnly && !atTheIndex)
        return reject("the body reads " + regText(r) + " where other iterations write it");
    }
  }
  for (auto& [r, op] : atIndex)
    if (privateKind.count(r)) return reject(regText(r) + " is both the iteration's own and shared");

  // Privates are written before they are read, on every path (jumps go forward: one pass).
  std::vector<std::uint32_t> privs;
  for (auto& [r, k] : privateKind) privs.push_back(r);
  auto slot = [&](std::uint32_t r) -> std::int64_t {
    auto it = std::lower_bound(privs.begin(), privs.end(), r);
    return it != privs.end() && *it == r ? it - privs.begin() : -1;
  };
  std::vector<std::vector<std::uint8_t>> defined(body.ops.size() + 1);
  std::vector<std::uint8_t> reached(body.ops.size() + 1, 0);
  defined[0].assign(privs.size(), 0);
  reached[0] = 1;
  auto flow = [&](std::size_t to, const std::vector<std::uint8_t>& state) {
    if (!reached[to]) {
      defined[to] = state;
      reached[to] = 1;
    } else {
      for (std::size_t i = 0; i < state.size(); ++i) defined[to][i] &= state[i];
    }
  };
  for (std::size_t i = 0; i < body.ops.size(); ++i) {
    if (!reached[i]) continue;
    auto& o = body.ops[i];
    std::vector<std::uint8_t> state = defined[i];
    const OpInfo& info = opInfo(o.op);
    for (std::size_t k = 0; k < info.shape.size(); ++k)
      if (isRegisterShape(info.shape[k]) && info.access[k] != 'w') {
        std::int64_t s = slot(o.operand[k]);
        if (s >= 0 && !state[static_cast<std::size_t>(s)])
          return reject("the body reads " + regText(o.operand[k]) + " before it writes it (a value carried from one iteration to the next)");
      }
    for (std::size_t k = 0; k < info.shape.size(); ++k)
      if (isRegisterShape(info.shape[k]) && info.access[k] == 'w') state[static_cast<std::size_t>(slot(o.operand[k]))] = 1;
    if (o.op == Op::JMP) {
      flow(o.target, state);
      continue;
    }
    if (isJump(o.op)) flow(o.target, state);
    flow(i + 1, state);
  }

  std::vector<std::uint8_t> live = liveAtExit(m, fn, loop.exit);
  auto isLive = [&](std::uint32_t r) { return (r & kGlobalBit) || r >= live.size() || live[r] != 0; };
  for (std::uint32_t r : privs) body.privates.push_back({r, privateKind[r], isLive(r)});
  for (auto& [r, op] : atIndex) body.writtenAtIndex.emplace_back(r, op);
  body.indexLiveOut = isLive(loop.index);
  body.ok = true;
  return body;
}

}  // namespace star
