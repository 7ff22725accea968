#include "frontend/sema/Checker.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include "core/NativeTable.h"
#include "core/NumericLayout.h"
#include "core/Spelling.h"
#include "frontend/sema/Builtins.h"
#include "frontend/sema/ParallelLoops.h"
#include "vm/semantics/ScalarOps.h"

namespace star {

std::string lowerCase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

const char* typeName(Type t) {
  switch (t) {
    case Type::Error: return "<error>";
    case Type::Void: return "no value";
    case Type::Integer: return "integer";
    case Type::Boolean: return "boolean";
    case Type::String: return "string";
    case Type::Real: return "real";
    case Type::Slice: return "slice";
    case Type::Word: return "word";
    case Type::Table: return "table";
  }
  return "?";
}

namespace {

// "an integer", "a slice": a type name with its indefinite article.
std::string article(Type t) {
  std::string name = typeName(t);
  return (t == Type::Integer ? "an " : "a ") + name;
}

std::string quote(const std::string& s) {
  return "'" + (s.size() > 60 ? s.substr(0, 60) + "..." : s) + "'";
}

std::string describeShape(Type t, const Shape& s) {
  if (t == Type::Table) return std::to_string(s.rows) + " x " + std::to_string(s.cols);
  return std::to_string(s.length);
}

}  // namespace

// ======================================================================= declarations

bool Checker::declare(Scope& scope, Symbol* sym) {
  std::string key = lowerCase(sym->name);
  auto it = scope.find(key);
  if (it != scope.end() && !options_.allowRedefinition) {
    diags_.error(sym->loc, "duplicate declaration of " + quote(sym->name));
    diags_.note(it->second->loc, "previous declaration is here");
    sym->used = true;  // not also "unused"
    return false;
  }
  if (&scope == &globals_ && routines_.count(key) && !options_.allowRedefinition) {
    diags_.error(sym->loc, quote(sym->name) + " is already declared as a procedure or function");
    return false;
  }
  if (&scope == &globals_ && options_.allowRedefinition) routines_.erase(key);
  scope[key] = sym;
  return true;
}

void Checker::declareConsts(DeclList& decls, std::vector<std::unique_ptr<Symbol>>& owner,
                            SymbolKind, Scope& scope) {
  for (auto& c : decls.consts) {
    auto sym = std::make_unique<Symbol>();
    sym->name = c.name;
    sym->loc = c.loc;
    sym->kind = SymbolKind::Const;
    sym->used = true;  // constants are not warned about
    Type t = expr(c.value.get());
    sym->type = t;
    sym->shape = c.value->shape;
    if (t != Type::Error && !foldConstant(c.value.get(), *sym))
      diags_.error(c.value->loc, "the value of constant " + quote(c.name) +
                                     " must be computable at compile time");
    c.symbol = sym.get();
    declare(scope, sym.get());
    owner.push_back(std::move(sym));
  }
}

void Checker::checkTypeSpec(TypeSpec& spec, Shape& shape, bool isParam) {
  if (isParam && (spec.size1 || spec.size2)) {
    diags_.error(spec.loc, "parameter types are unsized: write just '" +
                               std::string(typeName(spec.type)) + "'");
    return;
  }
  // `t` is the already-checked type of e (each size expression is checked once).
  auto sizeOf = [&](Expr* e, Type t, const char* what) -> std::int64_t {
    if (!e) return -1;
    if (t == Type::Error) return -1;
    if (t != Type::Integer) {
      diags_.error(e->loc, std::string("the ") + what + " must be an integer, not " + typeName(t));
      return -1;
    }
    auto v = foldInt(e);
    if (v && *v < 0) {
      diags_.error(e->loc, std::string("the ") + what + " must not be negative (it is " +
                               std::to_string(*v) + ")");
      return -1;
    }
    return v ? *v : -1;
  };
  switch (spec.type) {
    case Type::Slice:
      if (spec.size1) {
        Type t = expr(spec.size1.get());
        if (t == Type::Table) {
          shape.length = spec.size1->shape.rows;  // slice(P): one component per row of P
        } else {
          shape.length = sizeOf(spec.size1.get(), t, "length of a slice");
        }
      }
      break;
    case Type::Word:
      if (spec.size1) {
        Type t = expr(spec.size1.get());
        if (t == Type::Table) shape.length = spec.size1->shape.cols;  // word(P): a row of P
        else shape.length = sizeOf(spec.size1.get(), t, "length of a word");
      }
      break;
    case Type::Table:
      if (spec.size1) {
        shape.rows = sizeOf(spec.size1.get(), expr(spec.size1.get()), "number of rows");
        shape.cols = sizeOf(spec.size2.get(), expr(spec.size2.get()), "number of columns");
      }
      break;
    default:
      break;
  }
}

void Checker::declareVars(DeclList& decls, std::vector<std::unique_ptr<Symbol>>& owner,
                          SymbolKind kind, Scope& scope) {
  TypeSpec* lastSpec = nullptr;
  Shape lastShape;
  for (auto& v : decls.vars) {
    // `a, b: slice(P)` shares one spec: check its size expressions once.
    if (v.spec != lastSpec) {
      lastShape = Shape{};
      checkTypeSpec(*v.spec, lastShape, false);
      lastSpec = v.spec;
    }
    auto sym = std::make_unique<Symbol>();
    sym->name = v.name;
    sym->loc = v.loc;
    sym->kind = kind;
    sym->type = v.spec->type;
    sym->shape = lastShape;
    sym->sized = v.spec->size1 != nullptr;
    v.symbol = sym.get();
    declare(scope, sym.get());
    owner.push_back(std::move(sym));
  }
}

void Checker::declareRoutine(Routine& r) {
  std::string key = lowerCase(r.name);
  if (!options_.allowRedefinition) {
    if (auto it = routines_.find(key); it != routines_.end()) {
      diags_.error(r.loc, "duplicate declaration of " + quote(r.name));
      diags_.note(it->second->loc, "previous declaration is here");
      return;
    }
    if (auto it = globals_.find(key); it != globals_.end()) {
      diags_.error(r.loc, quote(r.name) + " is already declared as a variable or constant");
      diags_.note(it->second->loc, "previous declaration is here");
      return;
    }
  } else {
    globals_.erase(key);
  }
  routines_[key] = &r;
  Scope params;
  for (auto& p : r.params) {
    Shape ignored;
    checkTypeSpec(*p.spec, ignored, true);
    auto sym = std::make_unique<Symbol>();
    sym->name = p.name;
    sym->loc = p.loc;
    sym->kind = SymbolKind::Param;
    sym->type = p.spec->type;
    sym->byRef = p.byRef;
    sym->used = true;  // unused parameters are part of an interface; not warned about
    p.symbol = sym.get();
    if (params.count(lowerCase(p.name))) {
      diags_.error(p.loc, "duplicate parameter " + quote(p.name));
    }
    params[lowerCase(p.name)] = sym.get();
    r.symbols.push_back(std::move(sym));
  }
  if (r.result) {
    if (r.result->size1) diags_.error(r.result->loc, "a function's result type is unsized");
    if (r.result->type == Type::Table)
      diags_.error(r.result->loc, "a function cannot return a table; use a var parameter");
    auto sym = std::make_unique<Symbol>();
    sym->name = r.name;
    sym->loc = r.loc;
    sym->kind = SymbolKind::Local;
    sym->type = r.result->type;
    sym->used = true;
    r.resultSymbol = sym.get();
    r.symbols.push_back(std::move(sym));
  }
  if (!r.nativeName.empty()) checkNativeClause(r);
}

// `native 'name';` must name a native of core/Natives.def, on a procedure whose parameters are
// the ones the native's arguments are decoded as.
void Checker::checkNativeClause(const Routine& r) {
  int id = findNative(r.nativeName);
  if (id < 0) {
    diags_.error(r.loc, "unknown native procedure '" + r.nativeName + "' (known: " +
                            nativeNames() + ")");
    return;
  }
  const NativeInfo& info = nativeInfo(static_cast<NativeId>(id));
  auto typeOf = [](char k) {
    switch (k) {
      case 'I': return Type::Integer;
      case 'R': return Type::Real;
      case 'B': return Type::Boolean;
      case 'L': return Type::Slice;
      case 'W': return Type::Word;
      default: return Type::Table;
    }
  };
  bool same = !r.isFunc && r.params.size() == info.params.size();
  for (std::size_t i = 0; same && i < r.params.size(); ++i)
    same = r.params[i].spec->type == typeOf(info.params[i].kind) &&
           r.params[i].byRef == info.params[i].byRef;
  if (!same)
    diags_.error(r.loc, "native procedure '" + r.nativeName + "' is a procedure with the parameters (" +
                            info.describeParams() + ")");
}

void Checker::checkRoutineBody(Routine& r) {
  Scope scope;
  for (auto& p : r.params)
    if (p.symbol) scope[lowerCase(p.name)] = p.symbol;
  locals_ = &scope;
  current_ = &r;
  std::vector<std::unique_ptr<Symbol>> declared;
  declareConsts(r.decls, declared, SymbolKind::Const, scope);
  declareVars(r.decls, declared, SymbolKind::Local, scope);
  for (auto& s : declared) r.symbols.push_back(std::move(s));
  int errorsBefore = diags_.errorCount();
  stmt(r.body.get());
  if (diags_.errorCount() == errorsBefore) ParallelLoops(diags_, loopReports_).analyse(r.body.get());
  if (options_.warnResult) warnUnsetResult(r);
  if (options_.warnUnused) warnUnused(r.symbols);
  locals_ = nullptr;
  current_ = nullptr;
}

void Checker::warnUnused(const std::vector<std::unique_ptr<Symbol>>& symbols) {
  if (diags_.hasErrors()) return;  // with errors, unused-variable warnings are mostly noise
  for (auto& s : symbols)
    if (!s->used && (s->kind == SymbolKind::Local || s->kind == SymbolKind::Global))
      diags_.warning(s->loc, "variable " + quote(s->name) +
                                 (s->assigned ? " is assigned but never used" : " is declared but never used"));
}

// A function whose body never assigns its name returns its type's initial value: almost always a
// forgotten `F := ...` (Free Pascal: "function result does not seem to be set").
void Checker::warnUnsetResult(const Routine& r) {
  // With errors (a table result, say), the program does not run: the warning would be noise.
  if (diags_.hasErrors() || !r.resultSymbol || r.resultSymbol->assigned || !r.body) return;
  const char* value = "0";
  switch (r.resultSymbol->type) {
    case Type::Boolean: value = "false"; break;
    case Type::Real: value = "0.0"; break;
    case Type::String: value = "''"; break;
    case Type::Slice: value = "an empty slice"; break;
    case Type::Word: value = "an empty word"; break;
    default: break;
  }
  diags_.warning(r.loc, "function " + quote(r.name) + " never assigns its result; it returns " + value);
  diags_.note(r.body->loc, "assign the result in the body: '" + r.name + " := ...'");
}

bool Checker::checkDecls(Program& p) {
  int before = diags_.errorCount();
  declareConsts(p.decls, p.symbols, SymbolKind::Const, globals_);
  declareVars(p.decls, p.symbols, SymbolKind::Global, globals_);
  for (auto& r : p.routines) declareRoutine(*r);
  for (auto& r : p.routines)
    if (routines_.count(lowerCase(r->name)) && routines_[lowerCase(r->name)] == r.get())
      checkRoutineBody(*r);
  return diags_.errorCount() == before;
}

bool Checker::checkUnit(Program& unit) {
  bool saved = options_.warnUnused;
  options_.warnUnused = false;  // a library's globals are for its users
  bool ok = checkDecls(unit);
  options_.warnUnused = saved;
  return ok;
}

bool Checker::checkProgram(Program& program) {
  int before = diags_.errorCount();
  beginProgram(program);
  if (program.body) checkMainStatement(program.body.get());
  endProgram(program);
  return diags_.errorCount() == before;
}

void Checker::beginProgram(Program& program) { checkDecls(program); }

void Checker::checkMainStatement(Stmt* s, Stmt* previous) {
  int errorsBefore = diags_.errorCount();
  stmt(s);
  if (diags_.errorCount() == errorsBefore) ParallelLoops(diags_, loopReports_).analyse(s, previous);
}

void Checker::endProgram(Program& program) {
  if (options_.warnUnused) warnUnused(program.symbols);
}

std::vector<const Symbol*> Checker::globals() const {
  std::vector<const Symbol*> out;
  for (auto& [k, s] : globals_) out.push_back(s);
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->name < b->name; });
  return out;
}
std::vector<const Routine*> Checker::routines() const {
  std::vector<const Routine*> out;
  for (auto& [k, r] : routines_) out.push_back(r);
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->name < b->name; });
  return out;
}
const Symbol* Checker::findGlobal(const std::string& name) const {
  auto it = globals_.find(lowerCase(name));
  return it == globals_.end() ? nullptr : it->second;
}
const Routine* Checker::findRoutine(const std::string& name) const {
  auto it = routines_.find(lowerCase(name));
  return it == routines_.end() ? nullptr : it->second;
}

