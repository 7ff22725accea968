#include "vm/compile/EmitCpp.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "core/DiskCache.h"

namespace star::compile {

namespace {

// A register operand's C++ name: rN (a frame register) or gN (a global slot).
std::string var(std::uint32_t operand) {
  return (operand & kGlobalBit) ? "g" + std::to_string(operand & ~kGlobalBit)
                                : "r" + std::to_string(operand);
}

std::string opName(Op op) {
  return "Op::" + std::string(opInfo(op).name);
}

class FunctionEmitter {
 public:
  FunctionEmitter(std::ostringstream& o, const IrFunction& f, bool countOps)
      : o_(o), f_(f), countOps_(countOps) {}

  void emit() {
    o_ << "// " << f_.name << "\ntemplate <class Team>\nSTAR_CFN Exit f" << f_.index
       << "(Compiled<Team>& c) {\n";
    for (std::uint32_t r : f_.regsUsed) o_ << "  Word r" << r << " = 0;\n";
    for (std::uint32_t g : f_.globalsUsed) o_ << "  Word g" << g << " = 0;\n";
    for (const OwnedLoop& l : f_.loops) declareOwnedLoop(l);
    // The run is in this function (c.function), at c.pc in the frame at c.base: entered, or back
    // after an instruction left to the interpreter or a callee's return.
    o_ << "Lenter:\n";
    for (std::uint32_t r : f_.regsUsed) o_ << "  r" << r << " = c.reg(" << r << ");\n";
    for (std::uint32_t g : f_.globalsUsed) o_ << "  g" << g << " = c.global(" << g << ");\n";
    // Every thread has read its registers before any leader writes them back.
    o_ << "  c.t.syncBlock();\n  switch (c.pc) {\n";
    for (const IrBlock& b : f_.blocks)
      if (b.entry) o_ << "    case " << b.begin << ": goto L" << b.begin << ";\n";
    o_ << "    default: c.exitPc = c.pc; goto Linterpret;\n  }\n";
    for (const IrBlock& b : f_.blocks) {
      o_ << "L" << b.begin << ":\n";
      for (const OwnedLoop& l : f_.loops)
        if (l.header == b.begin) ownedLoopGate(l);
      for (const IrInstr& in : b.instrs) instruction(in);
    }
    o_ << "  c.exitPc = c.pc;\n  c.exitWhy = StopReason::Other;\n";
    o_ << "Lstop:\n  " << writeBack() << "\n  return c.stopAt(c.exitPc, c.exitWhy);\n";
    o_ << "Linterpret:\n  " << writeBack() << "\n  { const Exit e = c.interpret(c.exitPc); "
       << goOn() << " }\n";
    // Only a goto reaches the owned loops' code (after the returns).
    for (const OwnedLoop& l : f_.loops) ownedLoop(l);
    o_ << "}\n\n";
  }

 private:
  // The registers this function writes, back to the frame (each block's leader).
  std::string writeBack() const {
    std::string s;
    for (std::uint32_t r : f_.regsWritten)
      s += "c.putReg(" + std::to_string(r) + ", r" + std::to_string(r) + "); ";
    for (std::uint32_t g : f_.globalsWritten)
      s += "c.putGlobal(" + std::to_string(g) + ", g" + std::to_string(g) + "); ";
    return s;
  }
  // After the run moved (Exit::Moved): on here if it is in this function, else to the caller
  // (a function that called this one, or the trampoline).
  std::string goOn() const {
    return "if (e == Exit::Stopped || c.function != " + std::to_string(f_.index) +
           "u) return e; goto Lenter;";
  }
  // Every way out goes through one of two exits at the function's end, which write the
  // registers back once (rather than at every place the run may stop).
  // In an owned loop's code, through its way out (which stores the kept words first).
  std::string stop(const IrInstr& in, const std::string& why) const {
    return "{ c.exitPc = " + std::to_string(in.pc) + "; c.exitWhy = " + why + "; " +
           (loop_ ? "ow_after = 0; goto " + leave() + ";" : std::string("goto Lstop;")) + " }";
  }
  // Where a jump to `target` goes: its block, or in an owned loop's code, the loop's block or
  // the way out and then the block.
  std::string jumpTo(std::uint32_t target) {
    if (!loop_) return "goto L" + std::to_string(target) + ";";
    if (inLoop(target)) return "goto " + fastLabel(target) + ";";
    return leaveTo("L" + std::to_string(target));
  }
  std::string leaveTo(const std::string& label) {
    auto at = std::find(exits_.begin(), exits_.end(), label);
    if (at == exits_.end()) at = exits_.insert(at, label);
    return "{ ow_after = " + std::to_string(at - exits_.begin() + 1) + "; goto " + leave() + "; }";
  }
  std::string count(const IrInstr& in) const {
    return countOps_ ? "if (c.stats) c.counted(" + opName(in.op) + ");" : "";
  }
  std::string reg(const IrInstr& in, int k) const {
    return var(in.operands[static_cast<std::size_t>(k)]);
  }

