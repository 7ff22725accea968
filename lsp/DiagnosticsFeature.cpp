#include "lsp/DiagnosticsFeature.h"

#include <filesystem>

#include "frontend/sema/Checker.h"
#include "lsp/LspConversions.h"

namespace star::lsp {
namespace {

using nlohmann::json;

int severityCode(Severity severity) {
  switch (severity) {
    case Severity::Error:
      return 1;
    case Severity::Warning:
      return 2;
    case Severity::Note:
      return 3;
  }
  return 1;
}

// How far the message's range reaches: the identifier that starts there, else one character.
std::uint32_t extentAt(const SourceManager& sources, SourceLoc loc) {
  std::string line = sources.line(loc.file, loc.line);
  std::size_t byte = 0;  // the byte of column loc.col (columns count code points)
  for (std::uint32_t column = 1; column < loc.col && byte < line.size(); ++column) {
    ++byte;
    while (byte < line.size() && (static_cast<unsigned char>(line[byte]) & 0xC0) == 0x80) ++byte;
  }
  if (byte >= line.size()) return 0;
  std::uint32_t length = 0;
  while (byte + length < line.size() && isIdentifierChar(line[byte + length])) ++length;
  return length ? length : 1;
}

// The `uses` entry of the document that brings in the unit of `file` (the first one when the
// unit comes in through another unit).
SourceLoc usesEntryFor(const DocumentAnalysis& analysis, std::uint32_t file) {
  const Program* program = analysis.program();
  if (!program || program->uses.empty()) return {DocumentAnalysis::kDocumentFile, 1, 1};
  std::string stem = std::filesystem::path(analysis.sources().path(file)).stem().string();
  for (auto& [name, loc] : program->uses)
    if (lowerCase(name) == stem) return loc;
  return program->uses.front().second;
}

json diagnostic(const LocationMapper& mapper, const CompilerMessage& message) {
  const DocumentAnalysis& analysis = mapper.analysis();
  const SourceManager& sources = analysis.sources();
  json d = {{"severity", severityCode(message.severity)}, {"source", "star"}};
  json related = json::array();
  if (message.loc.file == DocumentAnalysis::kDocumentFile) {
    d["range"] = mapper.range(message.loc, extentAt(sources, message.loc));
    d["message"] = message.text;
  } else {
    SourceLoc use = usesEntryFor(analysis, message.loc.file);
    std::string where = message.loc.file < sources.size() ? sources.path(message.loc.file) : "?";
    if (message.loc.line)
      where += ":" + std::to_string(message.loc.line) + ":" + std::to_string(message.loc.col);
    d["range"] = mapper.range(use, extentAt(sources, use));
    d["message"] = "in " + where + ": " + message.text;
    related.push_back({{"location", mapper.location(message.loc, extentAt(sources, message.loc))},
                       {"message", message.text}});
  }
  for (auto& [loc, text] : message.notes)
    related.push_back(
        {{"location", mapper.location(loc, extentAt(sources, loc))}, {"message", text}});
  if (!related.empty()) d["relatedInformation"] = related;
  if (message.severity == Severity::Warning && message.text.find("never used") != std::string::npos)
    d["tags"] = json::array({1});  // Unnecessary: shown faded
  return d;
}

}  // namespace

json diagnosticsParams(const Document& document, PositionEncoding encoding) {
  json list = json::array();
  if (document.analysis) {
    LocationMapper mapper(*document.analysis, document.uri, encoding);
    for (const CompilerMessage& message : document.analysis->messages())
      list.push_back(diagnostic(mapper, message));
  }
  return {{"uri", document.uri}, {"version", document.version}, {"diagnostics", list}};
}

}  // namespace star::lsp