// ======================================================================= lookup

Symbol* Checker::lookup(const std::string& name) {
  std::string key = lowerCase(name);
  if (locals_)
    if (auto it = locals_->find(key); it != locals_->end()) return it->second;
  if (auto it = globals_.find(key); it != globals_.end()) return it->second;
  return nullptr;
}

Routine* Checker::lookupRoutine(const std::string& name) {
  auto it = routines_.find(lowerCase(name));
  return it == routines_.end() ? nullptr : it->second;
}

std::string Checker::suggest(const std::string& name) const {
  if (name.size() > 64) return {};
  std::vector<std::string> names;
  if (locals_)
    for (auto& [k, s] : *locals_) names.push_back(s->name);
  for (auto& [k, s] : globals_) names.push_back(s->name);
  for (auto& [k, r] : routines_) names.push_back(r->name);
  for (auto& b : builtins()) names.emplace_back(b.name);
  std::string best = closestWord(name, names);
  // Star ignores case: a name typed in lower case gets its suggestion in lower case ('writeln',
  // not the table's 'WRITELN').
  if (std::none_of(name.begin(), name.end(), [](unsigned char c) { return std::isupper(c); }))
    best = lowerCase(best);
  return best;
}

void Checker::unknownName(SourceLoc loc, const std::string& name) {
  std::string msg = "unknown name " + quote(name);
  std::string s = suggest(name);
  if (!s.empty()) msg += "; did you mean '" + s + "'?";
  diags_.error(loc, msg);
}

