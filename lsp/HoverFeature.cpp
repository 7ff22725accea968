#include "lsp/HoverFeature.h"

#include <string_view>

#include "lsp/Describe.h"
#include "lsp/DocComment.h"

namespace star::lsp {
namespace {

using nlohmann::json;

// Markdown would read `*`, `_` and the like in a comment as formatting.
std::string escapeMarkdown(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::string_view("\\`*_[]<>#|").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string codeBlock(const std::string& code) {
  return "```star\n" + code + "\n```";
}

// "declared in unit graphs": where a name comes from, when not from the document itself.
std::string origin(const DocumentAnalysis& analysis, SourceLoc declaration) {
  if (declaration.file == DocumentAnalysis::kDocumentFile || !declaration.line) return "";
  for (auto& unit : analysis.units())
    if (unit->loc.file == declaration.file) return "declared in unit `" + unit->name + "`";
  return "";
}

std::string joined(std::initializer_list<std::string> parts) {
  std::string out;
  for (const std::string& part : parts) {
    if (part.empty()) continue;
    if (!out.empty()) out += "\n\n";
    out += part;
  }
  return out;
}

std::string describe(const DocumentAnalysis& analysis, const NameTarget& target) {
  SourceLoc declaration = NameIndex::declarationOf(target);
  switch (target.kind) {
    case NameKind::Symbol:
      return joined({codeBlock(symbolSignature(*target.symbol)), symbolRole(*target.symbol),
                     origin(analysis, declaration)});
    case NameKind::Routine: {
      const Routine& r = *target.routine;
      std::string comment =
          commentBefore(analysis.sources(), r.keywordLoc.line ? r.keywordLoc : r.loc);
      return joined(
          {codeBlock(routineSignature(r)), escapeMarkdown(comment), origin(analysis, declaration)});
    }
    case NameKind::Builtin:
      return joined({codeBlock(builtinSignature(target.builtin)),
                     escapeMarkdown(builtinDescription(target.builtin)), "builtin"});
    case NameKind::Unit:
      return joined({codeBlock("unit " + target.unit->name),
                     "`" + analysis.sources().path(target.unit->loc.file) + "`"});
  }
  return "";
}

}  // namespace

json hover(const FeatureContext& context, const json& params) {
  const Document& document = context.document(params);
  LocationMapper mapper(*document.analysis, document.uri, context.encoding);
  SourceLoc at = mapper.sourceLoc(params.at("position"));
  if (!document.analysis->program()) return nullptr;
  const NameOccurrence* name = document.analysis->names().at(at.file, at.line, at.col);
  if (!name) return nullptr;
  return {
      {"contents", {{"kind", "markdown"}, {"value", describe(*document.analysis, name->target)}}},
      {"range", mapper.range(name->loc, name->length)}};
}

}  // namespace star::lsp
