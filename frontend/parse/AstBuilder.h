// Builds the AST from a syntactically valid ANTLR parse tree.
#pragma once

#include <memory>

#include "StarParser.h"
#include "frontend/ast/Ast.h"
#include "frontend/diag/Diagnostics.h"

namespace star {

class AstBuilder {
 public:
  AstBuilder(std::uint32_t file, Diagnostics& diags) : file_(file), diags_(diags) {}

  std::unique_ptr<Program> program(StarParser::ProgramContext* ctx);
  std::unique_ptr<Program> unit(StarParser::UnitFileContext* ctx);
  std::unique_ptr<Program> replInput(StarParser::ReplInputContext* ctx);
  std::unique_ptr<Program> replExpr(StarParser::ReplExprContext* ctx);

 private:
  SourceLoc loc(antlr4::Token* t) const;
  SourceLoc loc(antlr4::ParserRuleContext* ctx) const { return loc(ctx->getStart()); }
  std::string ident(StarParser::IdentContext* ctx) const { return ctx->getText(); }

  template <typename Context>
  std::unique_ptr<Program> header(Context* ctx);
  void declaration(StarParser::DeclarationContext* ctx, Program& p);
  void constSection(StarParser::ConstSectionContext* ctx, DeclList& decls);
  void varSection(StarParser::VarSectionContext* ctx, DeclList& decls);
  std::unique_ptr<Routine> routine(StarParser::ProcDeclContext* proc,
                                   StarParser::FuncDeclContext* func);
  std::unique_ptr<TypeSpec> typeSpec(StarParser::TypeSpecContext* ctx);

  std::unique_ptr<BlockStmt> block(StarParser::CompoundStmtContext* ctx);
  void stmtList(StarParser::StmtListContext* ctx, std::vector<StmtPtr>& out);
  StmtPtr statement(StarParser::StatementContext* ctx);  // null for an absent statement
  ExprPtr designator(StarParser::DesignatorContext* ctx);
  ExprPtr expr(StarParser::ExprContext* ctx);

  std::uint32_t file_;
  Diagnostics& diags_;
};

}  // namespace star