// ======================================================================= statements

namespace {

// The text of the call-shaped designator `name(...)` that starts at `loc`, as written, and the
// column just after its ')': "" when it does not end on its line.
std::string designatorText(const SourceManager& sources, SourceLoc loc, std::uint32_t* endCol) {
  if (loc.file >= sources.size() || loc.line == 0 || loc.col == 0) return {};
  const std::string line = sources.line(loc.file, loc.line);
  std::size_t i = loc.col - 1, depth = 0;
  bool quoted = false;
  for (std::size_t k = i; k < line.size(); ++k) {
    char c = line[k];
    if (c == '\'') quoted = !quoted;  // '' inside a string toggles twice
    if (quoted) continue;
    if (c == '(') ++depth;
    if (c == ')' && depth > 0 && --depth == 0) {
      *endCol = static_cast<std::uint32_t>(k + 2);
      return line.substr(i, k + 1 - i);
    }
  }
  return {};
}

}  // namespace

void Checker::condition(Expr* e, const char* what) {
  Type t = expr(e);
  if (t == Type::Error || t == Type::Boolean) return;
  diags_.error(e->loc, std::string("the condition of ") + what + " must be boolean, not " +
                           typeName(t) + (isBits(t) ? " (use SOME(...) to test for a 1)" : ""));
  // `if Y(i) then`: a component is an integer, 0 or 1; the idiom is `Y(i) = 1` (LANGUAGE.md 3.3).
  if (e->kind == ExprKind::Call && static_cast<CallExpr*>(e)->target == CallTarget::Component) {
    std::uint32_t endCol = 0;
    std::string text = designatorText(diags_.sources(), e->loc, &endCol);
    if (text.empty()) text = static_cast<CallExpr*>(e)->name + "(i)";
    SourceLoc at = endCol ? SourceLoc{e->loc.file, e->loc.line, endCol} : e->loc;
    diags_.note(at, "a component is an integer, 0 or 1: write '" + text + " = 1' to test the bit");
  }
}

void Checker::stmt(Stmt* s) {
  if (!s) return;
  switch (s->kind) {
    case StmtKind::Assign: assign(static_cast<AssignStmt&>(*s)); break;
    case StmtKind::Call: callStmt(static_cast<CallStmt&>(*s)); break;
    case StmtKind::If: {
      auto& i = static_cast<IfStmt&>(*s);
      condition(i.cond.get(), "'if'");
      stmt(i.thenS.get());
      stmt(i.elseS.get());
      break;
    }
    case StmtKind::While: {
      auto& w = static_cast<WhileStmt&>(*s);
      condition(w.cond.get(), "'while'");
      ++loopDepth_;
      stmt(w.body.get());
      --loopDepth_;
      break;
    }
    case StmtKind::Repeat: {
      auto& r = static_cast<RepeatStmt&>(*s);
      ++loopDepth_;
      stmts(r.body);
      --loopDepth_;
      condition(r.cond.get(), "'until'");
      break;
    }
    case StmtKind::For: {
      auto& f = static_cast<ForStmt&>(*s);
      f.symbol = loopVariable(f.var, f.varLoc, "for");
      expectType(f.from.get(), Type::Integer, "the start of 'for'");
      expectType(f.to.get(), Type::Integer, "the limit of 'for'");
      ++loopDepth_;
      stmt(f.body.get());
      --loopDepth_;
      break;
    }
    case StmtKind::Forall: {
      auto& f = static_cast<ForallStmt&>(*s);
      f.symbol = loopVariable(f.var, f.varLoc, "forall");
      expectBits(f.set.get(), "the set of 'forall'");
      // `break` and `continue` cannot leave or skip an iteration that runs at once with others.
      int savedDepth = loopDepth_;
      loopDepth_ = 0;
      ++forallDepth_;
      stmt(f.body.get());
      --forallDepth_;
      loopDepth_ = savedDepth;
      break;
    }
    case StmtKind::Block: stmts(static_cast<BlockStmt&>(*s).body); break;
    case StmtKind::Break:
    case StmtKind::Continue:
      if (loopDepth_ == 0 && forallDepth_ > 0)
        diags_.error(s->loc, std::string("'") + (s->kind == StmtKind::Break ? "break" : "continue") +
                                 "' cannot leave an iteration of a forall loop");
      else if (loopDepth_ == 0)
        diags_.error(s->loc, std::string("'") + (s->kind == StmtKind::Break ? "break" : "continue") +
                                 "' outside a loop");
      break;
    case StmtKind::Exit: break;
  }
}

