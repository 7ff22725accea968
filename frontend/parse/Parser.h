// Source text -> AST. Wraps the ANTLR-generated lexer and parser (frontend/Star.g4), turns their
// errors into Star diagnostics, bounds the nesting depth, and builds the AST.
#pragma once

#include <memory>

#include "frontend/ast/Ast.h"
#include "frontend/diag/Diagnostics.h"

namespace star {

enum class ParseMode { Program, Unit, ReplInput };

// Returns null when the file has syntax errors (all of them reported).
std::unique_ptr<Program> parseSource(const SourceManager& sources, std::uint32_t file,
                                     ParseMode mode, Diagnostics& diags);

// Rule nesting beyond this is reported as an error instead of exhausting the stack.
inline constexpr int kMaxParseDepth = 60000;

}  // namespace star