  void instruction(const IrInstr& in) {
    o_ << "  // " << in.pc << ": " << opInfo(in.op).name << "\n";
    switch (in.kind) {
      case Kind::Scalar: {
        const bool binary = in.operands.size() > 2;
        o_ << "  { Word v; if (scalarOp<" << opName(in.op) << ">(" << reg(in, 1) << ", "
           << (binary ? reg(in, 2) : "0") << ", v) != FaultKind::None) "
           << stop(in, "StopReason::Error") << " " << reg(in, 0) << " = v; " << count(in) << " }\n";
        return;
      }
      case Kind::Load:
        if (in.op == Op::LOADI)
          o_ << "  " << reg(in, 0) << " = static_cast<Word>(std::int64_t{"
             << static_cast<std::int32_t>(in.operands[1]) << "});";
        else if (in.op == Op::LOADK)
          o_ << "  " << reg(in, 0) << " = c.constant(" << in.operands[1] << ");";
        else
          o_ << "  " << reg(in, 0) << " = " << reg(in, 1) << ";";
        o_ << " " << count(in) << "\n";
        return;
      case Kind::Jump: {
        const std::uint32_t target = in.operands[in.op == Op::JMP ? 0 : 1];
        // In an owned loop's code the poll's counters are its locals.
        std::string poll = in.backward ? std::string("if (!c.poll(") +
                                             (loop_ ? "ow_polls, ow_budget" : "") + ")) " +
                                             stop(in, "StopReason::Poll") + " "
                                       : "";
        std::string go = poll + count(in) + " " + jumpTo(target);
        if (in.op == Op::JMP)
          o_ << "  { " << go << " }\n";
        else
          o_ << "  if ((" << reg(in, 0) << " != 0) == " << (in.op == Op::JMPT ? "true" : "false")
             << ") { " << go << " } else { " << count(in) << " }\n";
        return;
      }
      case Kind::ShapeRead:
        o_ << "  { Word v; if (!c." << (loop_ ? "readInLoop(" : "read(") << opName(in.op) << ", "
           << reg(in, 1) << ", "
           << (in.op == Op::BGET ? "static_cast<std::int64_t>(" + reg(in, 2) + ")"
                                 : std::string("0"))
           << ", v)) " << stop(in, "StopReason::Error") << " " << reg(in, 0) << " = v; "
           << count(in) << " }\n";
        return;
      case Kind::Team: {
        if (loop_) return ownedInstruction(in);
        if (bailTargets_.count(in.pc)) o_ << "P" << in.pc << ":\n";
        const std::string_view shape = opInfo(in.op).shape, access = opInfo(in.op).access;
        std::string values, imms;
        for (std::size_t k = 0; k < 4; ++k) {
          const bool has = k < in.operands.size();
          values += (k ? ", " : "") +
                    (has && isRegisterShape(shape[k]) ? var(in.operands[k]) : std::string("0"));
          imms += (k ? ", " : "") + std::to_string(has ? in.operands[k] : 0) + "u";
        }
        // c.team sets the exit on a stop.
        o_ << "  { Values v{{" << values << "}, {" << imms << "}}; if (c.template team<"
           << opName(in.op) << ">(" << in.pc << ", v)) goto Lstop;";
        for (std::size_t k = 0; k < in.operands.size(); ++k)
          if (shape[k] == 's' && access[k] == 'w')
            o_ << " " << var(in.operands[k]) << " = v.v[" << k << "];";
        o_ << " " << count(in) << " }\n";
        return;
      }
      case Kind::Call:
      case Kind::Return: {
        // Compiled::control stops before the instruction (header written) or moves the run.
        const bool call = in.kind == Kind::Call;
        o_ << "  { " << writeBack() << "\n    if (!c.control(" << in.pc << ", "
           << (call ? "true" : "false") << ")) return Exit::Stopped; " << count(in) << "\n";
        // A direct call runs the callee's function here; otherwise the run goes on here if it is
        // in this function (a recursive call or return), else in the trampoline.
        o_ << "    const Exit e = "
           << (call && in.direct ? "f" + std::to_string(in.operands[0]) + "(c)" : "Exit::Moved")
           << "; " << goOn() << " }\n";
        return;
      }
      case Kind::Interpret:
        o_ << "  { c.exitPc = " << in.pc << "; goto Linterpret; }\n";
        return;
    }
  }