// The control variable of `for` or `forall`: an integer variable.
Symbol* Checker::loopVariable(const std::string& name, SourceLoc loc, const char* loop) {
  Symbol* v = lookup(name);
  std::string what = std::string("the control variable of '") + loop + "' must be an integer variable; ";
  if (!v && (lookupRoutine(name) || findBuiltin(name) >= 0)) {
    diags_.error(loc, what + quote(name) + " is a " + (lookupRoutine(name) ? "procedure or function" : "builtin"));
  } else if (!v) {
    unknownName(loc, name);
  } else if (v->kind == SymbolKind::Const || v->type != Type::Integer) {
    diags_.error(loc, what + quote(name) + " is " +
                          (v->kind == SymbolKind::Const ? "a constant" : std::string("a ") + typeName(v->type)));
  } else {
    v->used = true;
    return v;
  }
  return nullptr;
}

bool Checker::assignable(Type to, Type from) const {
  return to == from || (to == Type::Real && from == Type::Integer);
}

void Checker::assign(AssignStmt& s) {
  Expr* target = s.target.get();
  Type valueType = expr(s.value.get());
  if (target->kind == ExprKind::Name) {
    auto& n = static_cast<NameExpr&>(*target);
    Symbol* sym = lookup(n.name);
    // Inside a function, its own name is its result.
    if (current_ && current_->resultSymbol && lowerCase(n.name) == lowerCase(current_->name) &&
        (!sym || sym == current_->resultSymbol || !locals_->count(lowerCase(n.name))))
      sym = current_->resultSymbol;
    if (!sym) {
      if (lookupRoutine(n.name))
        diags_.error(n.loc, "cannot assign to " + quote(n.name) +
                                ": it is a procedure or function (a function's result is assigned "
                                "only inside its body)");
      else if (findBuiltin(n.name) >= 0)
        diags_.error(n.loc, "cannot assign to builtin " + quote(n.name));
      else
        unknownName(n.loc, n.name);
      return;
    }
    n.symbol = sym;
    n.type = sym->type;
    n.shape = sym->shape;
    sym->assigned = true;
    if (sym->kind == SymbolKind::Const) {
      diags_.error(n.loc, "cannot assign to constant " + quote(sym->name));
      return;
    }
    if (valueType == Type::Error) return;
    if (!assignable(sym->type, valueType)) {
      std::string hint;
      if (sym->type == Type::Word && valueType == Type::Slice) hint = " (use CONVERT to turn a slice into a word)";
      if (sym->type == Type::Slice && valueType == Type::Word) hint = " (use CONVERT to turn a word into a slice)";
      diags_.error(s.value->loc, "cannot assign " + article(valueType) + " to " +
                                     quote(sym->name) + " of type " + typeName(sym->type) + hint);
      return;
    }
    if (sym->sized) {
      const Shape& a = sym->shape;
      const Shape& b = s.value->shape;
      bool mismatch = sym->type == Type::Table
                          ? (a.rows >= 0 && b.rows >= 0 && a.rows != b.rows) ||
                                (a.cols >= 0 && b.cols >= 0 && a.cols != b.cols)
                          : isBits(sym->type) && a.length >= 0 && b.length >= 0 && a.length != b.length;
      if (mismatch)
        diags_.error(s.value->loc, "size mismatch: cannot assign " + article(valueType) +
                                       " of size " + describeShape(valueType, b) + " to " +
                                       quote(sym->name) + " of size " + describeShape(sym->type, a));
    }
    return;
  }
  // COL(i, T) := V, ROW(i, T) := w, Y(i) := 0/1
  auto& c = static_cast<CallExpr&>(*target);
  Symbol* sym = lookup(c.name);
  if (sym && isBits(sym->type)) {
    Type t = component(c, *sym);
    if (sym->kind == SymbolKind::Const)
      diags_.error(c.loc, "cannot assign to a component of constant " + quote(sym->name));
    if (t != Type::Error && valueType != Type::Error) {
      if (valueType == Type::Boolean || valueType == Type::Integer) {
        if (valueType == Type::Integer)
          if (auto v = foldInt(s.value.get()); v && *v != 0 && *v != 1)
            diags_.error(s.value->loc, "a component of " + std::string(typeName(sym->type)) +
                                           " " + quote(sym->name) + " is 0 or 1, not " +
                                           std::to_string(*v));
      } else {
        diags_.error(s.value->loc, "a component of a " + std::string(typeName(sym->type)) +
                                       " takes 0 or 1, not " + article(valueType));
      }
    }
    return;
  }
  int b = findBuiltin(c.name);
  if (!sym && !lookupRoutine(c.name) && (b == static_cast<int>(Builtin::Col) ||
                                         b == static_cast<int>(Builtin::Row))) {
    Type t = call(c, false);
    if (t == Type::Error) return;
    if (c.args.size() == 2 && c.args[1]->type != Type::Error) {
      Expr* table = c.args[1].get();
      if (table->kind != ExprKind::Name || !static_cast<NameExpr*>(table)->symbol ||
          static_cast<NameExpr*>(table)->symbol->kind == SymbolKind::Const) {
        diags_.error(table->loc, std::string("the table of ") + (t == Type::Slice ? "COL" : "ROW") +
                                     "(...) := must be a table variable");
        return;
      }
    }
    if (valueType == Type::Error) return;
    if (valueType != t) {
      diags_.error(s.value->loc, std::string(t == Type::Slice ? "COL" : "ROW") + "(i, T) := needs " +
                                     article(t) + ", not " + article(valueType));
      return;
    }
    checkSameLength(s.value->loc, c.shape, s.value->shape,
                    t == Type::Slice ? "the column has" : "the row has");
    return;
  }
  if (sym) {
    diags_.error(c.loc, quote(sym->name) + " is " + article(sym->type) +
                            " and cannot be indexed; only slices and words have components");
    return;
  }
  diags_.error(c.loc, "the left side of ':=' must be a variable, COL(i, T), ROW(i, T) or a "
                      "component Y(i)");
}

