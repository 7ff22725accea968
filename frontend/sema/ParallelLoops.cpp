#include "frontend/sema/ParallelLoops.h"

#include <map>
#include <optional>
#include <set>

#include "frontend/sema/Builtins.h"

namespace star {

const char* parallelFormName(ParallelForm f) {
  switch (f) {
    case ParallelForm::None: return "sequential";
    case ParallelForm::Forall: return "forall";
    case ParallelForm::StepWhile: return "i := STEP(x); while i > 0 do ...; i := STEP(x)";
    case ParallelForm::SomeStep: return "while SOME(X) do i := STEP(X); ...";
    case ParallelForm::ForIf: return "for i := a to b do if X(i) = 1 then ...";
  }
  return "?";
}

namespace {

std::string where(SourceLoc l) { return "line " + std::to_string(l.line) + ":" + std::to_string(l.col); }

// How a statement or expression touches a variable.
enum class Use : std::uint8_t {
  Read,        // its whole value
  Write,       // its whole value
  ReadShape,   // ROWS, COLS, LEN: the shape only
  ReadCol, WriteCol, ReadRow, WriteRow, ReadComp, WriteComp,
};

struct Access {
  Symbol* sym;
  Use use;
  bool atIndex;    // COL(i, ..), ROW(i, ..), Y(i) with i the loop's index
  bool assigned;   // the variable was definitely assigned earlier in this iteration
  SourceLoc loc;
};

bool isNameOf(const Expr* e, const Symbol* s) {
  return e && s && e->kind == ExprKind::Name && static_cast<const NameExpr*>(e)->symbol == s;
}

// One body, walked in order: its accesses, and the first thing that rules it out.
class BodyScan {
 public:
  BodyScan(const Symbol* index) : index_(index) {}

  std::vector<Access> accesses;
  std::string unsupported;  // why the body cannot run in parallel at all (a call, a loop, I/O)
  SourceLoc unsupportedAt;

  void stmt(const Stmt* s) {
    if (!s) return;
    switch (s->kind) {
      case StmtKind::Assign: assign(static_cast<const AssignStmt&>(*s)); break;
      case StmtKind::Call: call(static_cast<const CallStmt&>(*s)); break;
      case StmtKind::If: {
        auto& i = static_cast<const IfStmt&>(*s);
        expr(i.cond.get());
        std::set<const Symbol*> before = assigned_;
        stmt(i.thenS.get());
        std::set<const Symbol*> afterThen = assigned_;
        assigned_ = before;
        stmt(i.elseS.get());
        std::set<const Symbol*> both;
        for (const Symbol* x : afterThen)
          if (assigned_.count(x)) both.insert(x);
        assigned_ = both;  // assigned on both paths
        break;
      }
      case StmtKind::Block:
        for (auto& b : static_cast<const BlockStmt&>(*s).body) stmt(b.get());
        break;
      case StmtKind::While: unsupport(s->loc, "contains a 'while' loop"); break;
      case StmtKind::For: unsupport(s->loc, "contains a 'for' loop"); break;
      case StmtKind::Repeat: unsupport(s->loc, "contains a 'repeat' loop"); break;
      case StmtKind::Forall: unsupport(s->loc, "contains a 'forall' loop"); break;
      case StmtKind::Break: unsupport(s->loc, "contains 'break'"); break;
      case StmtKind::Continue: unsupport(s->loc, "contains 'continue'"); break;
      case StmtKind::Exit: unsupport(s->loc, "contains 'exit'"); break;
    }
  }

 private:
  void unsupport(SourceLoc l, const std::string& why) {
    if (unsupported.empty()) {
      unsupported = why;
      unsupportedAt = l;
    }
  }
  void add(Symbol* s, Use u, SourceLoc l, bool atIndex = false) {
    if (!s || s->kind == SymbolKind::Const) return;
    accesses.push_back({s, u, atIndex, assigned_.count(s) != 0, l});
    if (u == Use::Write) assigned_.insert(s);
  }

