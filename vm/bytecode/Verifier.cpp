// The bytecode verifier: everything the interpreter relies on, proved before a module runs, so
// that a module the loader accepts cannot take the VM outside its memory (docs/BYTECODE.md 4.3).
//
// Register kinds. Parameters of kind bits, table or reference, owned registers and global slots
// have one kind for a function's life ("fixed"). Every other register starts as a scalar (0) and
// changes kind only through MOVE (which copies a slot of any kind) and MKREF: those registers are
// "polymorphic" and are tracked instruction by instruction inside each basic block, starting
// unknown at every block entry (the code generator writes and consumes them in one block: call
// arguments). A register that is only ever written with scalars stays a scalar everywhere.
#include "vm/bytecode/Verifier.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/NativeTable.h"
#include "core/Printable.h"
#include "vm/bytecode/ControlFlow.h"
#include "vm/bytecode/Decode.h"

namespace star {
namespace {

enum class Kind : std::uint8_t { Scalar, Bits, Table, Ref, Unknown };

const char* kindName(Kind k) {
  switch (k) {
    case Kind::Scalar: return "a scalar";
    case Kind::Bits: return "a slice or word";
    case Kind::Table: return "a table";
    case Kind::Ref: return "a reference";
    case Kind::Unknown: return "no known value";
  }
  return "?";
}

Kind kindOf(SlotKind k) {
  switch (k) {
    case SlotKind::Scalar: return Kind::Scalar;
    case SlotKind::Bits: return Kind::Bits;
    case SlotKind::Table: return Kind::Table;
    case SlotKind::Ref: return Kind::Ref;
  }
  return Kind::Unknown;
}

// The kind a register operand of this shape letter must hold (reads) or receives (writes).
Kind kindOfShape(char shape) {
  switch (shape) {
    case 'r': case 's': return Kind::Scalar;
    case 'b': return Kind::Bits;
    case 'T': return Kind::Table;
    case 'p': case 'q': return Kind::Ref;
    default: return Kind::Unknown;  // a, m, w, c, o: decided by the instruction
  }
}

[[noreturn]] void fail(const Function& f, std::size_t pc, const std::string& what) {
  throw ModuleFormatError("invalid bytecode in function '" + printable(f.name) + "' at " +
                          std::to_string(pc) + ": " + what);
}

// A native's arguments are decoded by its table's parameter kinds: the function must take exactly
// those (a procedure; slices, words and tables as handles, `var` ones by reference).
void verifyNativeSignature(const Function& f) {
  if (static_cast<std::size_t>(f.nativeId) >= natives().size())
    throw ModuleFormatError("function '" + printable(f.name) + "': native index out of range");
  const NativeInfo& info = natives()[static_cast<std::size_t>(f.nativeId)];
  bool same = f.resultReg < 0 && f.params.size() == info.params.size();
  for (std::size_t i = 0; same && i < f.params.size(); ++i) {
    const NativeParam& want = info.params[i];
    SlotKind kind = want.kind == 'T' ? SlotKind::Table
                    : (want.kind == 'L' || want.kind == 'W') ? SlotKind::Bits
                    : want.byRef ? SlotKind::Ref : SlotKind::Scalar;
    same = f.params[i].kind == kind && f.params[i].byRef == want.byRef;
  }
  if (!same)
    throw ModuleFormatError("function '" + printable(f.name) + "' does not have the parameters of native '" +
                            std::string(info.name) + "'");
}

class FunctionVerifier {
 public:
  FunctionVerifier(const Module& m, const Function& f) : m_(m), f_(f) {}

  void run() {
    frame();
    boundaries();
    operands();
    blocks();
    kinds();
    loops();
  }