void Checker::callStmt(CallStmt& s) {
  Expr* e = s.call.get();
  Type t;
  if (e->kind == ExprKind::Name) {
    auto& n = static_cast<NameExpr&>(*e);
    Symbol* sym = lookup(n.name);
    if (sym) {
      diags_.error(n.loc, quote(n.name) + " is a variable, not a procedure; a statement cannot be "
                                          "just a value");
      return;
    }
    t = name(n);
    if (t == Type::Error) return;
  } else {
    t = call(static_cast<CallExpr&>(*e), true);
    if (t == Type::Error) return;
    if (static_cast<CallExpr&>(*e).target == CallTarget::Component) {
      diags_.error(e->loc, "a component Y(i) is a value, not a statement");
      return;
    }
  }
  (void)t;
}

// ======================================================================= expressions

bool Checker::expectType(Expr* e, Type want, const std::string& what) {
  Type t = expr(e);
  if (t == Type::Error) return false;
  if (t == want || (want == Type::Real && t == Type::Integer)) return true;
  diags_.error(e->loc, what + " must be " + (want == Type::Integer ? "an " : "a ") + typeName(want) +
                           ", not " + typeName(t));
  return false;
}

bool Checker::expectBits(Expr* e, const std::string& what) {
  Type t = expr(e);
  if (t == Type::Error) return false;
  if (isBits(t)) return true;
  diags_.error(e->loc, what + " must be a slice or a word, not " + std::string(typeName(t)));
  return false;
}

bool Checker::expectWord(Expr* e, const std::string& what) {
  Type t = expr(e);
  if (t == Type::Error) return false;
  if (t == Type::Word) return true;
  diags_.error(e->loc, what + " must be a word, not " + std::string(typeName(t)) +
                           (t == Type::Slice ? " (use CONVERT to turn a slice into a word)" : ""));
  return false;
}

bool Checker::expectTable(Expr* e, const std::string& what) {
  Type t = expr(e);
  if (t == Type::Error) return false;
  if (t == Type::Table) return true;
  diags_.error(e->loc, what + " must be a table, not " + std::string(typeName(t)));
  return false;
}

bool Checker::expectVariable(Expr* e, const std::string& what) {
  if (e->kind == ExprKind::Name) {
    auto* n = static_cast<NameExpr*>(e);
    if (n->symbol && n->symbol->kind != SymbolKind::Const) return true;
  }
  diags_.error(e->loc, what + " must be a variable (it is passed by reference)");
  return false;
}

void Checker::checkIndex(Expr* index, std::int64_t limit, const std::string& what) {
  auto v = foldInt(index);
  if (!v) return;
  if (*v < 1 || (limit >= 0 && *v > limit))
    diags_.error(index->loc, what + " " + std::to_string(*v) + " is out of range" +
                                 (limit >= 0 ? " 1.." + std::to_string(limit) : " (indices start at 1)"));
}

void Checker::checkSameLength(SourceLoc loc, const Shape& a, const Shape& b,
                              const std::string& what) {
  if (a.length >= 0 && b.length >= 0 && a.length != b.length)
    diags_.error(loc, "size mismatch: " + what + " " + std::to_string(a.length) +
                          " bits but the other operand has " + std::to_string(b.length));
}

Type Checker::expr(Expr* e) {
  Type t = Type::Error;
  switch (e->kind) {
    case ExprKind::IntLit: t = Type::Integer; break;
    case ExprKind::RealLit: t = Type::Real; break;
    case ExprKind::BoolLit: t = Type::Boolean; break;
    case ExprKind::StringLit: t = Type::String; break;
    case ExprKind::BitsLit:
      t = Type::Word;
      e->shape.length = static_cast<std::int64_t>(static_cast<BitsLit*>(e)->bits.size());
      break;
    case ExprKind::Name: t = name(static_cast<NameExpr&>(*e)); break;
    case ExprKind::Call: t = call(static_cast<CallExpr&>(*e), false); break;
    case ExprKind::Unary: t = unary(static_cast<UnaryExpr&>(*e)); break;
    case ExprKind::Binary: t = binary(static_cast<BinaryExpr&>(*e)); break;
  }
  e->type = t;
  return t;
}

Type Checker::name(NameExpr& e) {
  if (Symbol* sym = lookup(e.name)) {
    // A function's own name inside its body, without arguments, is a recursive call only when
    // it has no parameters; we treat it as a call in that case (Pascal's rule).
    sym->used = true;
    e.symbol = sym;
    e.shape = sym->shape;
    return sym->type;
  }
  if (Routine* r = lookupRoutine(e.name)) {
    if (!r->params.empty()) {
      diags_.error(e.loc, quote(r->name) + " takes " + std::to_string(r->params.size()) +
                              " argument" + (r->params.size() == 1 ? "" : "s"));
      return Type::Error;
    }
    r->used = true;
    e.routine = r;
    return r->isFunc ? r->result->type : Type::Void;
  }
  int b = findBuiltin(e.name);
  if (b >= 0) {
    auto id = static_cast<Builtin>(b);
    if (id == Builtin::ParamCount) {
      e.builtin = b;
      return Type::Integer;
    }
    if (id == Builtin::Writeln || id == Builtin::Write) {
      e.builtin = b;
      return Type::Void;
    }
    diags_.error(e.loc, "builtin " + std::string(builtinInfo(id).name) + " needs arguments: " +
                            std::string(builtinInfo(id).signature));
    return Type::Error;
  }
  unknownName(e.loc, e.name);
  return Type::Error;
}

Type Checker::component(CallExpr& e, Symbol& sym) {
  sym.used = true;
  e.target = CallTarget::Component;
  e.symbol = &sym;
  if (e.args.size() != 1) {
    diags_.error(e.loc, "a component of " + std::string(typeName(sym.type)) + " " +
                            quote(sym.name) + " takes one index: " + sym.name + "(i)");
    return Type::Error;
  }
  if (!expectType(e.args[0].get(), Type::Integer, "the index of " + quote(sym.name)))
    return Type::Error;
  checkIndex(e.args[0].get(), sym.shape.length, "index");
  return Type::Integer;
}

Type Checker::call(CallExpr& e, bool asStatement) {
  if (Symbol* sym = lookup(e.name)) {
    if (isBits(sym->type)) return component(e, *sym);
    diags_.error(e.loc, quote(sym->name) + " is " + article(sym->type) +
                            (sym->type == Type::Table ? "; use ROW(i, T) or COL(j, T) to index it"
                                                      : " and cannot be called or indexed"));
    return Type::Error;
  }
  if (Routine* r = lookupRoutine(e.name)) return routineCall(e, *r);
  if (findBuiltin(e.name) >= 0) return builtinCall(e, asStatement);
  unknownName(e.loc, e.name);
  for (auto& a : e.args) expr(a.get());
  return Type::Error;
}

