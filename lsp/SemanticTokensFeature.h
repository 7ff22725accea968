// textDocument/semanticTokens/full: every resolved name of the document, typed as a namespace
// (a unit), variable, parameter or function, with modifiers for declarations, constants
// (readonly), builtins (defaultLibrary) and for the associative types: names of slice, word and
// table type (functions by their result) carry the modifier `slice`, `word` or `table`.
#pragma once

#include <nlohmann/json.hpp>

#include "lsp/FeatureContext.h"

namespace star::lsp {

// The SemanticTokensLegend the server announces.
nlohmann::json semanticTokensLegend();

// SemanticTokens ({"data": [...]}) for the current analysis; empty while it has syntax errors.
nlohmann::json semanticTokens(const FeatureContext& context, const nlohmann::json& params);

}  // namespace star::lsp
