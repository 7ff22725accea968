// textDocument/hover: the type of a variable or constant, the signature of a procedure or
// function (with the comment before its declaration), a builtin's signature and description.
#pragma once

#include <nlohmann/json.hpp>

#include "lsp/FeatureContext.h"

namespace star::lsp {

// A Hover, or null where the position is on no known name.
nlohmann::json hover(const FeatureContext& context, const nlohmann::json& params);

}  // namespace star::lsp
