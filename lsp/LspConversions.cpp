#include "lsp/LspConversions.h"

#include <algorithm>
#include <limits>

#include "lsp/RpcError.h"
#include "lsp/Uri.h"

namespace star::lsp {

using nlohmann::json;

std::string LocationMapper::uriOf(std::uint32_t file) const {
  if (file == DocumentAnalysis::kDocumentFile) return documentUri_;
  const SourceManager& sources = analysis_.sources();
  return file < sources.size() ? pathToUri(sources.path(file)) : documentUri_;
}

json LocationMapper::position(SourceLoc loc) const {
  if (!loc.line) return {{"line", 0}, {"character", 0}};
  std::string line = analysis_.sources().line(loc.file, loc.line);
  return {{"line", loc.line - 1}, {"character", lspCharacter(line, loc.col, encoding_)}};
}

json LocationMapper::range(SourceLoc start, std::uint32_t length) const {
  SourceLoc end = start;
  end.col += length;
  return range(start, end);
}

json LocationMapper::range(SourceLoc start, SourceLoc end) const {
  return {{"start", position(start)}, {"end", position(end)}};
}

json LocationMapper::location(SourceLoc start, std::uint32_t length) const {
  return {{"uri", uriOf(start.file)}, {"range", range(start, length)}};
}

SourceLoc LocationMapper::sourceLoc(const json& position) const {
  auto line = position.at("line").get<std::int64_t>();
  auto character = position.at("character").get<std::int64_t>();
  if (line < 0 || character < 0) throw RpcError(kInvalidParams, "a negative position");
  constexpr std::int64_t kLargest = std::numeric_limits<std::uint32_t>::max() - 1;
  SourceLoc loc{DocumentAnalysis::kDocumentFile,
                static_cast<std::uint32_t>(std::min(line, kLargest) + 1), 1};
  std::string text = analysis_.sources().line(loc.file, loc.line);
  loc.col =
      codePointColumn(text, static_cast<std::uint32_t>(std::min(character, kLargest)), encoding_);
  return loc;
}

}  // namespace star::lsp
