// The front end's locations (file, 1-based line, 1-based code-point column) as the protocol's
// positions, ranges and locations (URI, 0-based line, 0-based character in the negotiated
// encoding), and back, for one analysis of one document.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "lsp/DocumentAnalysis.h"
#include "lsp/TextPositions.h"

namespace star::lsp {

class LocationMapper {
 public:
  LocationMapper(const DocumentAnalysis& analysis, std::string documentUri,
                 PositionEncoding encoding)
      : analysis_(analysis), documentUri_(std::move(documentUri)), encoding_(encoding) {}

  // The document's own URI for the document, a file: URI for a unit.
  std::string uriOf(std::uint32_t file) const;
  nlohmann::json position(SourceLoc loc) const;
  // From `start` over `length` code points of its line.
  nlohmann::json range(SourceLoc start, std::uint32_t length) const;
  // From `start` to `end` (exclusive), which may be on a later line.
  nlohmann::json range(SourceLoc start, SourceLoc end) const;
  nlohmann::json location(SourceLoc start, std::uint32_t length) const;

  // The document's line and column of a protocol position ({"line", "character"}).
  SourceLoc sourceLoc(const nlohmann::json& position) const;

  const DocumentAnalysis& analysis() const { return analysis_; }
  PositionEncoding encoding() const { return encoding_; }

 private:
  const DocumentAnalysis& analysis_;
  std::string documentUri_;
  PositionEncoding encoding_;
};

}  // namespace star::lsp
