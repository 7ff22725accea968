// textDocument/definition and textDocument/references, across units: a name used in a program
// leads to its declaration in the unit's file (stdlib/graphs.star), and the references of a
// unit's routine are found in every open document that uses the unit.
#pragma once

#include <nlohmann/json.hpp>

#include "lsp/FeatureContext.h"

namespace star::lsp {

// A Location, or null (no name there, or a builtin, which has no declaration).
nlohmann::json definition(const FeatureContext& context, const nlohmann::json& params);

// An array of Locations (params.context.includeDeclaration says whether declarations count).
nlohmann::json references(const FeatureContext& context, const nlohmann::json& params);

}  // namespace star::lsp
