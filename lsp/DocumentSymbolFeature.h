// textDocument/documentSymbol: the outline of a document: its constants, global variables,
// procedures and functions (with their parameters and locals inside). While the document has
// syntax errors the outline is that of its last version that parsed.
#pragma once

#include <nlohmann/json.hpp>

#include "lsp/FeatureContext.h"

namespace star::lsp {

// DocumentSymbol[] when `hierarchical` (the client supports it), else SymbolInformation[].
nlohmann::json documentSymbols(const FeatureContext& context, const nlohmann::json& params,
                               bool hierarchical);

}  // namespace star::lsp
