#include "lsp/CompletionFeature.h"

#include <cctype>
#include <filesystem>
#include <set>

#include "core/FileText.h"
#include "frontend/parse/Parser.h"
#include "frontend/sema/Builtins.h"
#include "frontend/sema/Checker.h"
#include "lsp/Describe.h"
#include "lsp/DocComment.h"

namespace star::lsp {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// docs/LANGUAGE.md, section 1.
const char* const kKeywords[] = {
    "program", "unit",   "uses",   "const",  "var",   "proc",  "procedure", "func",  "function",
    "begin",   "end",    "if",     "then",   "else",  "while", "do",        "for",   "forall",
    "in",      "to",     "downto", "repeat", "until", "break", "continue",  "exit",  "native",
    "not",     "and",    "or",     "xor",    "div",   "mod",   "true",      "false", "integer",
    "boolean", "string", "real",   "slice",  "word",  "table"};

// CompletionItemKind values of the protocol.
enum ItemKind : int {
  kFunctionItem = 3,
  kVariableItem = 6,
  kModuleItem = 9,
  kKeywordItem = 14,
  kConstantItem = 21,
};

constexpr std::size_t kMaxUnitFileBytes = std::size_t{1} << 20;
constexpr std::size_t kMaxDirectoryEntries = 2000;

// Offers each name once, the innermost declaration first (case-insensitively, as Star resolves).
class ItemList {
 public:
  void add(const std::string& label, int kind, const std::string& detail,
           const std::string& documentation = "") {
    if (!seen_.insert(lowerCase(label)).second) return;
    json item = {{"label", label}, {"kind", kind}};
    if (!detail.empty()) item["detail"] = detail;
    if (!documentation.empty())
      item["documentation"] = {{"kind", "plaintext"}, {"value", documentation}};
    items_.push_back(std::move(item));
  }
  json take() { return {{"isIncomplete", false}, {"items", std::move(items_)}}; }

 private:
  std::set<std::string> seen_;
  json items_ = json::array();
};

// True when the text before `offset` is `uses` and then names separated by commas: a unit
// name is being typed.
bool afterUses(const std::string& text, std::size_t offset) {
  std::size_t i = offset;
  auto skipBlanks = [&] {
    while (i > 0 && std::isspace(static_cast<unsigned char>(text[i - 1]))) --i;
  };
  auto word = [&] {
    std::size_t end = i;
    while (i > 0 && isIdentifierChar(text[i - 1])) --i;
    return text.substr(i, end - i);
  };
  skipBlanks();
  while (i > 0 && text[i - 1] == ',') {  // `, NAME` of a unit already written
    --i;
    skipBlanks();
    if (word().empty()) return false;
    skipBlanks();
  }
  return lowerCase(word()) == "uses";
}

std::string typeDetail(const Symbol* symbol, const TypeSpec* spec) {
  if (symbol) return symbolSignature(*symbol);
  return spec ? typeName(spec->type) : "";
}

void addDeclarations(ItemList& items, const DeclList& decls) {
  for (auto& c : decls.consts)
    items.add(c.name, kConstantItem, c.symbol ? symbolSignature(*c.symbol) : "const");
  for (auto& v : decls.vars) items.add(v.name, kVariableItem, typeDetail(v.symbol, v.spec));
}

void addRoutine(ItemList& items, const SourceManager& sources, const Routine& r) {
  items.add(r.name, kFunctionItem, routineSignature(r), commentBefore(sources, r.keywordLoc));
}

bool inside(const Routine& r, SourceLoc at) {
  auto before = [](SourceLoc a, SourceLoc b) {
    return a.line < b.line || (a.line == b.line && a.col <= b.col);
  };
  return r.keywordLoc.line && r.endLoc.line && before(r.keywordLoc, at) && before(at, r.endLoc);
}

void addNamesInScope(ItemList& items, const DocumentAnalysis& analysis, SourceLoc at) {
  const Program& program = *analysis.program();
  for (auto& r : program.routines) {
    if (!inside(*r, at)) continue;
    for (auto& p : r->params)
      items.add(p.name, kVariableItem, p.symbol ? symbolSignature(*p.symbol) : p.name);
    addDeclarations(items, r->decls);
  }
  addDeclarations(items, program.decls);
  for (auto& r : program.routines) addRoutine(items, analysis.sources(), *r);
  for (auto& unit : analysis.units()) {
    addDeclarations(items, unit->decls);
    for (auto& r : unit->routines) addRoutine(items, analysis.sources(), *r);
  }
}

void addBuiltins(ItemList& items) {
  for (const BuiltinInfo& b : builtins())
    items.add(b.spelling, kFunctionItem, std::string(b.signature), std::string(b.doc));
}

void addKeywords(ItemList& items) {
  for (const char* k : kKeywords) items.add(k, kKeywordItem, "keyword");
}

// The units `uses` can name from this document: NAME.star files that hold a unit, beside the
// document and in the module path.
void addUnitNames(ItemList& items, const Document& document, const AnalysisOptions& options) {
  std::vector<fs::path> directories;
  if (document.path.find('/') != std::string::npos)
    directories.push_back(fs::path(document.path).parent_path());
  for (auto& d : options.modulePath) directories.emplace_back(d);
  for (auto& directory : directories) {
    std::error_code ec;
    fs::directory_iterator it(directory, ec);
    std::size_t entries = 0;
    for (; !ec && it != fs::directory_iterator() && entries < kMaxDirectoryEntries;
         it.increment(ec), ++entries) {
      const fs::path& path = it->path();
      if (path.extension() != ".star" || path.string() == document.path) continue;
      std::string error;
      auto text = readBoundedFile(path.string(), kMaxUnitFileBytes, error);
      if (!text || fileParseMode(*text) != ParseMode::Unit) continue;
      items.add(path.stem().string(), kModuleItem, "unit", path.string());
    }
  }
}

}  // namespace

json completion(const FeatureContext& context, const json& params) {
  const Document& document = context.document(params);
  ItemList items;
  const json& position = params.at("position");
  std::size_t offset = byteOffset(document.text, position.at("line").get<std::uint32_t>(),
                                  position.at("character").get<std::uint32_t>(), context.encoding);
  std::size_t wordStart = offset;
  while (wordStart > 0 && isIdentifierChar(document.text[wordStart - 1])) --wordStart;
  if (afterUses(document.text, wordStart)) {
    addUnitNames(items, document, context.workspace.options());
    return items.take();
  }
  if (const DocumentAnalysis* analysis = document.lastParsed.get()) {
    LocationMapper mapper(*analysis, document.uri, context.encoding);
    addNamesInScope(items, *analysis, mapper.sourceLoc(position));
  }
  addBuiltins(items);
  addKeywords(items);
  return items.take();
}

}  // namespace star::lsp
