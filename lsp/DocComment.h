// The comment written just before a declaration (at most one line break between them), shown
// with the declaration's signature: `{ ... }`, `(* ... *)`, `/* ... */` or a run of `//` lines.
#pragma once

#include <string>

#include "core/SourceLoc.h"
#include "frontend/diag/Diagnostics.h"

namespace star::lsp {

// The comment's text without its delimiters and common indentation; empty when there is none.
std::string commentBefore(const SourceManager& sources, SourceLoc declarationStart);

}  // namespace star::lsp