Type Checker::routineCall(CallExpr& e, Routine& r) {
  r.used = true;
  e.target = CallTarget::Routine;
  e.routine = &r;
  if (e.args.size() != r.params.size()) {
    diags_.error(e.loc, quote(r.name) + " takes " + std::to_string(r.params.size()) + " argument" +
                            (r.params.size() == 1 ? "" : "s") + ", but " +
                            std::to_string(e.args.size()) + (e.args.size() == 1 ? " was" : " were") +
                            " given");
    for (auto& a : e.args) expr(a.get());
    return Type::Error;
  }
  for (std::size_t i = 0; i < e.args.size(); ++i) {
    Param& p = r.params[i];
    Expr* a = e.args[i].get();
    Type t = expr(a);
    if (t == Type::Error) continue;
    std::string what = "argument " + std::to_string(i + 1) + " of " + quote(r.name) + " (" + p.name + ")";
    if (p.byRef) {
      if (t != p.spec->type) {
        diags_.error(a->loc, what + " must be " + article(p.spec->type) + ", not " + article(t));
        continue;
      }
      expectVariable(a, what);
    } else if (!assignable(p.spec->type, t)) {
      diags_.error(a->loc, what + " must be " + article(p.spec->type) + ", not " + article(t));
    }
  }
  return r.isFunc ? r.result->type : Type::Void;
}

Type Checker::builtinCall(CallExpr& e, bool asStatement) {
  int id = findBuiltin(e.name);
  auto b = static_cast<Builtin>(id);
  const BuiltinInfo& info = builtinInfo(b);
  e.target = CallTarget::Builtin;
  e.builtin = id;
  int n = static_cast<int>(e.args.size());
  if (n < info.minArgs() || (info.maxArgs() >= 0 && n > info.maxArgs())) {
    diags_.error(e.loc, "wrong number of arguments to " + info.name + ": expected " +
                            std::string(info.signature));
    for (auto& a : e.args) expr(a.get());
    return Type::Error;
  }
  // Calling a function for its effect only is allowed for STEP (it clears the bit).
  if (asStatement && !info.isProcedure() && b != Builtin::Step) {
    diags_.error(e.loc, info.name + " is a function; use its value");
    for (auto& a : e.args) expr(a.get());
    return Type::Error;
  }
  if (!asStatement && info.isProcedure()) {
    diags_.error(e.loc, info.name + " is a procedure and has no value");
    for (auto& a : e.args) expr(a.get());
    return Type::Error;
  }
  // Every argument's type, then (when all are right) the by-reference ones are variables.
  bool ok = true;
  for (std::size_t i = 0; i < e.args.size(); ++i)
    ok &= builtinArgument(e.args[i].get(), info.params[std::min(i, info.params.size() - 1)].kind,
                          info.describeParam(i), b);
  if (!ok) return Type::Error;
  for (std::size_t i = 0; i < e.args.size(); ++i)
    if (info.params[std::min(i, info.params.size() - 1)].byRef)
      expectVariable(e.args[i].get(), info.describeParam(i, true));
  Type result = Type::Void;
  switch (info.result) {
    case ResultKind::None: result = Type::Void; break;
    case ResultKind::Integer: result = Type::Integer; break;
    case ResultKind::Real: result = Type::Real; break;
    case ResultKind::Boolean: result = Type::Boolean; break;
    case ResultKind::String: result = Type::String; break;
    case ResultKind::Word: result = Type::Word; break;
    case ResultKind::Slice: result = Type::Slice; break;
    case ResultKind::SameAsFirst:
      e.shape = e.args[0]->shape;
      result = e.args[0]->type;
      break;
    case ResultKind::OtherBits:
      e.shape = e.args[0]->shape;
      result = e.args[0]->type == Type::Slice ? Type::Word : Type::Slice;
      break;
  }
  builtinStaticChecks(e, b);
  return result;
}

bool Checker::builtinArgument(Expr* a, ParamKind kind, const std::string& what, Builtin b) {
  switch (kind) {
    case ParamKind::Integer: return expectType(a, Type::Integer, what);
    case ParamKind::Real: return expectType(a, Type::Real, what);
    case ParamKind::Boolean: return expectType(a, Type::Boolean, what);
    case ParamKind::String: {
      Type t = expr(a);
      if (t == Type::Error) return false;
      if (t == Type::String) return true;
      // LEN counts components, Length characters: each names the other for the other's values.
      diags_.error(a->loc, what + " must be a string, not " + typeName(t) +
                               (b == Builtin::Length && isBits(t) ? " (use LEN for a slice or a word)" : ""));
      return false;
    }
    case ParamKind::Bits: {
      Type t = expr(a);
      if (t == Type::Error) return false;
      if (isBits(t)) return true;
      diags_.error(a->loc, what + " must be a slice or a word, not " + typeName(t) +
                               (b == Builtin::Len && t == Type::String ? " (use Length for a string)" : ""));
      return false;
    }
    case ParamKind::Word: return expectWord(a, what);
    case ParamKind::Table: return expectTable(a, what);
    case ParamKind::Number: {
      Type t = expr(a);
      if (t == Type::Error) return false;
      if (t == Type::Integer || t == Type::Real) return true;
      diags_.error(a->loc, what + " must be an integer or a real, not " + typeName(t));
      return false;
    }
    case ParamKind::Vector: {
      Type t = expr(a);
      if (t == Type::Error) return false;
      if (isVector(t)) return true;
      diags_.error(a->loc, what + " must be a slice, a word or a table, not " + typeName(t));
      return false;
    }
    case ParamKind::Any: {
      Type t = expr(a);
      if (t == Type::Void) diags_.error(a->loc, "this has no value to write");
      return true;  // a wrong argument of write does not hide the others' errors
    }
  }
  return false;
}