  void assign(const AssignStmt& a) {
    expr(a.value.get());
    const Expr* t = a.target.get();
    if (t->kind == ExprKind::Name) {
      add(static_cast<const NameExpr*>(t)->symbol, Use::Write, t->loc);
      return;
    }
    auto& c = static_cast<const CallExpr&>(*t);
    if (c.target == CallTarget::Component) {
      expr(c.args[0].get());
      add(c.symbol, Use::WriteComp, t->loc, isNameOf(c.args[0].get(), index_));
      return;
    }
    // COL(e, T) := v, ROW(e, T) := v
    expr(c.args[0].get());
    auto b = static_cast<Builtin>(c.builtin);
    Symbol* table = c.args[1]->kind == ExprKind::Name ? static_cast<NameExpr*>(c.args[1].get())->symbol : nullptr;
    add(table, b == Builtin::Col ? Use::WriteCol : Use::WriteRow, t->loc, isNameOf(c.args[0].get(), index_));
  }

  void call(const CallStmt& c) {
    const Expr* e = c.call.get();
    if (e->kind == ExprKind::Name) {
      auto* n = static_cast<const NameExpr*>(e);
      if (n->routine) unsupport(e->loc, "calls '" + n->routine->name + "' (calls are not parallelised)");
      else unsupport(e->loc, "writes output");
      return;
    }
    auto& call = static_cast<const CallExpr&>(*e);
    if (call.target == CallTarget::Routine) {
      unsupport(e->loc, "calls '" + call.routine->name + "' (calls are not parallelised)");
      for (auto& a : call.args) expr(a.get());
      return;
    }
    auto b = static_cast<Builtin>(call.builtin);
    auto var = [&](int k) {
      const Expr* a = call.args[static_cast<std::size_t>(k)].get();
      return a->kind == ExprKind::Name ? static_cast<const NameExpr*>(a)->symbol : nullptr;
    };
    switch (b) {
      case Builtin::Set:
      case Builtin::Clr:
        add(var(0), Use::Write, e->loc);  // every component: a whole write
        return;
      case Builtin::Rep:
        for (int k = 0; k < 3; ++k) expr(call.args[static_cast<std::size_t>(k)].get());
        add(var(3), Use::Read, e->loc);  // part of w changes: the rest is read
        add(var(3), Use::Write, e->loc);
        return;
      case Builtin::Step:
        add(var(0), Use::Read, e->loc);
        add(var(0), Use::Write, e->loc);
        return;
      case Builtin::Error:
        expr(call.args[0].get());
        return;
      case Builtin::Write:
      case Builtin::Writeln:
        unsupport(e->loc, "writes output");
        return;
      default:
        unsupport(e->loc, "calls " + builtinInfo(b).name + ", which reads or writes a file");
        return;
    }
  }