 private:
  // Parameters, owned registers, the result register.
  void frame() {
    if (f_.numRegs > kMaxRegisters)
      fail(f_, 0, "more than " + std::to_string(kMaxRegisters) + " registers");
    if (f_.params.size() > f_.numRegs) fail(f_, 0, "more parameters than registers");
    fixed_.assign(f_.numRegs, Kind::Unknown);  // Unknown here: not fixed
    for (std::size_t i = 0; i < f_.params.size(); ++i) {
      const ParamInfo& p = f_.params[i];
      if ((p.kind == SlotKind::Ref) != p.byRef && p.kind != SlotKind::Bits && p.kind != SlotKind::Table)
        fail(f_, 0, "parameter " + std::to_string(i) + " is passed by reference but not of kind ref");
      if (p.kind != SlotKind::Scalar) fixed_[i] = kindOf(p.kind);
    }
    for (auto& [reg, kind] : f_.ownedRegs) {
      if (reg >= f_.numRegs) fail(f_, 0, "owned register out of range");
      if (reg < f_.params.size()) fail(f_, 0, "owned register R" + std::to_string(reg) + " is a parameter");
      if (fixed_[reg] != Kind::Unknown) fail(f_, 0, "register R" + std::to_string(reg) + " is owned twice");
      fixed_[reg] = kindOf(kind);
    }
    if (f_.resultReg >= 0) {
      auto r = static_cast<std::uint32_t>(f_.resultReg);
      if (r >= f_.numRegs) fail(f_, 0, "result register out of range");
      if (f_.resultKind == SlotKind::Bits) {
        if (fixed_[r] != Kind::Bits) fail(f_, 0, "a bits result must be an owned bits register");
      } else if (f_.resultKind == SlotKind::Scalar) {
        if (fixed_[r] != Kind::Unknown) fail(f_, 0, "a scalar result must be a scalar register");
      } else {
        fail(f_, 0, "a function returns a scalar or a bit vector");
      }
    }
    if (f_.locs.size() != f_.code.size()) fail(f_, 0, "line table size differs from code size");
    for (auto& l : f_.locs)
      if (l.file >= m_.files.size() && !m_.files.empty()) fail(f_, 0, "source file index out of range");
  }

  // Instruction boundaries.
  void boundaries() {
    starts_.assign(f_.code.size() + 1, 0);
    Op last = Op::HALT;
    const DecodeStop stop = forEachInstruction(f_.code, [&](const Instr& in) {
      starts_[in.pc] = 1;
      last = in.op;
    });
    if (stop.status == DecodeStatus::UnknownOpcode)
      fail(f_, stop.pc, "unknown opcode " + std::to_string(f_.code[stop.pc]));
    if (stop.status == DecodeStatus::Truncated) fail(f_, stop.instr.next(), "truncated instruction");
    if (f_.code.empty() || (last != Op::RET && last != Op::HALT && last != Op::JMP))
      fail(f_, f_.code.size(), "function does not end in RET, HALT or JMP");
  }

  // Operand ranges.
  void operands() {
    for (const Instr& in : instructions(f_.code)) {
      const std::size_t pc = in.pc;
      std::string_view shape = in.shape();
      for (std::size_t i = 0; i < shape.size(); ++i) {
        std::uint32_t v = in.operands[i];
        char c = shape[i];
        if (isRegisterShape(c)) {
          if (v & kGlobalBit) {
            if (c == 'c') fail(f_, pc, "call arguments must be frame registers");
            if ((v & ~kGlobalBit) >= m_.globals.size()) fail(f_, pc, "global slot out of range");
          } else if (v >= f_.numRegs) {
            fail(f_, pc, "register out of range");
          }
          continue;
        }
        switch (c) {
          case 'k':
            if (v >= m_.constants.size()) fail(f_, pc, "constant index out of range");
            break;
          case 'j':
            if (v >= f_.code.size() || !starts_[v]) fail(f_, pc, "jump target is not an instruction");
            break;
          case 'f':
            if (v >= m_.functions.size()) fail(f_, pc, "function index out of range");
            if (v == m_.entry) fail(f_, pc, "a call of the entry function");
            break;
          case 't':
            if (v > static_cast<std::uint32_t>(ValueTag::Table)) fail(f_, pc, "bad value tag");
            break;
          case 'z':
            if (v > 1) fail(f_, pc, "flag is not 0 or 1");
            break;
          case 'l':
            if (v >= f_.parallelLoops.size()) fail(f_, pc, "parallel loop index out of range");
            break;
          default:
            break;
        }
      }
      if (in.op == Op::CALL) {
        const Function& callee = m_.functions[in.operands[0]];
        std::uint64_t base = in.operands[1];
        if (base + std::max<std::size_t>(callee.params.size(), 1) > f_.numRegs)
          fail(f_, pc, "call arguments exceed the register file");
      }
      if (in.op == Op::LOADK) {
        ValueTag tag = m_.constants[in.operands[1]].tag;
        if (tag == ValueTag::Bits || tag == ValueTag::Table) fail(f_, pc, "LOADK of a word constant");
      }
      if (in.op == Op::BCONST && m_.constants[in.operands[1]].tag != ValueTag::Bits)
        fail(f_, pc, "BCONST of a constant that is not a word");
    }
  }