// What the table's signatures cannot say: sizes of results and checks of constant arguments
// (the same checks run again at run time on the values).
void Checker::builtinStaticChecks(CallExpr& e, Builtin b) {
  auto arg = [&](int i) { return e.args[static_cast<std::size_t>(i)].get(); };
  switch (b) {
    case Builtin::Trim: {
      std::int64_t len = arg(2)->shape.length;
      checkIndex(arg(0), len, "TRIM start");
      checkIndex(arg(1), len, "TRIM end");
      auto i = foldInt(arg(0)), j = foldInt(arg(1));
      if (i && j) {
        if (*i > *j) diags_.error(arg(0)->loc, "TRIM start " + std::to_string(*i) +
                                                 " is after its end " + std::to_string(*j));
        else e.shape.length = *j - *i + 1;
      }
      break;
    }
    case Builtin::Rep: {
      std::int64_t len = arg(3)->shape.length;
      checkIndex(arg(0), len, "REP start");
      checkIndex(arg(1), len, "REP end");
      auto i = foldInt(arg(0)), j = foldInt(arg(1));
      if (i && j && arg(2)->shape.length >= 0 && *j - *i + 1 != arg(2)->shape.length)
        diags_.error(arg(2)->loc, "size mismatch: REP(" + std::to_string(*i) + ", " +
                                      std::to_string(*j) + ", ...) replaces " +
                                      std::to_string(*j - *i + 1) + " bits but the word has " +
                                      std::to_string(arg(2)->shape.length));
      break;
    }
    case Builtin::Eq: case Builtin::NotEq: case Builtin::Less: case Builtin::LessEq:
    case Builtin::Great: case Builtin::GreatEq: case Builtin::Add: case Builtin::Subt:
      checkSameLength(arg(1)->loc, arg(0)->shape, arg(1)->shape, "the first word has");
      break;
    case Builtin::Bin:
      if (auto k = foldInt(arg(1))) {
        if (*k < 1) diags_.error(arg(1)->loc, "BIN needs a length of at least 1, not " + std::to_string(*k));
        else e.shape.length = *k;
      }
      break;
    case Builtin::Sbin:
      if (auto k = foldInt(arg(1))) {
        if (*k < 1 || *k > 64)
          diags_.error(arg(1)->loc, "SBIN needs a length of 1..64, not " + std::to_string(*k));
        else e.shape.length = *k;
      }
      break;
    case Builtin::Fbin:
      if (auto k = foldInt(arg(1))) {
        if (*k != 32 && *k != 64)
          diags_.error(arg(1)->loc, "FBIN needs a length of 32 or 64, not " + std::to_string(*k));
        else e.shape.length = *k;
      }
      break;
    case Builtin::Val:
      if (arg(0)->shape.length > 63)
        diags_.error(arg(0)->loc, "VAL needs a word of at most 63 bits; this one has " +
                                      std::to_string(arg(0)->shape.length));
      break;
    case Builtin::Sval:
      if (arg(0)->shape.length == 0 || arg(0)->shape.length > 64)
        diags_.error(arg(0)->loc, "SVAL needs a word of 1..64 bits; this one has " +
                                      std::to_string(arg(0)->shape.length));
      break;
    case Builtin::Fval:
      if (arg(0)->shape.length >= 0 && arg(0)->shape.length != 32 && arg(0)->shape.length != 64)
        diags_.error(arg(0)->loc, "FVAL needs a word of 32 or 64 bits; this one has " +
                                      std::to_string(arg(0)->shape.length));
      break;
    case Builtin::Col:
    case Builtin::Row: {
      const Shape& ts = arg(1)->shape;
      bool col = b == Builtin::Col;
      checkIndex(arg(0), col ? ts.cols : ts.rows, col ? "column" : "row");
      e.shape.length = col ? ts.rows : ts.cols;
      break;
    }
    case Builtin::LoadNum:
    case Builtin::SaveNum: {
      // A constant layout is checked now, and against a table of known width; any other
      // layout when the call runs.
      Symbol layout;
      if (!foldConstant(arg(2), layout)) break;
      std::string error;
      auto parsed = parseLayout(layout.stringValue, error);
      std::int64_t cols = arg(0)->shape.cols;
      if (!parsed)
        diags_.error(arg(2)->loc, error);
      else if (cols >= 0 && static_cast<std::uint64_t>(cols) != parsed->width)
        diags_.error(arg(2)->loc, "size mismatch: the layout '" + layout.stringValue + "' has " +
                                      std::to_string(parsed->width) + " bits but the table has " +
                                      std::to_string(cols) + " columns");
      break;
    }
    default:
      break;
  }
}

Type Checker::unary(UnaryExpr& e) {
  Type t = expr(e.operand.get());
  if (t == Type::Error) return t;
  if (e.op == UnaryOp::Not) {
    if (t == Type::Boolean) return t;
    if (isBits(t)) {
      e.shape = e.operand->shape;
      return t;
    }
    diags_.error(e.loc, std::string("'not' needs a boolean, slice or word, not ") + typeName(t));
    return Type::Error;
  }
  if (t == Type::Integer || t == Type::Real) return t;
  diags_.error(e.loc, std::string("unary '") + opSpelling(e.op) + "' needs a number, not " +
                          typeName(t) + (isBits(t) ? " (use ADD/SUBT for word arithmetic)" : ""));
  return Type::Error;
}