  void expr(const Expr* e) {
    if (!e) return;
    switch (e->kind) {
      case ExprKind::Name: {
        auto* n = static_cast<const NameExpr*>(e);
        if (n->routine) unsupport(e->loc, "calls '" + n->routine->name + "' (calls are not parallelised)");
        else add(n->symbol, Use::Read, e->loc);
        return;
      }
      case ExprKind::Unary: expr(static_cast<const UnaryExpr*>(e)->operand.get()); return;
      case ExprKind::Binary: {
        auto* b = static_cast<const BinaryExpr*>(e);
        expr(b->lhs.get());
        expr(b->rhs.get());
        return;
      }
      case ExprKind::Call: {
        auto& c = static_cast<const CallExpr&>(*e);
        if (c.target == CallTarget::Routine) {
          unsupport(e->loc, "calls '" + c.routine->name + "' (calls are not parallelised)");
          for (auto& a : c.args) expr(a.get());
          return;
        }
        if (c.target == CallTarget::Component) {
          expr(c.args[0].get());
          add(c.symbol, Use::ReadComp, e->loc, isNameOf(c.args[0].get(), index_));
          return;
        }
        auto b = static_cast<Builtin>(c.builtin);
        auto sym = [&](std::size_t k) {
          const Expr* a = c.args[k].get();
          return a->kind == ExprKind::Name ? static_cast<const NameExpr*>(a)->symbol : nullptr;
        };
        if (b == Builtin::Col || b == Builtin::Row) {
          expr(c.args[0].get());
          if (Symbol* t = sym(1))
            add(t, b == Builtin::Col ? Use::ReadCol : Use::ReadRow, e->loc, isNameOf(c.args[0].get(), index_));
          else
            expr(c.args[1].get());
          return;
        }
        if (b == Builtin::Rows || b == Builtin::Cols || b == Builtin::Len) {
          if (Symbol* t = sym(0)) add(t, Use::ReadShape, e->loc);
          else expr(c.args[0].get());
          return;
        }
        if (b == Builtin::Step) {
          add(sym(0), Use::Read, e->loc);
          add(sym(0), Use::Write, e->loc);
          return;
        }
        for (auto& a : c.args) expr(a.get());
        return;
      }
      default:
        return;
    }
  }

