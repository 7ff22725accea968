#include "vm/compile/EmitCpp.h"

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
    for (std::uint32_t r : f_.regsUsed) o_ << "  Word r" << r << " = c.reg(" << r << ");\n";
    for (std::uint32_t g : f_.globalsUsed) o_ << "  Word g" << g << " = c.global(" << g << ");\n";
    // Every thread has read its registers before any leader writes them back.
    o_ << "  c.t.syncBlock();\n  switch (c.pc) {\n";
    for (const IrBlock& b : f_.blocks)
      if (b.entry) o_ << "    case " << b.begin << ": goto L" << b.begin << ";\n";
    o_ << "    default: return c.interpret(c.pc);\n  }\n";
    for (const IrBlock& b : f_.blocks) {
      o_ << "L" << b.begin << ":\n";
      for (const IrInstr& in : b.instrs) instruction(in);
    }
    o_ << "  c.exitPc = c.pc;\n  c.exitWhy = StopReason::Other;\n";
    o_ << "Lstop:\n  " << writeBack() << "\n  return c.stopAt(c.exitPc, c.exitWhy);\n";
    o_ << "Linterpret:\n  " << writeBack() << "\n  return c.interpret(c.exitPc);\n}\n\n";
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
  // Every way out goes through one of two exits at the function's end, which write the
  // registers back once (rather than at every place the run may stop).
  std::string stop(const IrInstr& in, const std::string& why) const {
    return "{ c.exitPc = " + std::to_string(in.pc) + "; c.exitWhy = " + why + "; goto Lstop; }";
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
        std::string poll =
            in.backward ? "if (!c.poll()) " + stop(in, "StopReason::Poll") + " " : "";
        std::string go = poll + count(in) + " goto L" + std::to_string(target) + ";";
        if (in.op == Op::JMP)
          o_ << "  { " << go << " }\n";
        else
          o_ << "  if ((" << reg(in, 0) << " != 0) == " << (in.op == Op::JMPT ? "true" : "false")
             << ") { " << go << " } else { " << count(in) << " }\n";
        return;
      }
      case Kind::ShapeRead:
        o_ << "  { Word v; if (!c.read(" << opName(in.op) << ", " << reg(in, 1) << ", "
           << (in.op == Op::BGET ? "static_cast<std::int64_t>(" + reg(in, 2) + ")"
                                 : std::string("0"))
           << ", v)) " << stop(in, "StopReason::Error") << " " << reg(in, 0) << " = v; "
           << count(in) << " }\n";
        return;
      case Kind::Team: {
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
      case Kind::Interpret:
        o_ << "  { c.exitPc = " << in.pc << "; goto Linterpret; }\n";
        return;
    }
  }

  std::ostringstream& o_;
  const IrFunction& f_;
  bool countOps_;
};

}  // namespace

std::string emitCpp(std::span<const IrFunction> functions, bool countOps) {
  std::ostringstream o;
  o << "// Generated by star's compiled tier from the module's bytecode (vm/compile/EmitCpp.cpp).\n"
       "#include \"vm/engine/EngineCompiled.h\"\n\n"
       "#ifndef STAR_CFN\n#define STAR_CFN STAR_HD_FN\n#endif\n\n"
       "namespace star_compiled {\nusing namespace star;\nusing namespace star::engine;\n\n";
  for (const IrFunction& f : functions)
    if (f.reached)
      o << "template <class Team>\nSTAR_CFN Exit f" << f.index << "(Compiled<Team>& c);\n";
  o << '\n';
  for (const IrFunction& f : functions)
    if (f.reached) FunctionEmitter(o, f, countOps).emit();
  o << "// Enters the function the run is in until the run stops.\ntemplate <class Team>\n"
       "STAR_HD_FN void run(Team& t, const Program& p, Region s) {\n"
       "  Compiled<Team> c(t, p, s);\n  for (;;) {\n    Exit e;\n    switch (c.function) {\n";
  for (const IrFunction& f : functions)
    if (f.reached) o << "      case " << f.index << ": e = f" << f.index << "(c); break;\n";
  o << "      default: e = c.interpret(c.pc);\n    }\n    if (e == Exit::Stopped) return;\n  "
       "}\n}\n\n"
       "}  // namespace star_compiled\n";
  return o.str();
}

std::string emitCpp(const EngineProgramImage& image) {
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
  return emitCpp(buildIr(functions, image.entry), image.countOps);
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
