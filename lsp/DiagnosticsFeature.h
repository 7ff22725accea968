// textDocument/publishDiagnostics: the compiler's errors and warnings for a document.
#pragma once

#include <nlohmann/json.hpp>

#include "lsp/TextPositions.h"
#include "lsp/Workspace.h"

namespace star::lsp {

// The params of a publishDiagnostics notification for the document's current analysis. A
// message about a unit's file is shown on the `uses` clause that brings the unit in.
nlohmann::json diagnosticsParams(const Document& document, PositionEncoding encoding);

}  // namespace star::lsp