  // ---- owned loops (CompiledIr.h's OwnedLoop; EngineCompiled.h's ownedLoopFits and kOwnedWords)
  std::string prefix(const OwnedLoop& l) const { return "ow" + std::to_string(l.id) + "_"; }
  std::string kept(std::uint32_t r) const { return prefix(*loop_) + "k" + var(r); }
  std::string at(std::uint32_t r) const { return prefix(*loop_) + "p" + var(r); }
  std::string cols(std::uint32_t r) const { return prefix(*loop_) + "c" + var(r); }
  std::string leave() const { return prefix(*loop_) + "leave"; }
  std::string fastLabel(std::uint32_t block) const {
    return prefix(*loop_) + "L" + std::to_string(block);
  }
  bool inLoop(std::uint32_t block) const {
    return std::find(loop_->blocks.begin(), loop_->blocks.end(), block) != loop_->blocks.end();
  }
  // A C++ array of handle registers (or nullptr) and its length, for EngineCompiled.h's helpers.
  static std::string handles(const std::string& name, const std::vector<std::uint32_t>& regs) {
    if (regs.empty()) return "const Word* " + name + " = nullptr; const int " + name + "n = 0;";
    std::string s = "const Word " + name + "[] = {";
    for (std::size_t i = 0; i < regs.size(); ++i) s += (i ? ", " : "") + var(regs[i]);
    return s + "}; const int " + name + "n = " + std::to_string(regs.size()) + ";";
  }
  std::vector<std::uint32_t> allWritten(const OwnedLoop& l) const {
    std::vector<std::uint32_t> w = l.written;
    w.insert(w.end(), l.tablesWritten.begin(), l.tablesWritten.end());
    return w;
  }

