#include "lsp/Describe.h"

#include <charconv>

#include "frontend/sema/Builtins.h"

namespace star::lsp {
namespace {

constexpr std::size_t kMaxShownValue = 60;

std::string shortened(std::string s) {
  if (s.size() > kMaxShownValue) s = s.substr(0, kMaxShownValue) + "...";
  return s;
}

std::string realText(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc{} ? std::string(buffer, end) : std::string("?");
}

std::string stringLiteral(const std::string& value) {
  std::string out = "'";
  for (char c : shortened(value)) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

// The folded value of a constant, as Star writes it; empty when it was not folded.
std::string constantValue(const Symbol& s) {
  switch (s.type) {
    case Type::Integer:
      return std::to_string(s.intValue);
    case Type::Boolean:
      return s.intValue ? "true" : "false";
    case Type::Real:
      return realText(s.realValue);
    case Type::String:
      return stringLiteral(s.stringValue);
    case Type::Word:
      return s.stringValue.empty() ? "" : "%" + shortened(s.stringValue);
    default:
      return "";
  }
}

// "var T: table; i, first, len: integer": parameters of one group share their type spec.
std::string parameterList(const Routine& r) {
  std::string out;
  for (std::size_t i = 0; i < r.params.size(); ++i) {
    const Param& p = r.params[i];
    bool startsGroup = i == 0 || r.params[i - 1].spec != p.spec;
    if (startsGroup) {
      if (i) out += "; ";
      if (p.byRef) out += "var ";
    } else {
      out += ", ";
    }
    out += p.name;
    bool endsGroup = i + 1 == r.params.size() || r.params[i + 1].spec != p.spec;
    if (endsGroup) out += std::string(": ") + typeName(p.spec ? p.spec->type : Type::Error);
  }
  return out;
}

}  // namespace

std::string typeText(Type type, const Shape& shape) {
  std::string name = typeName(type);
  if ((type == Type::Slice || type == Type::Word) && shape.length >= 0)
    return name + "(" + std::to_string(shape.length) + ")";
  if (type == Type::Table && shape.rows >= 0 && shape.cols >= 0)
    return name + "(" + std::to_string(shape.rows) + ", " + std::to_string(shape.cols) + ")";
  return name;
}

std::string symbolSignature(const Symbol& s) {
  if (s.kind == SymbolKind::Const) {
    std::string value = constantValue(s);
    std::string out = "const " + s.name + ": " + typeText(s.type, s.shape);
    return value.empty() ? out : out + " = " + value;
  }
  if (s.kind == SymbolKind::Param)
    return (s.byRef ? "var " : "") + s.name + ": " + typeName(s.type);
  return "var " + s.name + ": " + typeText(s.type, s.shape);
}

std::string symbolRole(const Symbol& s) {
  switch (s.kind) {
    case SymbolKind::Const:
      return "constant";
    case SymbolKind::Global:
      return "global variable";
    case SymbolKind::Local:
      return "local variable";
    case SymbolKind::Param:
      return s.byRef ? "var parameter" : "parameter";
  }
  return "name";
}

std::string routineSignature(const Routine& r) {
  std::string out = (r.isFunc ? "function " : "procedure ") + r.name;
  if (!r.params.empty()) out += "(" + parameterList(r) + ")";
  if (r.isFunc && r.result) out += std::string(": ") + typeName(r.result->type);
  return out;
}

std::string builtinSignature(int builtin) {
  if (builtin < 0 || static_cast<std::size_t>(builtin) >= builtins().size()) return "";
  return std::string(builtins()[static_cast<std::size_t>(builtin)].signature);
}

std::string builtinDescription(int builtin) {
  if (builtin < 0 || static_cast<std::size_t>(builtin) >= builtins().size()) return "";
  return std::string(builtins()[static_cast<std::size_t>(builtin)].doc);
}

}  // namespace star::lsp
