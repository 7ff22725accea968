// textDocument/completion: after `uses`, the units that can be found; elsewhere the names in
// scope at the cursor (the routine's parameters and locals, the globals, constants, procedures
// and functions of the document and its units), the builtins and the keywords. While the
// document has syntax errors the names come from its last version that parsed.
#pragma once

#include <nlohmann/json.hpp>

#include "lsp/FeatureContext.h"

namespace star::lsp {

// A CompletionList.
nlohmann::json completion(const FeatureContext& context, const nlohmann::json& params);

}  // namespace star::lsp