  // Block leaders (ControlFlow.h), once jump targets are known to be instructions. A block here
  // starts at offset 0, at a jump target and after a jump, not after RET or HALT: code there that
  // no jump reaches is never run, and the verifier has always checked it with the kinds left
  // before the RET (it rejects no more modules than it did, and counts blocks as it did).
  void blocks() {
    leader_ = blockLeaders(f_.code);
    for (std::uint8_t& l : leader_) l = (l & ~kLeaderAfterEnd) != 0 ? 1 : 0;
  }

  // Register kinds (see the comment at the top of the file).
  void kinds() {
    // Polymorphic registers: targets of MKREF, and of MOVE from a register that may hold something
    // other than a scalar; to a fixed point, since MOVE may copy from another such register.
    poly_.assign(f_.numRegs, 0);
    std::size_t polyCount = 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (const Instr& in : instructions(f_.code)) {
        if (in.op != Op::MOVE && in.op != Op::MKREF) continue;
        std::uint32_t dst = in.operands[0];
        if ((dst & kGlobalBit) || fixed_[dst] != Kind::Unknown || poly_[dst]) continue;
        if (in.op == Op::MOVE && alwaysScalar(in.operands[1])) continue;
        poly_[dst] = 1;
        ++polyCount;
        changed = true;
      }
    }
    std::size_t blocks = static_cast<std::size_t>(std::count(leader_.begin(), leader_.end(), 1));
    if (polyCount * blocks > kMaxVerifyWork) fail(f_, 0, "too complex to verify");
    std::vector<std::uint32_t> polyRegs;
    for (std::uint32_t r = 0; r < f_.numRegs; ++r)
      if (poly_[r]) polyRegs.push_back(r);
    std::vector<Kind> state(f_.numRegs, Kind::Unknown);
    for (const Instr& in : instructions(f_.code)) {
      if (leader_[in.pc])  // a polymorphic register's kind is not known across blocks
        for (std::uint32_t r : polyRegs) state[r] = Kind::Unknown;
      instruction(in, state);
    }
  }

  bool alwaysScalar(std::uint32_t operand) const {
    if (operand & kGlobalBit) return m_.globals[operand & ~kGlobalBit].kind == SlotKind::Scalar;
    return fixed_[operand] == Kind::Unknown && !poly_[operand];
  }

  // Parallel loops: code ranges on instruction boundaries in order, registers of the right kinds.
  // (The VM checks what running a body in parallel needs each time it does.)
  void loops() {
    std::vector<std::uint8_t> named(f_.parallelLoops.size(), 0);
    for (const Instr& in : instructions(f_.code))
      if (in.op == Op::PFOR) {
        const std::size_t pc = in.pc;
        const ParallelLoop& l = f_.parallelLoops[in.operands[0]];
        auto boundary = [&](std::uint32_t at) { return at == f_.code.size() || (at < f_.code.size() && starts_[at]); };
        if (named[in.operands[0]]++) fail(f_, pc, "a parallel loop named twice");
        if (!(pc < l.bodyBegin && l.bodyBegin <= l.bodyEnd && l.bodyEnd <= l.exit) ||
            !boundary(l.bodyBegin) || !boundary(l.bodyEnd) || !boundary(l.exit))
          fail(f_, pc, "parallel loop code ranges out of order");
        auto reg = [&](std::uint32_t r, Kind want) {
          if ((r & kGlobalBit) ? (r & ~kGlobalBit) >= m_.globals.size() : r >= f_.numRegs)
            fail(f_, pc, "parallel loop register out of range");
          Kind have = (r & kGlobalBit) ? kindOf(m_.globals[r & ~kGlobalBit].kind)
                      : fixed_[r] != Kind::Unknown ? fixed_[r] : poly_[r] ? Kind::Unknown : Kind::Scalar;
          if (have != want) fail(f_, pc, "parallel loop register " + regName(r) + " holds " + kindName(have));
        };
        reg(l.selector, Kind::Bits);
        reg(l.index, Kind::Scalar);
        if (l.form == LoopForm::ForIf) {
          reg(l.first, Kind::Scalar);
          reg(l.last, Kind::Scalar);
        }
      }
  }

