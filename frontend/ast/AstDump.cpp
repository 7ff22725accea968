#include <ostream>
#include <string>

#include "frontend/ast/Ast.h"

namespace star {

const char* opSpelling(UnaryOp op) {
  switch (op) {
    case UnaryOp::Not: return "not";
    case UnaryOp::Neg: return "-";
    case UnaryOp::Plus: return "+";
  }
  return "?";
}

const char* opSpelling(BinaryOp op) {
  switch (op) {
    case BinaryOp::Mul: return "*";
    case BinaryOp::RealDiv: return "/";
    case BinaryOp::Div: return "div";
    case BinaryOp::Mod: return "mod";
    case BinaryOp::And: return "and";
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Or: return "or";
    case BinaryOp::Xor: return "xor";
    case BinaryOp::Eq: return "=";
    case BinaryOp::Ne: return "<>";
    case BinaryOp::Lt: return "<";
    case BinaryOp::Le: return "<=";
    case BinaryOp::Gt: return ">";
    case BinaryOp::Ge: return ">=";
  }
  return "?";
}

namespace {

// An indented tree, one node per line: `Kind detail <line:col>`.
class Dumper {
 public:
  explicit Dumper(std::ostream& out) : out_(out) {}

  void program(const Program& p) {
    line(p.body ? "Program " + p.name : "Unit " + p.name, p.loc);
    ++depth_;
    for (auto& [name, loc] : p.uses) line("Uses " + name, loc);
    decls(p.decls);
    for (auto& r : p.routines) routine(*r);
    if (p.body) stmt(p.body.get());
    --depth_;
  }

 private:
  void line(const std::string& text, SourceLoc loc) {
    out_ << std::string(depth_ * 2, ' ') << text << " <" << loc.line << ':' << loc.col << ">\n";
  }
  static std::string typeText(const TypeSpec& t) {
    std::string s = typeName(t.type);
    if (t.size1) s += t.size2 ? "(2 sizes)" : "(sized)";
    return s;
  }
  void typeSizes(const TypeSpec& t) {
    ++depth_;
    if (t.size1) expr(t.size1.get());
    if (t.size2) expr(t.size2.get());
    --depth_;
  }
  void decls(const DeclList& d) {
    for (auto& c : d.consts) {
      line("Const " + c.name, c.loc);
      ++depth_;
      expr(c.value.get());
      --depth_;
    }
    for (auto& v : d.vars) {
      line("Var " + v.name + ": " + typeText(*v.spec), v.loc);
      typeSizes(*v.spec);
    }
  }
  void routine(const Routine& r) {
    std::string head = (r.isFunc ? "Func " : "Proc ") + r.name;
    if (r.result) head += ": " + std::string(typeName(r.result->type));
    line(head, r.loc);
    ++depth_;
    for (auto& p : r.params)
      line(std::string("Param ") + (p.byRef ? "var " : "") + p.name + ": " + typeName(p.spec->type), p.loc);
    decls(r.decls);
    stmt(r.body.get());
    --depth_;
  }
  void child(const Stmt* s, const char* label) {
    if (!s) return;
    line(label, s->loc);
    ++depth_;
    stmt(s);
    --depth_;
  }
  void stmt(const Stmt* s) {
    if (!s) return;
    switch (s->kind) {
      case StmtKind::Assign: {
        auto* a = static_cast<const AssignStmt*>(s);
        line("Assign", s->loc);
        ++depth_;
        expr(a->target.get());
        expr(a->value.get());
        --depth_;
        break;
      }
      case StmtKind::Call:
        line("CallStmt", s->loc);
        ++depth_;
        expr(static_cast<const CallStmt*>(s)->call.get());
        --depth_;
        break;
      case StmtKind::If: {
        auto* i = static_cast<const IfStmt*>(s);
        line("If", s->loc);
        ++depth_;
        expr(i->cond.get());
        child(i->thenS.get(), "Then");
        child(i->elseS.get(), "Else");
        --depth_;
        break;
      }
      case StmtKind::While: {
        auto* w = static_cast<const WhileStmt*>(s);
        line("While", s->loc);
        ++depth_;
        expr(w->cond.get());
        stmt(w->body.get());
        --depth_;
        break;
      }
      case StmtKind::For: {
        auto* f = static_cast<const ForStmt*>(s);
        line(std::string("For ") + f->var + (f->down ? " downto" : " to"), s->loc);
        ++depth_;
        expr(f->from.get());
        expr(f->to.get());
        stmt(f->body.get());
        --depth_;
        break;
      }
      case StmtKind::Forall: {
        auto* f = static_cast<const ForallStmt*>(s);
        line("Forall " + f->var, s->loc);
        ++depth_;
        expr(f->set.get());
        stmt(f->body.get());
        --depth_;
        break;
      }
      case StmtKind::Repeat: {
        auto* r = static_cast<const RepeatStmt*>(s);
        line("Repeat", s->loc);
        ++depth_;
        for (auto& b : r->body) stmt(b.get());
        line("Until", r->cond->loc);
        ++depth_;
        expr(r->cond.get());
        depth_ -= 2;
        break;
      }
      case StmtKind::Block:
        line("Block", s->loc);
        ++depth_;
        for (auto& b : static_cast<const BlockStmt*>(s)->body) stmt(b.get());
        --depth_;
        break;
      case StmtKind::Break: line("Break", s->loc); break;
      case StmtKind::Continue: line("Continue", s->loc); break;
      case StmtKind::Exit: line("Exit", s->loc); break;
    }
  }
  void expr(const Expr* e) {
    switch (e->kind) {
      case ExprKind::IntLit: line("Int " + std::to_string(static_cast<const IntLit*>(e)->value), e->loc); break;
      case ExprKind::RealLit: line("Real " + std::to_string(static_cast<const RealLit*>(e)->value), e->loc); break;
      case ExprKind::BoolLit: line(static_cast<const BoolLit*>(e)->value ? "Bool true" : "Bool false", e->loc); break;
      case ExprKind::StringLit: line("String '" + static_cast<const StringLit*>(e)->value + "'", e->loc); break;
      case ExprKind::BitsLit: line("Bits %" + static_cast<const BitsLit*>(e)->bits, e->loc); break;
      case ExprKind::Name: line("Name " + static_cast<const NameExpr*>(e)->name, e->loc); break;
      case ExprKind::Call: {
        auto* c = static_cast<const CallExpr*>(e);
        line("Call " + c->name, e->loc);
        ++depth_;
        for (auto& a : c->args) expr(a.get());
        --depth_;
        break;
      }
      case ExprKind::Unary: {
        auto* u = static_cast<const UnaryExpr*>(e);
        line(std::string("Unary ") + opSpelling(u->op), e->loc);
        ++depth_;
        expr(u->operand.get());
        --depth_;
        break;
      }
      case ExprKind::Binary: {
        auto* b = static_cast<const BinaryExpr*>(e);
        line(std::string("Binary ") + opSpelling(b->op), e->loc);
        ++depth_;
        expr(b->lhs.get());
        expr(b->rhs.get());
        --depth_;
        break;
      }
    }
  }

  std::ostream& out_;
  int depth_ = 0;
};

}  // namespace

void dumpAst(const Program& program, std::ostream& out) { Dumper(out).program(program); }

}  // namespace star
