#include "lsp/SemanticTokensFeature.h"

#include <optional>

namespace star::lsp {
namespace {

using nlohmann::json;

// Indices into the legend's tokenTypes and bits of its tokenModifiers.
enum TokenType : std::uint32_t { kNamespace, kVariable, kParameter, kFunction };
constexpr std::uint32_t kDeclaration = 1u << 0;
constexpr std::uint32_t kReadonly = 1u << 1;
constexpr std::uint32_t kDefaultLibrary = 1u << 2;
constexpr std::uint32_t kSlice = 1u << 3;
constexpr std::uint32_t kWord = 1u << 4;
constexpr std::uint32_t kTable = 1u << 5;

std::uint32_t typeModifier(Type type) {
  switch (type) {
    case Type::Slice:
      return kSlice;
    case Type::Word:
      return kWord;
    case Type::Table:
      return kTable;
    default:
      return 0;
  }
}

struct Classified {
  std::uint32_t type;
  std::uint32_t modifiers;
};

Classified classify(const NameOccurrence& o) {
  const NameTarget& t = o.target;
  std::uint32_t declaration = o.isDeclaration ? kDeclaration : 0;
  switch (t.kind) {
    case NameKind::Unit:
      return {kNamespace, declaration};
    case NameKind::Builtin:
      return {kFunction, kDefaultLibrary};
    case NameKind::Routine: {
      Type result = t.routine->result ? t.routine->result->type : Type::Void;
      return {kFunction, declaration | typeModifier(result)};
    }
    case NameKind::Symbol: {
      const Symbol& s = *t.symbol;
      std::uint32_t modifiers = declaration | typeModifier(s.type);
      if (s.kind == SymbolKind::Const) modifiers |= kReadonly;
      return {s.kind == SymbolKind::Param ? kParameter : kVariable, modifiers};
    }
  }
  return {kVariable, 0};
}

}  // namespace

json semanticTokensLegend() {
  return {
      {"tokenTypes", {"namespace", "variable", "parameter", "function"}},
      {"tokenModifiers", {"declaration", "readonly", "defaultLibrary", "slice", "word", "table"}}};
}

json semanticTokens(const FeatureContext& context, const json& params) {
  const Document& document = context.document(params);
  std::vector<std::uint32_t> data;
  const DocumentAnalysis* analysis = document.analysis.get();
  if (analysis && analysis->program()) {
    std::uint32_t previousLine = 0, previousStart = 0, previousEnd = 0;
    std::uint32_t cursorLine = 0;
    std::optional<LineCursor> cursor;
    std::string lineText;
    for (const NameOccurrence& o : analysis->names().occurrences()) {
      if (o.loc.file != DocumentAnalysis::kDocumentFile) continue;
      std::uint32_t line = o.loc.line - 1;
      if (!cursor || cursorLine != o.loc.line) {
        lineText = analysis->sources().line(o.loc.file, o.loc.line);
        cursor.emplace(lineText, context.encoding);
        cursorLine = o.loc.line;
      }
      std::uint32_t start = cursor->lspCharacter(o.loc.col);
      std::uint32_t end = cursor->lspCharacter(o.loc.col + o.length);
      if (!data.empty() && line == previousLine && start < previousEnd) continue;  // overlap
      Classified c = classify(o);
      data.push_back(line - previousLine);
      data.push_back(line == previousLine ? start - previousStart : start);
      data.push_back(end - start);
      data.push_back(c.type);
      data.push_back(c.modifiers);
      previousLine = line;
      previousStart = start;
      previousEnd = end;
    }
  }
  return {{"data", data}};
}

}  // namespace star::lsp
