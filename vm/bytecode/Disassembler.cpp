#include "vm/bytecode/Disassembler.h"

#include <iomanip>
#include <ostream>
#include <sstream>

#include "core/Printable.h"
#include "vm/bytecode/Decode.h"

namespace star {
namespace {

std::string slotKindName(SlotKind k) {
  switch (k) {
    case SlotKind::Scalar: return "scalar";
    case SlotKind::Bits: return "bits";
    case SlotKind::Table: return "table";
    case SlotKind::Ref: return "ref";
  }
  return "?";
}

std::string constantText(const Constant& k) {
  switch (k.tag) {
    case ValueTag::Integer: return std::to_string(k.intValue);
    case ValueTag::Boolean: return k.intValue ? "true" : "false";
    case ValueTag::Real: {
      std::ostringstream os;
      os << k.realValue;
      return os.str();
    }
    case ValueTag::String: return "'" + printable(k.text.size() > 30 ? k.text.substr(0, 30) + "..." : k.text) + "'";
    case ValueTag::Bits: return "%" + printable(k.text.size() > 30 ? k.text.substr(0, 30) + "..." : k.text);
    default: return "?";
  }
}

std::string operandText(const Module& m, char shape, std::uint32_t v) {
  if (isRegisterShape(shape)) {
    if (v & kGlobalBit) {
      std::uint32_t g = v & ~kGlobalBit;
      return "G" + std::to_string(g) + (g < m.globals.size() ? "(" + printable(m.globals[g].name) + ")" : "");
    }
    return "R" + std::to_string(v);
  }
  switch (shape) {
    case 'k': return "K" + std::to_string(v) + (v < m.constants.size() ? "(" + constantText(m.constants[v]) + ")" : "");
    case 'i': return std::to_string(static_cast<std::int32_t>(v));
    case 'j': return "->" + std::to_string(v);
    case 'l': return "L" + std::to_string(v);
    case 'f': return "F" + std::to_string(v) + (v < m.functions.size() ? "(" + printable(m.functions[v].name) + ")" : "");
    case 't': {
      static const char* names[] = {"integer", "boolean", "string", "real", "bits", "table"};
      return v < 6 ? names[v] : "?";
    }
    default: return std::to_string(v);
  }
}

}  // namespace

void disassembleFunction(const Module& m, std::uint32_t index, std::ostream& out,
                         const SourceLineFn& sourceLine) {
  const Function& f = m.functions[index];
  out << "function F" << index << " " << printable(f.name) << " (" << f.params.size() << " params, "
      << f.numRegs << " registers";
  if (f.resultReg >= 0) out << ", result R" << f.resultReg;
  if (!f.native.empty()) out << ", native '" << printable(f.native) << "'";
  out << ")\n";
  for (std::size_t i = 0; i < f.params.size(); ++i)
    out << "  ; R" << i << " parameter " << (f.params[i].byRef ? "var " : "") << slotKindName(f.params[i].kind) << "\n";
  if (!f.ownedRegs.empty()) {
    out << "  ; owned:";
    for (auto& [reg, kind] : f.ownedRegs) out << " R" << reg << ":" << slotKindName(kind);
    out << "\n";
  }
  static const char* const kForms[] = {"?", "forall", "STEP-while", "SOME-STEP", "for-if"};
  for (std::size_t l = 0; l < f.parallelLoops.size(); ++l) {
    const ParallelLoop& p = f.parallelLoops[l];
    out << "  ; parallel loop L" << l << ": " << kForms[static_cast<int>(p.form) & 7] << ", index "
        << operandText(m, 'r', p.index) << ", selector " << operandText(m, 'r', p.selector);
    if (p.form == LoopForm::ForIf)
      out << ", range " << operandText(m, 'r', p.first) << ".." << operandText(m, 'r', p.last);
    out << ", body " << p.bodyBegin << ".." << p.bodyEnd << " (marked |), exit " << p.exit << "\n";
  }
  std::uint32_t lastLine = 0, lastFile = ~0u;
  for (const Instr& in : instructions(f.code)) {
    const std::size_t pc = in.pc;
    SourceLoc loc = f.locs[pc];
    if (loc.line && (loc.line != lastLine || loc.file != lastFile)) {
      std::string text = sourceLine ? sourceLine(loc.file, loc.line) : "";
      std::string file = loc.file < m.files.size() ? printable(m.files[loc.file]) : "?";
      std::size_t slash = file.find_last_of('/');
      if (slash != std::string::npos) file = file.substr(slash + 1);
      out << "  ; " << file << ":" << loc.line;
      if (!text.empty()) {
        std::size_t first = text.find_first_not_of(" \t");
        out << ": " << (first == std::string::npos ? "" : text.substr(first, 100));
      }
      out << "\n";
      lastLine = loc.line;
      lastFile = loc.file;
    }
    const OpInfo& info = opInfo(in.op);
    std::ostringstream line;
    bool inBody = false;
    for (const ParallelLoop& p : f.parallelLoops) inBody = inBody || (pc >= p.bodyBegin && pc < p.bodyEnd);
    line << (inBody ? " |" : "  ") << std::setw(5) << pc << "  " << std::left << std::setw(8) << info.name;
    for (std::size_t i = 0; i < info.shape.size(); ++i) {
      if (i) line << ", ";
      line << operandText(m, info.shape[i], in.operands[i]);
    }
    out << line.str() << "\n";
  }
}

void disassemble(const Module& m, std::ostream& out, const SourceLineFn& sourceLine) {
  out << "; Star bytecode module, format version " << kModuleVersion << "\n";
  out << "; " << m.functions.size() << " functions, " << m.constants.size() << " constants, "
      << m.globals.size() << " globals; entry F" << m.entry << "\n";
  for (std::size_t g = 0; g < m.globals.size(); ++g)
    out << "; G" << g << " " << printable(m.globals[g].name) << ": " << slotKindName(m.globals[g].kind) << "\n";
  for (std::uint32_t i = 0; i < m.functions.size(); ++i) {
    out << "\n";
    disassembleFunction(m, i, out, sourceLine);
  }
}

}  // namespace star
