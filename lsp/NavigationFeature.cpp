#include "lsp/NavigationFeature.h"

#include <set>
#include <tuple>

namespace star::lsp {
namespace {

using nlohmann::json;

// The name of what a target declares, for the length of its range.
std::size_t nameLength(const NameTarget& target) {
  switch (target.kind) {
    case NameKind::Symbol:
      return target.symbol->name.size();
    case NameKind::Routine:
      return target.routine->name.size();
    case NameKind::Unit:
      return target.unit->name.size();
    case NameKind::Builtin:
      return 0;
  }
  return 0;
}

// What the same declaration is called in every analysis: its file and position (a builtin: its
// number).
using DeclarationKey = std::tuple<std::string, std::uint32_t, std::uint32_t>;

DeclarationKey keyOf(const DocumentAnalysis& analysis, const NameTarget& target) {
  if (target.kind == NameKind::Builtin)
    return {"<builtin>", static_cast<std::uint32_t>(target.builtin), 0};
  SourceLoc d = NameIndex::declarationOf(target);
  return {analysis.sources().path(d.file), d.line, d.col};
}

const NameOccurrence* nameAt(const FeatureContext& context, const json& params,
                             const Document*& document) {
  document = &context.document(params);
  const DocumentAnalysis& analysis = *document->analysis;
  LocationMapper mapper(analysis, document->uri, context.encoding);
  SourceLoc at = mapper.sourceLoc(params.at("position"));
  return analysis.program() ? analysis.names().at(at.file, at.line, at.col) : nullptr;
}

}  // namespace

json definition(const FeatureContext& context, const json& params) {
  const Document* document = nullptr;
  const NameOccurrence* name = nameAt(context, params, document);
  if (!name) return nullptr;
  SourceLoc declaration = NameIndex::declarationOf(name->target);
  if (!declaration.line) return nullptr;
  LocationMapper mapper(*document->analysis, document->uri, context.encoding);
  return mapper.location(declaration, static_cast<std::uint32_t>(nameLength(name->target)));
}

json references(const FeatureContext& context, const json& params) {
  const Document* document = nullptr;
  const NameOccurrence* name = nameAt(context, params, document);
  json out = json::array();
  if (!name) return out;
  bool includeDeclaration =
      params.contains("context") && params["context"].value("includeDeclaration", false);
  DeclarationKey wanted = keyOf(*document->analysis, name->target);

  std::vector<const Document*> documents = context.workspace.all();
  std::set<std::string> openPaths;
  for (const Document* d : documents) openPaths.insert(d->path);
  std::set<DeclarationKey> seen;  // (path, line, column) of each reference given
  for (const Document* d : documents) {
    const DocumentAnalysis* analysis = d->analysis.get();
    if (!analysis || !analysis->program()) continue;
    LocationMapper mapper(*analysis, d->uri, context.encoding);
    for (const NameOccurrence& o : analysis->names().occurrences()) {
      if (o.isDeclaration && !includeDeclaration) continue;
      const std::string& path = analysis->sources().path(o.loc.file);
      // A file that is open is read from its own analysis (its text may be newer than the disk).
      if (o.loc.file != DocumentAnalysis::kDocumentFile && openPaths.count(path)) continue;
      if (keyOf(*analysis, o.target) != wanted) continue;
      if (!seen.insert({path, o.loc.line, o.loc.col}).second) continue;
      out.push_back(mapper.location(o.loc, o.length));
    }
  }
  return out;
}

}  // namespace star::lsp
