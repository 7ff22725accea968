// A walk over the statements and expressions of a checked AST, for the passes that only look at
// names (the REPL's global-use analysis, the language server's name index): the walk visits every
// child; a pass overrides the hooks for what it collects.
#pragma once

#include <vector>

#include "frontend/ast/Ast.h"

namespace star {

class AstWalk {
 public:
  virtual ~AstWalk() = default;

  void stmt(const Stmt* s) {
    if (!s) return;
    switch (s->kind) {
      case StmtKind::Assign: {
        auto* a = static_cast<const AssignStmt*>(s);
        expr(a->target.get());
        expr(a->value.get());
        break;
      }
      case StmtKind::Call:
        expr(static_cast<const CallStmt*>(s)->call.get());
        break;
      case StmtKind::If: {
        auto* i = static_cast<const IfStmt*>(s);
        expr(i->cond.get());
        stmt(i->thenS.get());
        stmt(i->elseS.get());
        break;
      }
      case StmtKind::While: {
        auto* w = static_cast<const WhileStmt*>(s);
        expr(w->cond.get());
        stmt(w->body.get());
        break;
      }
      case StmtKind::For: {
        auto* f = static_cast<const ForStmt*>(s);
        loopVariable(f->varLoc, f->var, f->symbol);
        expr(f->from.get());
        expr(f->to.get());
        stmt(f->body.get());
        break;
      }
      case StmtKind::Forall: {
        auto* f = static_cast<const ForallStmt*>(s);
        loopVariable(f->varLoc, f->var, f->symbol);
        expr(f->set.get());
        stmt(f->body.get());
        break;
      }
      case StmtKind::Repeat: {
        auto* r = static_cast<const RepeatStmt*>(s);
        stmts(r->body);
        expr(r->cond.get());
        break;
      }
      case StmtKind::Block:
        stmts(static_cast<const BlockStmt*>(s)->body);
        break;
      default:
        break;  // break, continue, exit
    }
  }

  void stmts(const std::vector<StmtPtr>& list) {
    for (auto& s : list) stmt(s.get());
  }

  void expr(const Expr* e) {
    if (!e) return;
    switch (e->kind) {
      case ExprKind::Name:
        name(*static_cast<const NameExpr*>(e));
        break;
      case ExprKind::Call: {
        auto* c = static_cast<const CallExpr*>(e);
        call(*c);
        for (auto& a : c->args) expr(a.get());
        break;
      }
      case ExprKind::Unary:
        expr(static_cast<const UnaryExpr*>(e)->operand.get());
        break;
      case ExprKind::Binary: {
        auto* b = static_cast<const BinaryExpr*>(e);
        expr(b->lhs.get());
        expr(b->rhs.get());
        break;
      }
      default:
        break;  // literals
    }
  }

 protected:
  // The hooks: a for or forall loop's variable, a name, a call (before its arguments).
  virtual void loopVariable(SourceLoc, const std::string&, const Symbol*) {}
  virtual void name(const NameExpr&) {}
  virtual void call(const CallExpr&) {}
};

}  // namespace star
