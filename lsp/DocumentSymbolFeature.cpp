#include "lsp/DocumentSymbolFeature.h"

#include "lsp/Describe.h"

namespace star::lsp {
namespace {

using nlohmann::json;

// SymbolKind values of the protocol.
enum SymbolKindCode : int { kFunctionSymbol = 12, kVariableSymbol = 13, kConstantSymbol = 14 };

class OutlineBuilder {
 public:
  OutlineBuilder(const LocationMapper& mapper, bool hierarchical)
      : mapper_(mapper), hierarchical_(hierarchical) {}

  json program(const Program& p) {
    json out = json::array();
    declarations(p.decls, out, "");
    for (auto& r : p.routines) routine(*r, out);
    return out;
  }

 private:
  json symbol(const std::string& name, int kind, const std::string& detail, const json& range,
              const json& selection, const std::string& container) {
    if (hierarchical_) {
      json s = {{"name", name}, {"kind", kind}, {"range", range}, {"selectionRange", selection}};
      if (!detail.empty()) s["detail"] = detail;
      return s;
    }
    json s = {
        {"name", name},
        {"kind", kind},
        {"location", {{"uri", mapper_.uriOf(DocumentAnalysis::kDocumentFile)}, {"range", range}}}};
    if (!container.empty()) s["containerName"] = container;
    return s;
  }

  json named(const std::string& name, SourceLoc loc, int kind, const std::string& detail,
             const std::string& container) {
    json range = mapper_.range(loc, static_cast<std::uint32_t>(name.size()));
    return symbol(name, kind, detail, range, range, container);
  }

  void declarations(const DeclList& decls, json& out, const std::string& container) {
    for (auto& c : decls.consts)
      out.push_back(named(c.name, c.loc, kConstantSymbol,
                          c.symbol ? symbolSignature(*c.symbol) : "", container));
    for (auto& v : decls.vars)
      out.push_back(named(v.name, v.loc, kVariableSymbol,
                          v.symbol ? symbolSignature(*v.symbol)
                                   : std::string(typeName(v.spec ? v.spec->type : Type::Error)),
                          container));
  }

  void routine(const Routine& r, json& out) {
    json selection = mapper_.range(r.loc, static_cast<std::uint32_t>(r.name.size()));
    json range = selection;
    if (r.keywordLoc.line && r.endLoc.line) {
      SourceLoc end = r.endLoc;
      end.col += 1;  // just after the closing ';'
      range = mapper_.range(r.keywordLoc, end);
    }
    json children = json::array();
    for (auto& p : r.params)
      children.push_back(named(p.name, p.loc, kVariableSymbol,
                               p.symbol ? symbolSignature(*p.symbol) : "", r.name));
    declarations(r.decls, children, r.name);
    if (hierarchical_) {
      json s = symbol(r.name, kFunctionSymbol, routineSignature(r), range, selection, "");
      s["children"] = std::move(children);
      out.push_back(std::move(s));
    } else {
      out.push_back(symbol(r.name, kFunctionSymbol, "", range, selection, ""));
      for (auto& c : children) out.push_back(std::move(c));
    }
  }

  const LocationMapper& mapper_;
  bool hierarchical_;
};

}  // namespace

json documentSymbols(const FeatureContext& context, const json& params, bool hierarchical) {
  const Document& document = context.document(params);
  const DocumentAnalysis* analysis = document.lastParsed.get();
  if (!analysis) return json::array();
  LocationMapper mapper(*analysis, document.uri, context.encoding);
  return OutlineBuilder(mapper, hierarchical).program(*analysis->program());
}

}  // namespace star::lsp
