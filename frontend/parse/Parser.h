// Source text -> AST. Wraps the ANTLR-generated lexer and parser (frontend/Star.g4), turns their
// errors into Star diagnostics, bounds the nesting depth, and builds the AST.
#pragma once

#include <memory>
#include <string>

#include "frontend/ast/Ast.h"
#include "frontend/diag/Diagnostics.h"

namespace star {

// ReplInput: declarations and statements without a program header (the Program's body holds
// the statements). ReplExpr: a single expression, optionally followed by ';' (Program::value).
enum class ParseMode { Program, Unit, ReplInput, ReplExpr };

// Returns null when the file has syntax errors (all of them reported).
std::unique_ptr<Program> parseSource(const SourceManager& sources, std::uint32_t file,
                                     ParseMode mode, Diagnostics& diags);

// The REPL's test for multi-line input: true when `text` is not yet a complete REPL input but
// could become one with more lines (the only syntax problem is reaching the end of the input,
// an unterminated comment, or a trailing 'then', 'else' or 'do'). Reports nothing.
bool replInputIncomplete(const std::string& text);

// How the REPL's :load reads a file: Program when it starts with 'program', Unit with 'unit',
// ReplInput (declarations and statements) otherwise.
ParseMode fileParseMode(const std::string& text);

// Rule nesting beyond this is reported as an error instead of exhausting the stack.
inline constexpr int kMaxParseDepth = 60000;

}  // namespace star