  const Symbol* index_;
  std::set<const Symbol*> assigned_;  // definitely assigned so far in this iteration
};

// Whether the accesses of a body make its iterations independent; the first reason they do not.
std::optional<std::string> dependence(const std::vector<Access>& accesses, const Symbol* index,
                                      const Symbol* consumedSelector) {
  std::map<Symbol*, std::vector<const Access*>> bySymbol;
  for (auto& a : accesses) bySymbol[a.sym].push_back(&a);
  for (auto& [sym, list] : bySymbol) {
    const std::string name = "'" + sym->name + "'";
    if (sym == consumedSelector)
      return name + " is used in the body, but STEP changes it every iteration: " + where(list[0]->loc);
    const Access* wholeWrite = nullptr;
    const Access* partialWrite = nullptr;
    for (const Access* a : list) {
      if (a->use == Use::Write && !wholeWrite) wholeWrite = a;
      bool partial = a->use == Use::WriteCol || a->use == Use::WriteRow || a->use == Use::WriteComp;
      if (partial && !a->assigned && !partialWrite) partialWrite = a;
    }
    if (!wholeWrite && !partialWrite) continue;  // only read: the same in every iteration
    if (sym == index)
      return "the loop variable " + name + " is assigned in the body: " + where((wholeWrite ? wholeWrite : partialWrite)->loc);
    if (wholeWrite) {
      // Local to the iteration: assigned before any use, on every path.
      if (sym->type == Type::Table)
        return "table " + name + " is assigned as a whole in the body: " + where(wholeWrite->loc);
      if (sym->byRef && isScalar(sym->type))
        return name + " is a var parameter assigned in the body: " + where(wholeWrite->loc);
      for (const Access* a : list)
        if (!a->assigned && a->use != Use::Write)
          return name + " is written in one iteration and read in another: " + where(wholeWrite->loc) +
                 ", " + where(a->loc);
      if (partialWrite)
        return name + " is written in one iteration and read in another: " + where(wholeWrite->loc) +
               ", " + where(partialWrite->loc);
      continue;
    }
    // Written at locations selected by the index: every write and read the same way, at i.
    for (const Access* a : list)  // the reference: a write at i, if there is one
      if ((a->use == Use::WriteCol || a->use == Use::WriteRow || a->use == Use::WriteComp) && !a->assigned &&
          a->atIndex) {
        partialWrite = a;
        break;
      }
    Use writeUse = partialWrite->use;
    Use readUse = writeUse == Use::WriteCol ? Use::ReadCol : writeUse == Use::WriteRow ? Use::ReadRow : Use::ReadComp;
    const char* accessor = writeUse == Use::WriteCol ? "COL" : writeUse == Use::WriteRow ? "ROW" : "a component";
    if (!partialWrite->atIndex)
      return name + " is written by " + accessor + " at a place other than the iteration's own i: " +
             where(partialWrite->loc);
    for (const Access* a : list) {
      if (a->use == Use::ReadShape) continue;
      bool write = a->use == Use::WriteCol || a->use == Use::WriteRow || a->use == Use::WriteComp;
      if (write && (a->use != writeUse || !a->atIndex))
        return name + " is written by " + accessor + " at i and also elsewhere: " + where(partialWrite->loc) +
               ", " + where(a->loc);
      if (!write && (a->use != readUse || !a->atIndex))
        return name + " is written in one iteration and read in another: " + where(partialWrite->loc) +
               ", " + where(a->loc);
    }
  }
  return std::nullopt;
}

// `i > 0`, `0 < i` or `i <> 0`: the loop runs while i is set.
bool testsIndexSet(const Expr* c, const Symbol*& index) {
  if (c->kind != ExprKind::Binary) return false;
  auto* b = static_cast<const BinaryExpr*>(c);
  auto isZero = [](const Expr* e) { return e->kind == ExprKind::IntLit && static_cast<const IntLit*>(e)->value == 0; };
  auto name = [](const Expr* e) -> const Symbol* {
    return e->kind == ExprKind::Name ? static_cast<const NameExpr*>(e)->symbol : nullptr;
  };
  if ((b->op == BinaryOp::Gt || b->op == BinaryOp::Ne) && isZero(b->rhs.get())) index = name(b->lhs.get());
  else if ((b->op == BinaryOp::Lt || b->op == BinaryOp::Ne) && isZero(b->lhs.get())) index = name(b->rhs.get());
  else return false;
  return index && index->type == Type::Integer;
}

// `i := STEP(x)`: index and selector.
bool isStepAssign(const Stmt* s, const Symbol*& index, const Symbol*& selector) {
  if (!s || s->kind != StmtKind::Assign) return false;
  auto& a = static_cast<const AssignStmt&>(*s);
  if (a.target->kind != ExprKind::Name || a.value->kind != ExprKind::Call) return false;
  auto& c = static_cast<const CallExpr&>(*a.value);
  if (c.target != CallTarget::Builtin || static_cast<Builtin>(c.builtin) != Builtin::Step) return false;
  if (c.args[0]->kind != ExprKind::Name) return false;
  index = static_cast<const NameExpr*>(a.target.get())->symbol;
  selector = static_cast<const NameExpr*>(c.args[0].get())->symbol;
  return index && selector;
}

std::vector<StmtPtr>* blockOf(StmtPtr& s) {
  return s && s->kind == StmtKind::Block ? &static_cast<BlockStmt&>(*s).body : nullptr;
}

}  // namespace

void ParallelLoops::analyse(Stmt* s, Stmt* previous) {
  if (!s) return;
  switch (s->kind) {
    case StmtKind::Block: block(static_cast<BlockStmt&>(*s).body); break;
    case StmtKind::If: {
      auto& i = static_cast<IfStmt&>(*s);
      analyse(i.thenS.get());
      analyse(i.elseS.get());
      break;
    }
    case StmtKind::While: case StmtKind::For: case StmtKind::Repeat: case StmtKind::Forall:
      loop(s, previous);
      break;
    default:
      break;
  }
}

void ParallelLoops::block(std::vector<StmtPtr>& body) {
  for (std::size_t k = 0; k < body.size(); ++k) {
    Stmt* s = body[k].get();
    if (!s) continue;
    if (s->kind == StmtKind::While || s->kind == StmtKind::For || s->kind == StmtKind::Repeat ||
        s->kind == StmtKind::Forall)
      loop(s, k ? body[k - 1].get() : nullptr);
    else
      analyse(s);
  }
}

void ParallelLoops::loop(Stmt* s, Stmt* previous) {
  switch (s->kind) {
    case StmtKind::Forall: {
      auto& f = static_cast<ForallStmt&>(*s);
      forall(f);
      report(*s, "forall", f.parallel);
      analyse(f.body.get());
      break;
    }
    case StmtKind::While: {
      auto& w = static_cast<WhileStmt&>(*s);
      if (!stepWhile(w, previous) && !someStep(w) && w.parallel.whyNot.empty())
        w.parallel.whyNot = "not one of the parallel idioms";
      report(*s, "while", w.parallel);
      analyse(w.body.get());
      break;
    }
    case StmtKind::For: {
      auto& f = static_cast<ForStmt&>(*s);
      if (!forIf(f) && f.parallel.whyNot.empty()) f.parallel.whyNot = "not one of the parallel idioms";
      report(*s, "for", f.parallel);
      analyse(f.body.get());
      break;
    }
    case StmtKind::Repeat: {
      LoopParallelism none;
      none.whyNot = "not one of the parallel idioms";
      report(*s, "repeat", none);
      for (auto& b : static_cast<RepeatStmt&>(*s).body) analyse(b.get());
      break;
    }
    default:
      break;
  }
}

void ParallelLoops::forall(ForallStmt& f) {
  if (!f.symbol) return;
  BodyScan scan(f.symbol);
  scan.stmt(f.body.get());
  if (!scan.unsupported.empty()) {
    diags_.error(scan.unsupportedAt, "a forall body cannot do this: it " + scan.unsupported);
    f.parallel.whyNot = scan.unsupported;
    return;
  }
  if (auto why = dependence(scan.accesses, f.symbol, nullptr)) {
    diags_.error(f.loc, "the iterations of this forall are not independent: " + *why);
    f.parallel.whyNot = *why;
    return;
  }
  // Accepted, but run sequentially: iterations cannot each have their own copy of a variable
  // that lives in the caller (as for the idioms).
  if (f.symbol->byRef) {
    f.parallel.whyNot = "the loop variable is a var parameter";
    return;
  }
  f.parallel.form = ParallelForm::Forall;
  f.parallel.index = f.symbol;
}

// i := STEP(x); while i > 0 do begin BODY; i := STEP(x) end
bool ParallelLoops::stepWhile(WhileStmt& w, Stmt* previous) {
  const Symbol* index = nullptr;
  if (!testsIndexSet(w.cond.get(), index)) return false;
  auto* body = blockOf(w.body);
  const Symbol *bodyIndex = nullptr, *bodySelector = nullptr;
  const Symbol *headIndex = nullptr, *headSelector = nullptr;
  if (!body || body->empty() || !isStepAssign(body->back().get(), bodyIndex, bodySelector) ||
      !isStepAssign(previous, headIndex, headSelector))
    return false;
  if (bodyIndex != index || headIndex != index || bodySelector != headSelector) return false;
  const Symbol* selector = headSelector;
  if (index->byRef) {
    w.parallel.whyNot = "the loop variable is a var parameter";
    return true;
  }
  BodyScan scan(index);
  for (std::size_t k = 0; k + 1 < body->size(); ++k) scan.stmt((*body)[k].get());
  if (!scan.unsupported.empty()) {
    w.parallel.whyNot = "the body " + scan.unsupported;
    return true;
  }
  if (auto why = dependence(scan.accesses, index, selector)) {
    w.parallel.whyNot = *why;
    return true;
  }
  w.parallel.form = ParallelForm::StepWhile;
  w.parallel.index = const_cast<Symbol*>(index);
  w.parallel.selector = const_cast<Symbol*>(selector);
  return true;
}

// while SOME(X) do begin i := STEP(X); BODY end
bool ParallelLoops::someStep(WhileStmt& w) {
  if (w.cond->kind != ExprKind::Call) return false;
  auto& c = static_cast<const CallExpr&>(*w.cond);
  if (c.target != CallTarget::Builtin || static_cast<Builtin>(c.builtin) != Builtin::Some ||
      c.args[0]->kind != ExprKind::Name)
    return false;
  const Symbol* selector = static_cast<const NameExpr*>(c.args[0].get())->symbol;
  auto* body = blockOf(w.body);
  const Symbol* index = nullptr;
  const Symbol* x = nullptr;
  if (!body || body->empty() || !isStepAssign(body->front().get(), index, x) || x != selector)
    return false;
  if (index->byRef) {
    w.parallel.whyNot = "the loop variable is a var parameter";
    return true;
  }
  BodyScan scan(index);
  for (std::size_t k = 1; k < body->size(); ++k) scan.stmt((*body)[k].get());
  if (!scan.unsupported.empty()) {
    w.parallel.whyNot = "the body " + scan.unsupported;
    return true;
  }
  if (auto why = dependence(scan.accesses, index, selector)) {
    w.parallel.whyNot = *why;
    return true;
  }
  w.parallel.form = ParallelForm::SomeStep;
  w.parallel.index = const_cast<Symbol*>(index);
  w.parallel.selector = const_cast<Symbol*>(selector);
  return true;
}

// for i := a to b do if X(i) = 1 then BODY
bool ParallelLoops::forIf(ForStmt& f) {
  Stmt* body = f.body.get();
  if (body && body->kind == StmtKind::Block && static_cast<BlockStmt*>(body)->body.size() == 1)
    body = static_cast<BlockStmt*>(body)->body[0].get();
  if (!body || body->kind != StmtKind::If || !f.symbol) return false;
  auto& i = static_cast<IfStmt&>(*body);
  if (i.elseS || i.cond->kind != ExprKind::Binary) return false;
  auto& c = static_cast<const BinaryExpr&>(*i.cond);
  const Expr* comp = nullptr;
  const Expr* other = nullptr;
  if (c.lhs->kind == ExprKind::Call) comp = c.lhs.get(), other = c.rhs.get();
  else comp = c.rhs.get(), other = c.lhs.get();
  if (comp->kind != ExprKind::Call || other->kind != ExprKind::IntLit) return false;
  auto& call = static_cast<const CallExpr&>(*comp);
  std::int64_t v = static_cast<const IntLit*>(other)->value;
  bool isOne = (c.op == BinaryOp::Eq && v == 1) || (c.op == BinaryOp::Ne && v == 0);
  if (!isOne || call.target != CallTarget::Component || !isNameOf(call.args[0].get(), f.symbol))
    return false;
  if (f.down) {
    f.parallel.whyNot = "it counts down ('downto')";
    return true;
  }
  if (f.symbol->byRef) {
    f.parallel.whyNot = "the loop variable is a var parameter";
    return true;
  }
  BodyScan scan(f.symbol);
  scan.stmt(i.thenS.get());
  if (!scan.unsupported.empty()) {
    f.parallel.whyNot = "the body " + scan.unsupported;
    return true;
  }
  auto accesses = scan.accesses;
  for (const Access& a : accesses)
    if (a.sym == call.symbol && a.use != Use::Read && a.use != Use::ReadComp && a.use != Use::ReadShape) {
      f.parallel.whyNot = "'" + call.symbol->name + "', which selects the iterations, is written in the body: " + where(a.loc);
      return true;
    }
  if (auto why = dependence(accesses, f.symbol, nullptr)) {
    f.parallel.whyNot = *why;
    return true;
  }
  f.parallel.form = ParallelForm::ForIf;
  f.parallel.index = f.symbol;
  f.parallel.selector = call.symbol;
  return true;
}

void ParallelLoops::report(const Stmt& s, const char* kind, const LoopParallelism& p) {
  reports_.push_back({s.loc, kind, p.form, p.form == ParallelForm::None ? p.whyNot : ""});
}

}  // namespace star
