#include "frontend/parse/AstBuilder.h"

#include <cerrno>
#include <cstdlib>
#include <limits>

namespace star {

using P = StarParser;

SourceLoc AstBuilder::loc(antlr4::Token* t) const {
  return {file_, static_cast<std::uint32_t>(t->getLine()),
          static_cast<std::uint32_t>(t->getCharPositionInLine() + 1)};
}

// `NAME; uses ...;`: the start of a program or a unit.
template <typename Context>
std::unique_ptr<Program> AstBuilder::headOnly(Context* ctx) {
  auto p = std::make_unique<Program>();
  p->name = ident(ctx->ident());
  p->loc = loc(ctx->ident());
  if (auto* u = ctx->usesClause())
    for (auto* id : u->ident()) p->uses.emplace_back(ident(id), loc(id));
  return p;
}

// The part a program and a unit share: `NAME; uses ...; declarations`.
template <typename Context>
std::unique_ptr<Program> AstBuilder::header(Context* ctx) {
  auto p = headOnly(ctx);
  for (auto* d : ctx->declaration()) declaration(d, *p);
  return p;
}

std::unique_ptr<Program> AstBuilder::programHead(P::ProgramHeadContext* ctx) { return headOnly(ctx); }
std::unique_ptr<Program> AstBuilder::unitHead(P::UnitHeadContext* ctx) { return headOnly(ctx); }

std::unique_ptr<Program> AstBuilder::program(P::ProgramContext* ctx) {
  auto p = header(ctx);
  p->body = block(ctx->compoundStmt());
  return p;
}

std::unique_ptr<Program> AstBuilder::unit(P::UnitFileContext* ctx) { return header(ctx); }

std::unique_ptr<Program> AstBuilder::replInput(P::ReplInputContext* ctx) {
  auto p = std::make_unique<Program>();
  p->name = "repl";
  p->loc = loc(ctx);
  p->body = std::make_unique<BlockStmt>(loc(ctx));
  for (auto* child : ctx->children) {
    if (auto* d = dynamic_cast<P::DeclarationContext*>(child)) {
      declaration(d, *p);
    } else if (auto* s = dynamic_cast<P::StatementContext*>(child)) {
      if (auto st = statement(s)) p->body->body.push_back(std::move(st));
    }
  }
  return p;
}

std::unique_ptr<Program> AstBuilder::replExpr(P::ReplExprContext* ctx) {
  auto p = std::make_unique<Program>();
  p->name = "repl";
  p->loc = loc(ctx);
  p->value = expr(ctx->expr());
  return p;
}

void AstBuilder::declaration(P::DeclarationContext* ctx, Program& p) {
  if (auto* c = ctx->constSection()) constSection(c, p.decls);
  else if (auto* v = ctx->varSection()) varSection(v, p.decls);
  else p.routines.push_back(routine(ctx->procDecl(), ctx->funcDecl()));
}

void AstBuilder::constSection(P::ConstSectionContext* ctx, DeclList& decls) {
  for (auto* def : ctx->constDef()) {
    ConstDecl c;
    c.name = ident(def->ident());
    c.loc = loc(def->ident());
    c.value = expr(def->expr());
    decls.consts.push_back(std::move(c));
  }
}

void AstBuilder::varSection(P::VarSectionContext* ctx, DeclList& decls) {
  for (auto* def : ctx->varDef()) {
    decls.specs.push_back(typeSpec(def->typeSpec()));
    for (auto* id : def->identList()->ident()) {
      VarDecl v;
      v.name = ident(id);
      v.loc = loc(id);
      v.spec = decls.specs.back().get();
      decls.vars.push_back(std::move(v));
    }
  }
}

std::unique_ptr<TypeSpec> AstBuilder::typeSpec(P::TypeSpecContext* ctx) {
  auto t = std::make_unique<TypeSpec>();
  t->loc = loc(ctx);
  if (dynamic_cast<P::IntTypeContext*>(ctx)) t->type = Type::Integer;
  else if (dynamic_cast<P::BoolTypeContext*>(ctx)) t->type = Type::Boolean;
  else if (dynamic_cast<P::StringTypeContext*>(ctx)) t->type = Type::String;
  else if (dynamic_cast<P::RealTypeContext*>(ctx)) t->type = Type::Real;
  else if (auto* s = dynamic_cast<P::SliceTypeContext*>(ctx)) {
    t->type = Type::Slice;
    if (s->expr()) t->size1 = expr(s->expr());
  } else if (auto* w = dynamic_cast<P::WordTypeContext*>(ctx)) {
    t->type = Type::Word;
    if (w->expr()) t->size1 = expr(w->expr());
  } else if (auto* tb = dynamic_cast<P::TableTypeContext*>(ctx)) {
    t->type = Type::Table;
    if (tb->expr().size() == 2) {
      t->size1 = expr(tb->expr(0));
      t->size2 = expr(tb->expr(1));
    }
  }
  return t;
}

std::unique_ptr<Routine> AstBuilder::routine(P::ProcDeclContext* proc, P::FuncDeclContext* func) {
  auto r = proc ? routineHead(proc->procHead(), nullptr) : routineHead(nullptr, func->funcHead());
  r->body = block(proc ? proc->compoundStmt() : func->compoundStmt());
  r->endLoc = loc(proc ? proc->SEMI()->getSymbol() : func->SEMI()->getSymbol());
  return r;
}

std::unique_ptr<Routine> AstBuilder::routineHead(P::ProcHeadContext* proc, P::FuncHeadContext* func) {
  auto r = std::make_unique<Routine>();
  r->moduleFile = file_;
  P::IdentContext* name = proc ? proc->ident() : func->ident();
  P::FormalParamsContext* formals = proc ? proc->formalParams() : func->formalParams();
  auto locals = proc ? proc->localDecl() : func->localDecl();
  r->name = ident(name);
  r->loc = loc(name);
  r->keywordLoc = proc ? loc(proc) : loc(func);
  r->isFunc = func != nullptr;
  if (func) r->result = typeSpec(func->typeSpec());
  if (formals) {
    for (auto* g : formals->paramGroup()) {
      r->paramSpecs.push_back(typeSpec(g->typeSpec()));
      for (auto* id : g->identList()->ident()) {
        Param prm;
        prm.name = ident(id);
        prm.loc = loc(id);
        prm.byRef = g->VAR() != nullptr;
        prm.spec = r->paramSpecs.back().get();
        r->params.push_back(std::move(prm));
      }
    }
  }
  for (auto* d : locals) {
    if (auto* c = d->constSection()) constSection(c, r->decls);
    else varSection(d->varSection(), r->decls);
  }
  if (proc && proc->nativeClause()) {
    std::string raw = proc->nativeClause()->STRING_LIT()->getText();
    r->nativeName = raw.substr(1, raw.size() - 2);
  }
  return r;
}

std::unique_ptr<BlockStmt> AstBuilder::block(P::CompoundStmtContext* ctx) {
  auto b = std::make_unique<BlockStmt>(loc(ctx));
  stmtList(ctx->stmtList(), b->body);
  return b;
}

void AstBuilder::stmtList(P::StmtListContext* ctx, std::vector<StmtPtr>& out) {
  for (auto* s : ctx->statement())
    if (auto st = statement(s)) out.push_back(std::move(st));
}

StmtPtr AstBuilder::statement(P::StatementContext* ctx) {
  if (!ctx) return nullptr;
  SourceLoc l = loc(ctx);
  if (auto* a = dynamic_cast<P::AssignStmtContext*>(ctx)) {
    auto s = std::make_unique<AssignStmt>(loc(a->ASSIGN()->getSymbol()), designator(a->designator()),
                                          expr(a->expr()));
    return s;
  }
  if (auto* c = dynamic_cast<P::CallStmtContext*>(ctx))
    return std::make_unique<CallStmt>(l, designator(c->designator()));
  if (auto* i = dynamic_cast<P::IfStmtContext*>(ctx)) {
    auto s = std::make_unique<IfStmt>(l);
    s->cond = expr(i->expr());
    s->thenS = statement(i->thenS);
    s->elseS = statement(i->elseS);
    return s;
  }
  if (auto* w = dynamic_cast<P::WhileStmtContext*>(ctx)) {
    auto s = std::make_unique<WhileStmt>(l);
    s->cond = expr(w->expr());
    s->body = statement(w->statement());
    return s;
  }
  if (auto* f = dynamic_cast<P::ForStmtContext*>(ctx)) {
    auto s = std::make_unique<ForStmt>(l);
    s->var = ident(f->ident());
    s->varLoc = loc(f->ident());
    s->from = expr(f->from);
    s->to = expr(f->to);
    s->down = f->dir->getType() == StarParser::DOWNTO;
    s->body = statement(f->statement());
    return s;
  }
  if (auto* f = dynamic_cast<P::ForallStmtContext*>(ctx)) {
    auto s = std::make_unique<ForallStmt>(l);
    s->var = ident(f->ident());
    s->varLoc = loc(f->ident());
    s->set = expr(f->expr());
    s->body = statement(f->statement());
    return s;
  }
  if (auto* r = dynamic_cast<P::RepeatStmtContext*>(ctx)) {
    auto s = std::make_unique<RepeatStmt>(l);
    stmtList(r->stmtList(), s->body);
    s->cond = expr(r->expr());
    return s;
  }
  if (auto* b = dynamic_cast<P::BlockStmtContext*>(ctx)) return block(b->compoundStmt());
  if (dynamic_cast<P::BreakStmtContext*>(ctx)) return std::make_unique<JumpStmt>(StmtKind::Break, l);
  if (dynamic_cast<P::ContinueStmtContext*>(ctx))
    return std::make_unique<JumpStmt>(StmtKind::Continue, l);
  if (dynamic_cast<P::ExitStmtContext*>(ctx)) return std::make_unique<JumpStmt>(StmtKind::Exit, l);
  return nullptr;
}

ExprPtr AstBuilder::designator(P::DesignatorContext* ctx) {
  std::string name = ident(ctx->ident());
  if (!ctx->LPAREN()) return std::make_unique<NameExpr>(loc(ctx), name);
  auto call = std::make_unique<CallExpr>(loc(ctx), name);
  if (auto* list = ctx->exprList())
    for (auto* e : list->expr()) call->args.push_back(expr(e));
  return call;
}

static BinaryOp binaryOp(antlr4::Token* t) {
  switch (t->getType()) {
    case P::STAR: return BinaryOp::Mul;
    case P::SLASH: return BinaryOp::RealDiv;
    case P::DIV: return BinaryOp::Div;
    case P::MOD: return BinaryOp::Mod;
    case P::AND: return BinaryOp::And;
    case P::PLUS: return BinaryOp::Add;
    case P::MINUS: return BinaryOp::Sub;
    case P::OR: return BinaryOp::Or;
    case P::XOR: return BinaryOp::Xor;
    case P::EQ: return BinaryOp::Eq;
    case P::NE: return BinaryOp::Ne;
    case P::LT: return BinaryOp::Lt;
    case P::LE: return BinaryOp::Le;
    case P::GT: return BinaryOp::Gt;
    default: return BinaryOp::Ge;
  }
}

ExprPtr AstBuilder::expr(P::ExprContext* ctx) {
  SourceLoc l = loc(ctx);
  if (auto* n = dynamic_cast<P::NotExprContext*>(ctx))
    return std::make_unique<UnaryExpr>(l, UnaryOp::Not, expr(n->expr()));
  if (auto* s = dynamic_cast<P::SignExprContext*>(ctx)) {
    auto op = s->op->getType() == P::MINUS ? UnaryOp::Neg : UnaryOp::Plus;
    // Fold `-<integer literal>` so that -9223372036854775808 is representable.
    if (op == UnaryOp::Neg)
      if (auto* lit = dynamic_cast<P::IntLitContext*>(s->expr())) {
        std::string digits = lit->getText();
        errno = 0;
        unsigned long long v = std::strtoull(digits.c_str(), nullptr, 10);
        if (errno == 0 && v <= 9223372036854775808ull)
          return std::make_unique<IntLit>(l, v == 9223372036854775808ull
                                                 ? std::numeric_limits<std::int64_t>::min()
                                                 : -static_cast<std::int64_t>(v));
      }
    return std::make_unique<UnaryExpr>(l, op, expr(s->expr()));
  }
  if (auto* m = dynamic_cast<P::MulExprContext*>(ctx))
    return std::make_unique<BinaryExpr>(loc(m->op), binaryOp(m->op), expr(m->expr(0)), expr(m->expr(1)));
  if (auto* a = dynamic_cast<P::AddExprContext*>(ctx))
    return std::make_unique<BinaryExpr>(loc(a->op), binaryOp(a->op), expr(a->expr(0)), expr(a->expr(1)));
  if (auto* r = dynamic_cast<P::RelExprContext*>(ctx))
    return std::make_unique<BinaryExpr>(loc(r->op), binaryOp(r->op), expr(r->expr(0)), expr(r->expr(1)));
  if (auto* p = dynamic_cast<P::ParenExprContext*>(ctx)) return expr(p->expr());
  if (auto* n = dynamic_cast<P::NameExprContext*>(ctx)) return designator(n->designator());
  if (auto* i = dynamic_cast<P::IntLitContext*>(ctx)) {
    std::string digits = i->getText();
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(digits.c_str(), &end, 10);
    if (errno == ERANGE) {
      errors_.emplace_back(l, "integer literal " + (digits.size() > 40 ? digits.substr(0, 40) + "..." : digits) +
                          " does not fit in 64 bits");
      v = 0;
    }
    return std::make_unique<IntLit>(l, v);
  }
  if (auto* r = dynamic_cast<P::RealLitContext*>(ctx))
    return std::make_unique<RealLit>(l, std::strtod(r->getText().c_str(), nullptr));
  if (auto* b = dynamic_cast<P::BitsLitContext*>(ctx))
    return std::make_unique<BitsLit>(l, b->getText().substr(1));
  if (auto* s = dynamic_cast<P::StringLitContext*>(ctx)) {
    std::string raw = s->getText();
    std::string value;
    for (std::size_t k = 1; k + 1 < raw.size(); ++k) {
      value += raw[k];
      if (raw[k] == '\'') ++k;  // '' is one quote
    }
    return std::make_unique<StringLit>(l, value);
  }
  auto* b = dynamic_cast<P::BoolLitContext*>(ctx);
  return std::make_unique<BoolLit>(l, b && b->TRUE() != nullptr);
}

}  // namespace star
