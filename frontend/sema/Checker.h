// Semantic analysis: scopes, name resolution, types, arity, assignability, statically known size
// mismatches and constant indices out of range, unused-variable warnings, functions that never
// assign their result (a warning), the habits of other languages (notes). Annotates the AST for
// the code generator. One Checker may check several inputs in turn (the REPL): its global scope
// persists and later declarations may redefine earlier ones.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/ast/Ast.h"
#include "frontend/diag/Diagnostics.h"
#include "frontend/sema/Builtins.h"
#include "frontend/sema/ParallelLoops.h"

namespace star {

class Checker {
 public:
  struct Options {
    bool allowRedefinition = false;  // REPL: a declaration replaces an earlier one
    bool warnUnused = true;
    bool warnResult = true;  // a function that never assigns its result (-Wno-result)
  };
  Checker(Diagnostics& diags, Options options) : diags_(diags), options_(options) {}
  explicit Checker(Diagnostics& diags) : Checker(diags, Options{}) {}

  // Library units first, then the program. Returns false when errors were reported.
  bool checkUnit(Program& unit);
  bool checkProgram(Program& program);
  // The same in three steps, for a driver that reads the main body one statement at a time:
  // the declarations, each statement of the main body, then the end (unused-variable warnings).
  void beginProgram(Program& program);
  void checkMainStatement(Stmt* s, Stmt* previous = nullptr);
  void endProgram(Program& program);

  // Every loop checked so far and whether it runs in parallel (star check --explain-loops).
  const std::vector<LoopReport>& loopReports() const { return loopReports_; }

  // Global names visible now (for REPL completion and :vars).
  std::vector<const Symbol*> globals() const;
  std::vector<const Routine*> routines() const;
  const Symbol* findGlobal(const std::string& name) const;
  const Routine* findRoutine(const std::string& name) const;

  // REPL: the type of a standalone expression in the global scope (Type::Error when errors were
  // reported; Type::Void for a procedure call).
  Type checkExpression(Expr* e) { return expr(e); }

  // REPL: the global scope (names -> declarations) before an input, restored when the input is
  // rejected or fails, so that its declarations disappear again.
  struct ScopeSnapshot {
    std::unordered_map<std::string, Symbol*> globals;
    std::unordered_map<std::string, Routine*> routines;
  };
  ScopeSnapshot snapshot() const { return {globals_, routines_}; }
  void restore(ScopeSnapshot s) {
    globals_ = std::move(s.globals);
    routines_ = std::move(s.routines);
  }

 private:
  using Scope = std::unordered_map<std::string, Symbol*>;

  bool checkDecls(Program& p);
  void declareConsts(DeclList& decls, std::vector<std::unique_ptr<Symbol>>& owner,
                     SymbolKind kind, Scope& scope);
  void declareVars(DeclList& decls, std::vector<std::unique_ptr<Symbol>>& owner, SymbolKind kind,
                   Scope& scope);
  void declareRoutine(Routine& r);
  void checkNativeClause(const Routine& r);
  void checkRoutineBody(Routine& r);
  void checkTypeSpec(TypeSpec& spec, Shape& shape, bool isParam);
  void warnUnused(const std::vector<std::unique_ptr<Symbol>>& symbols);
  void warnUnsetResult(const Routine& r);
  bool declare(Scope& scope, Symbol* sym);

  // statements
  void stmt(Stmt* s);
  void stmts(std::vector<StmtPtr>& list) {
    for (auto& s : list) stmt(s.get());
  }
  void assign(AssignStmt& s);
  void callStmt(CallStmt& s);
  void condition(Expr* e, const char* what);

  // expressions
  Type expr(Expr* e);
  Type name(NameExpr& e);
  Type call(CallExpr& e, bool asStatement);
  Type routineCall(CallExpr& e, Routine& r);
  Type builtinCall(CallExpr& e, bool asStatement);
  bool builtinArgument(Expr* a, ParamKind kind, const std::string& what, Builtin b);
  void builtinStaticChecks(CallExpr& e, Builtin b);
  Type component(CallExpr& e, Symbol& sym);
  Type unary(UnaryExpr& e);
  Type binary(BinaryExpr& e);
  bool expectType(Expr* e, Type want, const std::string& what);
  bool expectBits(Expr* e, const std::string& what);
  bool expectWord(Expr* e, const std::string& what);
  bool expectTable(Expr* e, const std::string& what);
  bool expectVariable(Expr* e, const std::string& what);  // a var argument
  void checkIndex(Expr* index, std::int64_t limit, const std::string& what);
  void checkSameLength(SourceLoc loc, const Shape& a, const Shape& b, const std::string& what);
  bool assignable(Type to, Type from) const;
  Symbol* loopVariable(const std::string& name, SourceLoc loc, const char* loop);

  // lookup
  Symbol* lookup(const std::string& name);
  Routine* lookupRoutine(const std::string& name);
  void unknownName(SourceLoc loc, const std::string& name);
  std::string suggest(const std::string& name) const;

  // constant folding (const sections, sizes, indices)
  std::optional<std::int64_t> foldInt(Expr* e);
  bool foldConstant(Expr* e, Symbol& into);

  Diagnostics& diags_;
  Options options_;
  Scope globals_;
  std::unordered_map<std::string, Routine*> routines_;
  Scope* locals_ = nullptr;
  Routine* current_ = nullptr;
  int loopDepth_ = 0;
  int forallDepth_ = 0;
  std::vector<LoopReport> loopReports_;
};

std::string lowerCase(std::string s);

}  // namespace star
