// Builds the AST from a syntactically valid ANTLR parse tree.
#pragma once

#include <memory>

#include "StarParser.h"
#include "frontend/ast/Ast.h"
#include "frontend/diag/Diagnostics.h"

namespace star {

class AstBuilder {
 public:
  explicit AstBuilder(std::uint32_t file) : file_(file) {}

  // The errors found while building (an integer literal out of range), reported by the caller
  // once it knows the parse stands.
  void reportErrors(Diagnostics& diags) const {
    for (auto& [where, message] : errors_) diags.error(where, message);
  }
  bool hasErrors() const { return !errors_.empty(); }

  std::unique_ptr<Program> program(StarParser::ProgramContext* ctx);
  std::unique_ptr<Program> unit(StarParser::UnitFileContext* ctx);
  std::unique_ptr<Program> replInput(StarParser::ReplInputContext* ctx);
  std::unique_ptr<Program> replExpr(StarParser::ReplExprContext* ctx);

  // Pieces, for the reader that parses a long file one declaration or statement at a time.
  std::unique_ptr<Program> programHead(StarParser::ProgramHeadContext* ctx);
  std::unique_ptr<Program> unitHead(StarParser::UnitHeadContext* ctx);
  void declaration(StarParser::DeclarationContext* ctx, Program& p);
  std::unique_ptr<Routine> routineHead(StarParser::ProcHeadContext* proc,
                                       StarParser::FuncHeadContext* func);
  StmtPtr statement(StarParser::StatementContext* ctx);  // null for an absent statement
  SourceLoc loc(antlr4::Token* t) const;

 private:
  SourceLoc loc(antlr4::ParserRuleContext* ctx) const { return loc(ctx->getStart()); }
  std::string ident(StarParser::IdentContext* ctx) const { return ctx->getText(); }

  template <typename Context>
  std::unique_ptr<Program> header(Context* ctx);
  void constSection(StarParser::ConstSectionContext* ctx, DeclList& decls);
  void varSection(StarParser::VarSectionContext* ctx, DeclList& decls);
  std::unique_ptr<Routine> routine(StarParser::ProcDeclContext* proc,
                                   StarParser::FuncDeclContext* func);
  template <typename Context>
  std::unique_ptr<Program> headOnly(Context* ctx);
  std::unique_ptr<TypeSpec> typeSpec(StarParser::TypeSpecContext* ctx);

  std::unique_ptr<BlockStmt> block(StarParser::CompoundStmtContext* ctx);
  void stmtList(StarParser::StmtListContext* ctx, std::vector<StmtPtr>& out);
  ExprPtr designator(StarParser::DesignatorContext* ctx);
  ExprPtr expr(StarParser::ExprContext* ctx);

  std::uint32_t file_;
  std::vector<std::pair<SourceLoc, std::string>> errors_;
};

}  // namespace star