  Kind currentKind(std::uint32_t operand, const std::vector<Kind>& state) const {
    if (operand & kGlobalBit) return kindOf(m_.globals[operand & ~kGlobalBit].kind);
    if (fixed_[operand] != Kind::Unknown) return fixed_[operand];
    return poly_[operand] ? state[operand] : Kind::Scalar;
  }

  void read(std::size_t pc, std::uint32_t operand, Kind want, const std::vector<Kind>& state) {
    Kind have = currentKind(operand, state);
    if (have != want)
      fail(f_, pc, "operand " + regName(operand) + " holds " + kindName(have) + ", not " + kindName(want));
  }

  void write(std::size_t pc, std::uint32_t operand, Kind k, std::vector<Kind>& state) {
    bool global = operand & kGlobalBit;
    Kind fixed = global ? kindOf(m_.globals[operand & ~kGlobalBit].kind) : fixed_[operand];
    if (global || fixed != Kind::Unknown) {
      // A fixed register keeps its kind; a handle register is never overwritten.
      if (fixed != k || k != Kind::Scalar)
        fail(f_, pc, "cannot store " + std::string(kindName(k)) + " in " + regName(operand) +
                         ", which holds " + kindName(fixed));
      return;
    }
    if (poly_[operand]) state[operand] = k;
    else if (k != Kind::Scalar) fail(f_, pc, "cannot store " + std::string(kindName(k)) + " in " + regName(operand));
  }

  void instruction(const Instr& in, std::vector<Kind>& state) {
    const std::size_t pc = in.pc;
    const Op o = in.op;
    const std::uint32_t* a = in.operands;
    std::string_view shape = in.shape();
    switch (o) {
      case Op::MOVE:
        write(pc, a[0], currentKind(a[1], state), state);
        if (currentKind(a[1], state) == Kind::Unknown) fail(f_, pc, "MOVE of " + regName(a[1]) + ", which holds no known value");
        return;
      case Op::WRITE: {
        auto tag = static_cast<ValueTag>(a[1]);
        read(pc, a[0], tag == ValueTag::Bits ? Kind::Bits : tag == ValueTag::Table ? Kind::Table : Kind::Scalar, state);
        return;
      }
      case Op::CALL: {
        const Function& callee = m_.functions[a[0]];
        for (std::size_t i = 0; i < callee.params.size(); ++i)
          read(pc, a[1] + static_cast<std::uint32_t>(i), kindOf(callee.params[i].kind), state);
        if (callee.resultReg >= 0) {
          if (callee.resultKind == SlotKind::Bits) read(pc, a[2], Kind::Bits, state);
          else write(pc, a[2], Kind::Scalar, state);
        }
        // The callee may write scalars through references into this frame: they stay scalars.
        return;
      }
      default:
        break;
    }
    // Reads first (an instruction may read and write the same register).
    for (std::size_t i = 0; i < shape.size(); ++i) {
      char c = shape[i];
      if (c == 'r' || c == 'b' || c == 'T' || c == 'p') read(pc, a[i], kindOfShape(c), state);
    }
    for (std::size_t i = 0; i < shape.size(); ++i) {
      char c = shape[i];
      if (c == 's' || c == 'q') write(pc, a[i], kindOfShape(c), state);
    }
  }

  static std::string regName(std::uint32_t operand) {
    return operand & kGlobalBit ? "G" + std::to_string(operand & ~kGlobalBit) : "R" + std::to_string(operand);
  }

  const Module& m_;
  const Function& f_;
  std::vector<Kind> fixed_;          // per register: its fixed kind, or Unknown when not fixed
  std::vector<std::uint8_t> poly_;   // per register: changes kind (MOVE, MKREF targets)
  std::vector<std::uint8_t> starts_, leader_;
  static constexpr std::size_t kMaxVerifyWork = std::size_t{1} << 28;
};

}  // namespace

void verifyModule(const Module& m) {
  if (m.functions.empty() || m.entry >= m.functions.size())
    throw ModuleFormatError("module has no entry function");
  for (const Function& f : m.functions) {
    if (f.nativeId >= 0) verifyNativeSignature(f);
    FunctionVerifier(m, f).run();
  }
  const Function& entry = m.functions[m.entry];
  if (!entry.params.empty() || entry.resultReg >= 0 || entry.nativeId >= 0)
    throw ModuleFormatError("the entry function takes no parameters and returns nothing");
}

}  // namespace star
