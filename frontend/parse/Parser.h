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

// For an editor (the language server): as parseSource, and where the file has syntax errors, the
// AST of the file repaired as a person typing would: at the first error, a ';' before the token
// (in the blank before it, so that other tokens keep their lines and columns) or the token left
// out, again at the next error, a few times. *recovered says whether the AST is a repair's; the
// errors reported are the file's own.
std::unique_ptr<Program> parseForEditor(const SourceManager& sources, std::uint32_t file, ParseMode mode,
                                        Diagnostics& diags, bool* recovered = nullptr);

// Thrown out of a parse by Ctrl-C (core/Interrupt.h); parseSource reports it as an error.
struct ParseInterrupted {};

// A program (or unit) read one piece at a time: its head and declarations, then (a program) the
// statements of its main body one by one, so that a driver can compile a long program statement
// by statement. Any syntax problem throws NeedsWholeParse: parse the whole file with
// parseSource, which reports every error.
class ProgramReader {
 public:
  struct NeedsWholeParse {};
  struct TooDeepAt {  // nesting beyond kMaxParseDepth, at line:col
    std::uint32_t line, col;
  };

  // The text must be valid UTF-8 (validSourceText).
  ProgramReader(const SourceManager& sources, std::uint32_t file);
  ~ProgramReader();
  ProgramReader(const ProgramReader&) = delete;
  ProgramReader& operator=(const ProgramReader&) = delete;

  // Mode Program or Unit. A program's body comes back empty (but located): its statements come
  // from nextStatement().
  std::unique_ptr<Program> declarations(ParseMode mode);
  // The next statement of the main body; null at its end (after `end.` and the end of the file).
  StmtPtr nextStatement();
  // Errors found while building the AST (integer literals out of range).
  void reportErrors(Diagnostics& diags) const;
  bool hasErrors() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Reports the first invalid UTF-8 byte of the file as an error; false then.
bool validSourceText(const SourceManager& sources, std::uint32_t file, Diagnostics& diags);

// The REPL's test for multi-line input: true when `text` is not yet a complete REPL input but
// could become one with more lines (the only syntax problem is reaching the end of the input,
// an unterminated comment, or a trailing 'then', 'else' or 'do'). Reports nothing.
bool replInputIncomplete(const std::string& text);

// How the REPL's :load reads a file: Program when it starts with 'program', Unit with 'unit',
// ReplInput (declarations and statements) otherwise.
ParseMode fileParseMode(const std::string& text);

// Rule nesting beyond this is reported as an error instead of exhausting the stack.
inline constexpr int kMaxParseDepth = 40000;

}  // namespace star
