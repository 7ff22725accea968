// How hover, completion and the outline show a declaration: its signature in Star syntax.
#pragma once

#include <string>

#include "frontend/ast/Ast.h"

namespace star::lsp {

// "integer", "slice(8)", "table(4, 6)"; a size the checker does not know is left out ("slice").
std::string typeText(Type type, const Shape& shape);

// "var X: slice(8)", "const N = 10", "var T: table" (a var parameter), "i: integer" (a value
// parameter).
std::string symbolSignature(const Symbol& symbol);

// "global variable", "local variable", "parameter", "constant".
std::string symbolRole(const Symbol& symbol);

// "function GR_FIELD(var T: table; i, first, len: integer): integer".
std::string routineSignature(const Routine& routine);

// A builtin's signature and one-line description (frontend/sema/Builtins.def).
std::string builtinSignature(int builtin);
std::string builtinDescription(int builtin);

}  // namespace star::lsp