  // The locals of every owned loop, before the first label (a goto may not skip them).
  void declareOwnedLoop(const OwnedLoop& l) {
    if (l.id == 1)
      o_ << "  std::uint64_t ow_rows = 0, ow_n = 0, ow_rank = 0, ow_size = 0, ow_polls = 0, "
            "ow_budget = 0; std::uint32_t ow_after = 0;\n"
            "  Word ow_m[kOwnedWords] = {};\n";
    const std::string p = prefix(l);
    if (l.defined) o_ << "  std::uint32_t " << p << "wrote = 0;\n";
    for (std::uint32_t r : l.vectors)
      o_ << "  Word " << p << "k" << var(r) << "[kOwnedWords] = {}; Word* " << p << "p" << var(r)
         << " = nullptr;\n";
    for (std::uint32_t r : l.tables)
      o_ << "  Word* " << p << "p" << var(r) << " = nullptr; std::uint64_t " << p << "c" << var(r)
         << " = 0;\n";
    for (const IrBlock& b : f_.blocks)
      if (std::find(l.blocks.begin(), l.blocks.end(), b.begin) != l.blocks.end())
        for (const IrInstr& in : b.instrs)
          if (in.op == Op::TGETCOL || in.op == Op::TSETCOL) bailTargets_.insert(in.pc);
  }
  // At the header, the way into the loop's code where the shapes allow it.
  void ownedLoopGate(const OwnedLoop& l) {
    o_ << "  { " << handles("v", l.vectors) << " " << handles("t", l.tables) << " "
       << handles("b", l.reads) << "\n    if (c.ownedLoopFits(v, vn, " << l.defined
       << ", t, tn, b, bn, ow_rows)) goto " << prefix(l) << "enter; }\n";
  }
  // The loop's code: the way in (the kept words loaded), its blocks, the way out (the written
  // words stored) to wherever the exit was for.
  void ownedLoop(const OwnedLoop& l) {
    loop_ = &l;
    exits_.clear();
    const std::string p = prefix(l);
    o_ << p
       << "enter:\n  ow_rank = c.t.rank(); ow_size = c.t.size(); ow_n = wordsForBits(ow_rows);\n"
       << "  STAR_OWNED_FOR(j) { const std::uint64_t w = ow_rank + j * ow_size;\n"
       << "    ow_m[j] = w < ow_n ? (w + 1 == ow_n ? tailMask(ow_rows) : kAllOnes) : 0; }\n";
    for (std::uint32_t r : l.vectors) o_ << "  " << at(r) << " = c.shape(" << var(r) << ").data;\n";
    for (std::uint32_t r : l.tables)
      o_ << "  " << at(r) << " = c.shape(" << var(r) << ").data; " << cols(r) << " = c.shape("
         << var(r) << ").cols;\n";
    o_ << "  { " << handles("w", allWritten(l)) << " " << handles("b", l.reads)
       << " c.ownedLoopEnter(w, wn, b, bn); }\n  c.takePolls(ow_polls, ow_budget);\n";
    if (l.defined) o_ << "  " << p << "wrote = 0;\n";
    o_ << "  STAR_OWNED_FOR(j) { const std::uint64_t w = ow_rank + j * ow_size;\n";
    for (std::uint32_t r : l.vectors)
      o_ << "    " << kept(r) << "[j] = w < ow_n ? " << at(r) << "[w] : 0;\n";
    o_ << "  }\n  goto " << fastLabel(l.header) << ";\n";
    for (std::size_t i = 0; i < f_.blocks.size(); ++i) {
      const IrBlock& b = f_.blocks[i];
      if (!inLoop(b.begin)) continue;
      o_ << fastLabel(b.begin) << ":\n";
      for (const IrInstr& in : b.instrs) instruction(in);
      // Falling through to the next block.
      if (!b.instrs.empty() && b.instrs.back().op != Op::JMP && i + 1 < f_.blocks.size())
        o_ << "  " << jumpTo(f_.blocks[i + 1].begin) << "\n";
    }
    o_ << leave() << ":\n  STAR_OWNED_FOR(j) { const std::uint64_t w = ow_rank + j * ow_size;\n"
       << "    if (w < ow_n) {";
    for (std::uint32_t r : l.written) o_ << " " << at(r) << "[w] = " << kept(r) << "[j];";
    o_ << " } }\n  c.givePolls(ow_polls, ow_budget);\n  { " << handles("w", allWritten(l))
       << " c.ownedLoopLeave(w, wn); }\n";
    for (std::uint32_t i = 0; i < l.defined; ++i)
      o_ << "  if (" << p << "wrote & " << (1u << i) << "u) c.ownedLoopWrote(" << var(l.vectors[i])
         << ", ow_rows);\n";
    o_ << "  switch (ow_after) {\n    case 0: goto Lstop;\n";
    for (std::size_t k = 0; k < exits_.size(); ++k)
      o_ << "    case " << k + 1 << ": goto " << exits_[k] << ";\n";
    o_ << "    default: goto Lstop;\n  }\n";
    loop_ = nullptr;
  }
  // An instruction on the bits in an owned loop's code: on the kept words.
  void ownedInstruction(const IrInstr& in) {
    const auto r = [&](int k) { return in.operands[static_cast<std::size_t>(k)]; };
    const auto each = [&](const std::string& body) {
      o_ << "  STAR_OWNED_FOR(j) " << body << "\n";
    };
    // A column number out of range: the instruction again, as the interpreter runs it (its error).
    const auto column = [&](std::uint32_t table, std::uint32_t index) {
      o_ << "  if (!sem::inRange(static_cast<std::int64_t>(" << var(index)
         << "), static_cast<std::uint64_t>(" << cols(table) << "))) "
         << leaveTo("P" + std::to_string(in.pc)) << "\n";
      return at(table) + " + (static_cast<std::uint64_t>(" + var(index) + ") - 1) * ow_n";
    };
    // A pass over the thread's words of a table's column (`col`, word `w`).
    const auto columnPass = [&](std::uint32_t table, std::uint32_t index, const char* constness,
                                const std::string& body) {
      const std::string first = column(table, index);  // writes the range check first
      o_ << "  { " << constness << "Word* col = " << first << ";\n";
      each("{ const std::uint64_t w = ow_rank + j * ow_size; " + body + " }");
      o_ << "  }\n";
    };
    switch (in.op) {
      case Op::BAND:
      case Op::BOR:
      case Op::BXOR: {
        const char* op = in.op == Op::BAND ? " & " : in.op == Op::BOR ? " | " : " ^ ";
        each(kept(r(0)) + "[j] = " + kept(r(1)) + "[j]" + op + kept(r(2)) + "[j];");
        break;
      }
      case Op::BNOT:
        each(kept(r(0)) + "[j] = ~" + kept(r(1)) + "[j] & ow_m[j];");
        break;
      case Op::BCOPY:
        if (r(0) != r(1)) each(kept(r(0)) + "[j] = " + kept(r(1)) + "[j];");
        break;
      case Op::BFILL:
        each(kept(r(0)) + "[j] = " + (r(1) ? "ow_m[j];" : "0;"));
        break;
      case Op::TGETCOL:
        columnPass(r(1), r(2), "const ", kept(r(0)) + "[j] = w < ow_n ? col[w] : 0;");
        break;
      case Op::TSETCOL:
        columnPass(r(0), r(1), "", "if (w < ow_n) col[w] = " + kept(r(2)) + "[j];");
        break;
      case Op::BSOME:
        o_ << "  { Word any = 0;\n";
        each("any |= " + kept(r(1)) + "[j];");
        o_ << "  " << var(r(0)) << " = c.t.reduceOr(any != 0) ? 1 : 0; }\n";
        break;
      case Op::BNUMB:
        o_ << "  { std::uint64_t ones = 0;\n";
        each("ones += static_cast<std::uint64_t>(popCount(" + kept(r(1)) + "[j]));");
        o_ << "  " << var(r(0)) << " = static_cast<Word>(c.t.reduceSum(ones)); }\n";
        break;
      default:
        break;  // findOwnedLoops takes no other (ownedLoopOp)
    }
    // A temporary's first write gives it the loop's rows (on the way out).
    const std::string_view shape = opInfo(in.op).shape, access = opInfo(in.op).access;
    for (std::size_t k = 0; k < shape.size(); ++k)
      if (shape[k] == 'b' && access[k] == 'w')
        for (std::uint32_t i = 0; i < loop_->defined; ++i)
          if (loop_->vectors[i] == in.operands[k])
            o_ << "  " << prefix(*loop_) << "wrote |= " << (1u << i) << "u;\n";
    if (!count(in).empty()) o_ << "  " << count(in) << "\n";
  }

