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
    case Kind::Call:
      return "call";
    case Kind::Return:
      return "return";
    case Kind::Interpret:
      return "interpret";
  }
  return "?";
}

Kind kindOf(Op op) {
  // EXP, LN, SIN, COS, ARCTAN, POWER: the host's C library computes them on every engine (the
  // engine stops for them), so that results are the same bits everywhere.
  if (isHostMathOp(op)) return Kind::Interpret;
  if (op == Op::CALL) return Kind::Call;
  if (op == Op::RET) return Kind::Return;
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
    if (const Kind k = kindOf(in.op); k == Kind::Interpret || k == Kind::Call)
      marks.push_back(static_cast<std::uint32_t>(in.next()));
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
  findOwnedLoops(out);
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

bool ownedLoopOp(Op op) {
  switch (op) {
    case Op::BAND:
    case Op::BOR:
    case Op::BXOR:
    case Op::BNOT:
    case Op::BCOPY:
    case Op::BFILL:
    case Op::TGETCOL:
    case Op::TSETCOL:
    case Op::BSOME:
    case Op::BNUMB:
      return true;
    default:
      return false;
  }
}

namespace {

void addOnce(std::vector<std::uint32_t>& v, std::uint32_t x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}
bool contains(const std::vector<std::uint32_t>& v, std::uint32_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The loop's registers (vectors, tables, reads), or false where compiled code cannot keep its
// words in locals: an instruction it cannot run so, a register that holds a handle written by
// scalar code in the loop, a handle whose bits are both kept and read.
bool describeLoop(const IrFunction& f, OwnedLoop& loop) {
  std::vector<std::uint32_t> scalarWritten;
  // The vectors some block reads before it writes them. SET and CLR fill the length a vector has
  // (its shape is read, not given), and a copy to itself changes nothing: neither writes first.
  std::vector<std::uint32_t> readFirst;
  bool onBits = false;
  for (const IrBlock& b : f.blocks) {
    if (!contains(loop.blocks, b.begin)) continue;
    std::vector<std::uint32_t> wrote;  // in this block so far
    for (const IrInstr& in : b.instrs) {
      const std::string_view shape = opInfo(in.op).shape, access = opInfo(in.op).access;
      switch (in.kind) {
        case Kind::Scalar:
        case Kind::Load:
        case Kind::Jump:
          break;
        case Kind::ShapeRead:
          if (leaderReadsBits(in.op)) addOnce(loop.reads, in.operands[1]);
          break;
        case Kind::Team: {
          if (!ownedLoopOp(in.op)) return false;
          onBits = true;
          const bool noFirstWrite =
              in.op == Op::BFILL || (in.op == Op::BCOPY && in.operands[0] == in.operands[1]);
          for (std::size_t k = 0; k < shape.size(); ++k) {
            const std::uint32_t r = in.operands[k];
            if (shape[k] == 'b') {
              addOnce(loop.vectors, r);
              if (access[k] != '-') addOnce(loop.written, r);
              if ((access[k] != 'w' || noFirstWrite) && !contains(wrote, r)) addOnce(readFirst, r);
            } else if (shape[k] == 'T') {
              addOnce(loop.tables, r);
              if (access[k] != '-') addOnce(loop.tablesWritten, r);
            }
          }
          for (std::size_t k = 0; k < shape.size(); ++k)
            if (shape[k] == 'b' && access[k] == 'w') addOnce(wrote, in.operands[k]);
          break;
        }
        case Kind::Call:
        case Kind::Return:
        case Kind::Interpret:
          return false;
      }
      for (std::size_t k = 0; k < shape.size(); ++k)
        if (access[k] == 'w' && (shape[k] == 's' || shape[k] == 'm' || shape[k] == 'q'))
          addOnce(scalarWritten, in.operands[k]);
    }
  }
  if (!onBits) return false;
  for (std::uint32_t r : scalarWritten)
    if (contains(loop.vectors, r) || contains(loop.tables, r) || contains(loop.reads, r))
      return false;
  for (std::uint32_t r : loop.reads)
    if (contains(loop.vectors, r)) return false;
  // The vectors written before they are read, first (at most 32: the emitter's mask).
  const auto writtenFirst = [&](std::uint32_t r) {
    return contains(loop.written, r) && !contains(readFirst, r);
  };
  std::stable_partition(loop.vectors.begin(), loop.vectors.end(), writtenFirst);
  loop.defined = static_cast<std::uint32_t>(std::min<std::ptrdiff_t>(
      32, std::count_if(loop.vectors.begin(), loop.vectors.end(), writtenFirst)));
  return true;
}

}  // namespace

void findOwnedLoops(IrFunction& f) {
  // Each backward jump closes a loop at its target: the blocks reached from the target from which
  // the jump is reached without passing the target. Loops of one target are one loop.
  std::vector<std::vector<std::uint32_t>> preds(f.blocks.size());
  std::vector<std::uint32_t> begins;
  for (const IrBlock& b : f.blocks) begins.push_back(b.begin);
  const auto indexOf = [&](std::uint32_t begin) {
    return static_cast<std::size_t>(std::lower_bound(begins.begin(), begins.end(), begin) -
                                    begins.begin());
  };
  for (std::size_t i = 0; i < f.blocks.size(); ++i)
    for (std::uint32_t s : f.blocks[i].successors)
      preds[indexOf(s)].push_back(static_cast<std::uint32_t>(i));
  std::vector<OwnedLoop> candidates;
  for (std::size_t i = 0; i < f.blocks.size(); ++i) {
    for (const IrInstr& in : f.blocks[i].instrs) {
      if (!in.backward) continue;
      const std::uint32_t header = in.operands[in.op == Op::JMP ? 0 : 1];
      const std::size_t h = indexOf(header);
      if (h >= f.blocks.size() || f.blocks[h].begin != header) continue;
      // Blocks reached from the target (a rotated loop's way in, before the target, is not).
      std::set<std::size_t> reached;
      std::vector<std::size_t> work{h};
      while (!work.empty()) {
        const std::size_t b = work.back();
        work.pop_back();
        if (!reached.insert(b).second) continue;
        for (std::uint32_t s : f.blocks[b].successors) work.push_back(indexOf(s));
      }
      std::set<std::size_t> body{h};
      work = {i};
      while (!work.empty()) {
        const std::size_t b = work.back();
        work.pop_back();
        if (!reached.count(b) || !body.insert(b).second) continue;
        for (std::uint32_t p : preds[b]) work.push_back(p);
      }
      auto same = std::find_if(candidates.begin(), candidates.end(),
                               [&](const OwnedLoop& l) { return l.header == header; });
      if (same == candidates.end()) {
        candidates.emplace_back();
        same = candidates.end() - 1;
        same->header = header;
      }
      for (std::size_t b : body) addOnce(same->blocks, f.blocks[b].begin);
    }
  }
  // One way in: a single block of the loop has predecessors outside it (or starts the function),
  // and it becomes the header, where compiled code enters the loop. It is the backward jump's
  // target for a loop with its test on top; a while loop whose test the code generator placed
  // below the body (entered by a jump to the test) is entered at the test.
  const auto singleEntry = [&](OwnedLoop& l) {
    std::uint32_t entry = l.header;
    int entries = 0;
    for (std::uint32_t b : l.blocks) {
      bool outside = b == f.blocks.front().begin;
      for (std::uint32_t p : preds[indexOf(b)]) outside |= !contains(l.blocks, f.blocks[p].begin);
      if (outside) {
        entry = b;
        ++entries;
      }
    }
    if (entries != 1) return false;
    l.header = entry;
    return true;
  };
  std::stable_sort(
      candidates.begin(), candidates.end(),
      [](const OwnedLoop& a, const OwnedLoop& b) { return a.blocks.size() > b.blocks.size(); });
  std::vector<std::uint32_t> taken;
  for (OwnedLoop& l : candidates) {
    std::sort(l.blocks.begin(), l.blocks.end());
    if (std::any_of(l.blocks.begin(), l.blocks.end(),
                    [&](std::uint32_t b) { return contains(taken, b); }))
      continue;
    if (!singleEntry(l) || !describeLoop(f, l)) continue;
    l.id = static_cast<std::uint32_t>(f.loops.size() + 1);
    for (std::uint32_t b : l.blocks) taken.push_back(b);
    for (IrBlock& b : f.blocks)
      if (contains(l.blocks, b.begin))
        for (IrInstr& in : b.instrs) in.loop = l.id;
    f.loops.push_back(std::move(l));
  }
}

namespace {

// reaches[f][g]: a call of f may reach g (g is f, or one f calls, directly or not).
std::vector<std::vector<bool>> reachability(const std::vector<IrFunction>& functions) {
  const std::size_t n = functions.size();
  std::vector<std::vector<bool>> reaches(n, std::vector<bool>(n, false));
  for (std::size_t f = 0; f < n; ++f) {
    std::vector<std::size_t> work{f};
    reaches[f][f] = true;
    while (!work.empty()) {
      const std::size_t g = work.back();
      work.pop_back();
      for (std::uint32_t c : functions[g].callees)
        if (c < n && !reaches[f][c]) {
          reaches[f][c] = true;
          work.push_back(c);
        }
    }
  }
  return reaches;
}

}  // namespace

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
  // Direct: the callee reaches no function that reaches the caller, so the generated functions'
  // C++ calls never recurse, and their depth is bounded by the call graph's.
  const std::vector<std::vector<bool>> reaches = reachability(out);
  for (IrFunction& f : out)
    for (IrBlock& b : f.blocks)
      for (IrInstr& in : b.instrs)
        if (in.kind == Kind::Call && in.operands[0] < out.size())
          in.direct = out[in.operands[0]].reached && !reaches[in.operands[0]][f.index];
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

// Handle registers (frame or global) as the instructions print them.
std::string registers(const std::vector<std::uint32_t>& v) {
  std::string s;
  for (std::uint32_t x : v) s += (s.empty() ? "" : " ") + operandText('b', x);
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
    for (const OwnedLoop& l : f.loops)
      o << "  owned loop " << l.id << ": header " << l.header << "; keeps " << registers(l.vectors)
        << " (writes " << registers(l.written) << "; the first " << l.defined
        << " before it reads them); tables " << registers(l.tables) << "; reads the bits of "
        << registers(l.reads) << '\n';
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
        if (in.direct) o << " (direct)";
        if (in.run) o << " [owned run " << in.run << ']';
        if (in.loop) o << " [owned loop " << in.loop << ']';
        o << '\n';
      }
    }
  }
  return o.str();
}

}  // namespace star::compile
