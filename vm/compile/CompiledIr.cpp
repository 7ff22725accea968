#include "vm/compile/CompiledIr.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "vm/bytecode/ControlFlow.h"
#include "vm/bytecode/Decode.h"
#include "vm/engine/EngineReads.h"

namespace star::compile {

const char* kindName(Kind k) {
  switch (k) {
    case Kind::Scalar:
      return "scalar";
    case Kind::Load:
      return "load";
    case Kind::Jump:
      return "jump";
    case Kind::ShapeRead:
      return "read";
    case Kind::Team:
      return "team";
    case Kind::Interpret:
      return "interpret";
  }
  return "?";
}


Kind kindOf(Op op) {
  // EXP, LN, SIN, COS, ARCTAN, POWER: the host's C library computes them on every engine (the
  // engine stops for them), so that results are the same bits everywhere.
  if (isHostMathOp(op)) return Kind::Interpret;
  if (isScalarOp(op)) return Kind::Scalar;
  if (op == Op::LOADI || op == Op::LOADK || op == Op::MOVE) return Kind::Load;
  if (isJump(op)) return Kind::Jump;
  if (engine::isShapeRead(op)) return Kind::ShapeRead;
  if (isTeamOp(op) && op != Op::PFOR) return Kind::Team;
  return Kind::Interpret;
}

IrFunction buildIr(std::uint32_t index, const FunctionCode& f) {
  IrFunction out;
  out.index = index;
  out.name = f.name;
  out.numRegs = f.numRegs;
  // After an instruction the interpreter runs, the trampoline re-enters: a block starts there.
  std::vector<std::uint32_t> marks;
  std::set<std::uint32_t> targets;
  for (const Instr& in : instructions(f.code)) {
    if (kindOf(in.op) == Kind::Interpret) marks.push_back(static_cast<std::uint32_t>(in.next()));
    if (const int j = jumpOperand(in.op); j >= 0) targets.insert(in.operands[j]);
  }
  const ControlFlow cfg = controlFlow(f.code, marks);
  std::set<std::uint32_t> used, written, gUsed, gWritten;
  for (const BasicBlock& b : cfg.blocks) {
    IrBlock block;
    block.begin = b.begin;
    block.entry = b.begin == 0 || targets.count(b.begin) ||
                  std::find(marks.begin(), marks.end(), b.begin) != marks.end();
    for (std::uint32_t s : b.successors) block.successors.push_back(cfg.blocks[s].begin);
    for (const Instr& in : instructions(f.code, b.begin, b.end)) {
      IrInstr ir;
      ir.pc = static_cast<std::uint32_t>(in.pc);
      ir.next = static_cast<std::uint32_t>(in.next());
      ir.op = in.op;
      ir.kind = kindOf(in.op);
      ir.operands.assign(in.operands, in.operands + (in.size - 1));
      if (const int j = jumpOperand(in.op); j >= 0) ir.backward = ir.operands[j] <= ir.pc;
      if (in.op == Op::CALL) out.callees.push_back(ir.operands[0]);
      const std::string_view shape = opInfo(in.op).shape, access = opInfo(in.op).access;
      for (std::size_t k = 0; k < shape.size(); ++k) {
        if (!isRegisterShape(shape[k]) || shape[k] == 'c') continue;
        const std::uint32_t r = ir.operands[k];
        const bool global = (r & kGlobalBit) != 0;
        (global ? gUsed : used).insert(r & ~kGlobalBit);
        // An instruction on the bits changes what a handle names, never the handle: only a scalar
        // target (s), MOVE's (m) and MKREF's (q) change a register.
        if (access[k] == 'w' && (shape[k] == 's' || shape[k] == 'm' || shape[k] == 'q'))
          (global ? gWritten : written).insert(r & ~kGlobalBit);
      }
      block.instrs.push_back(std::move(ir));
    }
    out.blocks.push_back(std::move(block));
  }
  out.regsUsed.assign(used.begin(), used.end());
  out.regsWritten.assign(written.begin(), written.end());
  out.globalsUsed.assign(gUsed.begin(), gUsed.end());
  out.globalsWritten.assign(gWritten.begin(), gWritten.end());
  markOwnedRuns(out);
  return out;
}

void markOwnedRuns(IrFunction& f) {
  std::uint32_t runs = 0;
  for (IrBlock& b : f.blocks) {
    std::vector<IrInstr*> owned;  // the current run's owned instructions
    const auto close = [&] {
      if (owned.size() >= 2) {
        ++runs;
        for (IrInstr* in : owned) in->run = runs;
      }
      owned.clear();
    };
    for (IrInstr& in : b.instrs) {
      if (isOwned(in.op)) {
        owned.push_back(&in);
        if (isOwnedReduction(in.op)) close();
      } else if (in.kind != Kind::Scalar && in.kind != Kind::Load) {
        close();
      }
    }
    close();
  }
}

std::vector<IrFunction> buildIr(std::span<const FunctionCode> functions, std::uint32_t entry) {
  std::vector<IrFunction> out;
  out.reserve(functions.size());
  for (std::uint32_t i = 0; i < functions.size(); ++i) out.push_back(buildIr(i, functions[i]));
  // Reached: from the entry, through calls.
  std::vector<std::uint32_t> work;
  for (IrFunction& f : out) {
    f.reached = f.index == entry;
    if (f.reached) work.push_back(f.index);
  }
  while (!work.empty()) {
    const std::uint32_t f = work.back();
    work.pop_back();
    for (std::uint32_t c : out[f].callees)
      if (c < out.size() && !out[c].reached) {
        out[c].reached = true;
        work.push_back(c);
      }
  }
  return out;
}

namespace {

std::string operandText(char shape, std::uint32_t v) {
  if (isRegisterShape(shape))
    return (v & kGlobalBit) ? "G" + std::to_string(v & ~kGlobalBit) : "R" + std::to_string(v);
  return std::to_string(v);
}

std::string list(const std::vector<std::uint32_t>& v, const char* prefix) {
  std::string s;
  for (std::uint32_t x : v) s += (s.empty() ? "" : " ") + std::string(prefix) + std::to_string(x);
  return s.empty() ? "-" : s;
}

}  // namespace

std::string printIr(std::span<const IrFunction> functions) {
  std::ostringstream o;
  for (const IrFunction& f : functions) {
    o << "function " << f.index << ' ' << f.name << " (" << f.numRegs << " registers)";
    if (!f.reached) {
      o << ": never reached, not compiled\n";
      continue;
    }
    o << '\n';
    o << "  uses " << list(f.regsUsed, "R") << "; writes " << list(f.regsWritten, "R");
    if (!f.globalsUsed.empty())
      o << "; globals " << list(f.globalsUsed, "G") << "; writes " << list(f.globalsWritten, "G");
    o << '\n';
    for (const IrBlock& b : f.blocks) {
      o << "  block " << b.begin << (b.entry ? " entry" : "") << " ->";
      if (b.successors.empty()) o << " exit";
      for (std::uint32_t s : b.successors) o << ' ' << s;
      o << '\n';
      for (const IrInstr& in : b.instrs) {
        o << "    " << in.pc << ": " << kindName(in.kind) << ' ' << opInfo(in.op).name;
        const std::string_view shape = opInfo(in.op).shape;
        for (std::size_t k = 0; k < in.operands.size(); ++k)
          o << (k ? ", " : " ") << operandText(shape[k], in.operands[k]);
        if (in.backward) o << " (backward: polls)";
        if (in.run) o << " [owned run " << in.run << ']';
        o << '\n';
      }
    }
  }
  return o.str();
}

}  // namespace star::compile