  std::ostringstream& o_;
  const IrFunction& f_;
  bool countOps_;
  const OwnedLoop* loop_ = nullptr;      // the owned loop whose code is being written
  std::vector<std::string> exits_;       // its way out's targets (ow_after 1, 2, ...)
  std::set<std::uint32_t> bailTargets_;  // instructions an owned loop's code may hand back
};

}  // namespace

GeneratedCpp emitCppParts(std::span<const IrFunction> functions, bool countOps) {
  GeneratedCpp g;
  std::ostringstream o;
  o << "// Generated by star's compiled tier from the module's bytecode (vm/compile/EmitCpp.cpp).\n"
       "#include \"vm/engine/EngineCompiled.h\"\n\n"
       "#ifndef STAR_CFN\n#define STAR_CFN STAR_HD_FN\n#endif\n\n"
       "namespace star_compiled {\nusing namespace star;\nusing namespace star::engine;\n\n";
  for (const IrFunction& f : functions)
    if (f.reached)
      o << "template <class Team>\nSTAR_CFN Exit f" << f.index << "(Compiled<Team>& c);\n";
  o << '\n';
  g.prelude = o.str();
  for (const IrFunction& f : functions) {
    if (!f.reached) continue;
    std::ostringstream d;
    FunctionEmitter(d, f, countOps).emit();
    g.functions.push_back(d.str());
    g.indices.push_back(f.index);
  }
  std::ostringstream t;
  t << "// Enters the function the run is in until the run stops.\ntemplate <class Team>\n"
       "STAR_HD_FN void run(Team& t, const Program& p, Region s) {\n"
       "  Compiled<Team> c(t, p, s);\n  for (;;) {\n    Exit e;\n    switch (c.function) {\n";
  for (const std::uint32_t k : g.indices)
    t << "      case " << k << ": e = f" << k << "(c); break;\n";
  t << "      default: e = c.interpret(c.pc);\n    }\n    if (e == Exit::Stopped) return;\n  "
       "}\n}\n\n";
  g.trampoline = t.str();
  return g;
}

std::string GeneratedCpp::text() const {
  std::string s = prelude;
  for (const std::string& f : functions) s += f;
  return s + trampoline + kNamespaceEnd;
}

std::string emitCpp(std::span<const IrFunction> functions, bool countOps) {
  return emitCppParts(functions, countOps).text();
}

GeneratedCpp emitCppParts(const EngineProgramImage& image) {
  std::vector<std::vector<std::uint32_t>> codes;
  std::vector<FunctionCode> functions;
  for (const engine::FunctionInfo& f : image.functions) {
    std::vector<std::uint32_t> code(image.code.begin() + f.code,
                                    image.code.begin() + f.code + f.codeSize);
    for (std::size_t pc = 0; pc < code.size();) {
      const std::uint32_t w = code[pc];
      code[pc] = w & engine::kOpcodeMask;
      pc += 1 + ((w >> engine::kOperandCountShift) & engine::kOperandCountMask);
    }
    codes.push_back(std::move(code));
  }
  for (std::size_t i = 0; i < codes.size(); ++i)
    functions.push_back({"function " + std::to_string(i), codes[i], image.functions[i].numRegs});
  return emitCppParts(buildIr(functions, image.entry), image.countOps);
}

std::string emitCpp(const EngineProgramImage& image) {
  return emitCppParts(image).text();
}

std::vector<std::string> deviceOpcodeDefines() {
  std::vector<std::string> out;
  auto define = [&](const std::string& name, std::uint64_t v) {
    out.push_back("-DSTAR_RTC_" + name + "=" + std::to_string(v) + "ull");
  };
#define STAR_DEFINE_MASK(name)  \
  define(#name "Lo", name##Lo); \
  define(#name "Hi", name##Hi);
  STAR_DEFINE_MASK(kScalarOps)
  STAR_DEFINE_MASK(kTeamOps)
  STAR_DEFINE_MASK(kHostMathOps)
  STAR_DEFINE_MASK(kHostOps)
  STAR_DEFINE_MASK(kParallelOps)
  STAR_DEFINE_MASK(kFaultingOps)
  STAR_DEFINE_MASK(kBitReadingOps)
  STAR_DEFINE_MASK(kNoFallThroughOps)
  STAR_DEFINE_MASK(kLeavingOps)
  STAR_DEFINE_MASK(kOwnedWriteOps)
  STAR_DEFINE_MASK(kOwnedReductionOps)
#undef STAR_DEFINE_MASK
  const std::uint64_t counts[] = {kOperandCounts0, kOperandCounts1, kOperandCounts2,
                                  kOperandCounts3, kOperandCounts4, kOperandCounts5};
  for (int k = 0; k < 6; ++k) define("OPERAND_COUNTS_" + std::to_string(k), counts[k]);
  return out;
}

std::uint64_t generatorKey() {
#ifndef STAR_VERSION
#define STAR_VERSION "0.0.0"
#endif
  std::uint64_t h = fnv1a(STAR_VERSION);
  for (const EmbeddedFile& f : engineHeaders()) h = fnv1a(f.text, fnv1a(f.path, h));
  return h;
}

}  // namespace star::compile