Type Checker::binary(BinaryExpr& e) {
  Type a = expr(e.lhs.get());
  Type b = expr(e.rhs.get());
  if (a == Type::Error || b == Type::Error) return Type::Error;
  auto mismatch = [&]() {
    diags_.error(e.loc, std::string("operator '") + opSpelling(e.op) + "' cannot combine " +
                            typeName(a) + " and " + typeName(b));
    return Type::Error;
  };
  bool numeric = (a == Type::Integer || a == Type::Real) && (b == Type::Integer || b == Type::Real);
  switch (e.op) {
    case BinaryOp::Add: case BinaryOp::Sub: case BinaryOp::Mul:
      if (numeric) return a == Type::Real || b == Type::Real ? Type::Real : Type::Integer;
      if (isBits(a) && isBits(b)) {
        diags_.error(e.loc, std::string("operator '") + opSpelling(e.op) +
                                "' is not defined on " + typeName(a) +
                                "s; use ADD(v, w) / SUBT(v, w) for binary arithmetic");
        return Type::Error;
      }
      return mismatch();
    case BinaryOp::RealDiv:
      if (numeric) return Type::Real;
      return mismatch();
    case BinaryOp::Div: case BinaryOp::Mod:
      if (a == Type::Integer && b == Type::Integer) {
        if (auto d = foldInt(e.rhs.get()); d && *d == 0) diags_.error(e.rhs->loc, "division by zero");
        return Type::Integer;
      }
      return mismatch();
    case BinaryOp::And: case BinaryOp::Or: case BinaryOp::Xor:
      if (a == Type::Boolean && b == Type::Boolean) return Type::Boolean;
      if (isBits(a) && a == b) {
        checkSameLength(e.loc, e.lhs->shape, e.rhs->shape, std::string("the left ") + typeName(a) + " has");
        e.shape = e.lhs->shape.length >= 0 ? e.lhs->shape : e.rhs->shape;
        return a;
      }
      if (isBits(a) && isBits(b)) {
        diags_.error(e.loc, std::string("operator '") + opSpelling(e.op) + "' cannot combine a " +
                                typeName(a) + " and a " + typeName(b) + "; use CONVERT first");
        return Type::Error;
      }
      return mismatch();
    case BinaryOp::Eq: case BinaryOp::Ne:
      if (numeric || (a == b && (a == Type::Boolean || a == Type::String))) return Type::Boolean;
      if (isBits(a) && a == b) {
        checkSameLength(e.loc, e.lhs->shape, e.rhs->shape, std::string("the left ") + typeName(a) + " has");
        return Type::Boolean;
      }
      if (a == Type::Table && b == Type::Table) return Type::Boolean;
      return mismatch();
    case BinaryOp::Lt: case BinaryOp::Le: case BinaryOp::Gt: case BinaryOp::Ge:
      if (numeric) return Type::Boolean;
      if (a == Type::Word && b == Type::Word) {
        diags_.error(e.loc, std::string("'") + opSpelling(e.op) +
                                "' does not compare words; use LESS, LESSEQ, GREAT or GREATEQ");
        return Type::Error;
      }
      return mismatch();
  }
  return Type::Error;
}

// ======================================================================= constant folding

namespace {
// An integer operation on constants, as the VM computes it; none when it would fault at run time.
std::optional<std::int64_t> foldScalar(Op op, std::int64_t x, std::int64_t y) {
  std::uint64_t r = 0;
  if (scalarOp(op, static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(y), r) != FaultKind::None)
    return std::nullopt;
  return static_cast<std::int64_t>(r);
}
}  // namespace

std::optional<std::int64_t> Checker::foldInt(Expr* e) {
  switch (e->kind) {
    case ExprKind::IntLit: return static_cast<IntLit*>(e)->value;
    case ExprKind::Name: {
      auto* n = static_cast<NameExpr*>(e);
      if (n->symbol && n->symbol->kind == SymbolKind::Const && n->symbol->type == Type::Integer)
        return n->symbol->intValue;
      return std::nullopt;
    }
    case ExprKind::Unary: {
      auto* u = static_cast<UnaryExpr*>(e);
      auto v = foldInt(u->operand.get());
      if (!v || e->type != Type::Integer) return std::nullopt;
      if (u->op == UnaryOp::Neg) return foldScalar(Op::INEG, *v, 0);
      return v;
    }
    case ExprKind::Binary: {
      auto* b = static_cast<BinaryExpr*>(e);
      if (e->type != Type::Integer) return std::nullopt;
      auto x = foldInt(b->lhs.get()), y = foldInt(b->rhs.get());
      if (!x || !y) return std::nullopt;
      // The VM's own arithmetic: a constant folds exactly when the instruction would not fault.
      switch (b->op) {
        case BinaryOp::Add: return foldScalar(Op::IADD, *x, *y);
        case BinaryOp::Sub: return foldScalar(Op::ISUB, *x, *y);
        case BinaryOp::Mul: return foldScalar(Op::IMUL, *x, *y);
        case BinaryOp::Div: return foldScalar(Op::IDIV, *x, *y);
        case BinaryOp::Mod: return foldScalar(Op::IMOD, *x, *y);
        default: return std::nullopt;
      }
    }
    default: return std::nullopt;
  }
}

bool Checker::foldConstant(Expr* e, Symbol& into) {
  switch (e->type) {
    case Type::Integer: {
      auto v = foldInt(e);
      if (!v) return false;
      into.intValue = *v;
      return true;
    }
    case Type::Boolean:
      if (e->kind == ExprKind::BoolLit) {
        into.intValue = static_cast<BoolLit*>(e)->value;
        return true;
      }
      if (e->kind == ExprKind::Name) {
        auto* n = static_cast<NameExpr*>(e);
        if (n->symbol && n->symbol->kind == SymbolKind::Const) {
          into.intValue = n->symbol->intValue;
          return true;
        }
      }
      if (e->kind == ExprKind::Unary && static_cast<UnaryExpr*>(e)->op == UnaryOp::Not) {
        Symbol inner;
        if (!foldConstant(static_cast<UnaryExpr*>(e)->operand.get(), inner)) return false;
        into.intValue = !inner.intValue;
        return true;
      }
      return false;
    case Type::Real:
      if (e->kind == ExprKind::RealLit) {
        into.realValue = static_cast<RealLit*>(e)->value;
        return true;
      }
      if (e->kind == ExprKind::Unary && static_cast<UnaryExpr*>(e)->op == UnaryOp::Neg) {
        Symbol inner;
        if (!foldConstant(static_cast<UnaryExpr*>(e)->operand.get(), inner)) return false;
        into.realValue = -inner.realValue;
        return true;
      }
      if (e->kind == ExprKind::Name) {
        auto* n = static_cast<NameExpr*>(e);
        if (n->symbol && n->symbol->kind == SymbolKind::Const) {
          into.realValue = n->symbol->realValue;
          return true;
        }
      }
      return false;
    case Type::String:
    case Type::Word:
      if (e->kind == ExprKind::StringLit) {
        into.stringValue = static_cast<StringLit*>(e)->value;
        return true;
      }
      if (e->kind == ExprKind::BitsLit) {
        into.stringValue = static_cast<BitsLit*>(e)->bits;
        return true;
      }
      if (e->kind == ExprKind::Name) {
        auto* n = static_cast<NameExpr*>(e);
        if (n->symbol && n->symbol->kind == SymbolKind::Const) {
          into.stringValue = n->symbol->stringValue;
          return true;
        }
      }
      return false;
    default:
      return false;
  }
}

}  // namespace star
