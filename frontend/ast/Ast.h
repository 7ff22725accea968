// The abstract syntax tree. The parser builds it from ANTLR's parse tree; the checker annotates
// it (types, shapes, resolved names); the code generator walks it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/ast/Type.h"
#include "core/SourceLoc.h"

namespace star {

struct Symbol;
struct Routine;

// ------------------------------------------------------------------ expressions
enum class ExprKind : std::uint8_t { IntLit, RealLit, BoolLit, StringLit, BitsLit, Name, Call, Unary, Binary };
enum class UnaryOp : std::uint8_t { Not, Neg, Plus };
enum class BinaryOp : std::uint8_t {
  Mul, RealDiv, Div, Mod, And, Add, Sub, Or, Xor, Eq, Ne, Lt, Le, Gt, Ge
};
const char* opSpelling(UnaryOp op);
const char* opSpelling(BinaryOp op);

// How the checker resolved a call-shaped designator `name(args)`.
enum class CallTarget : std::uint8_t { Unresolved, Builtin, Routine, Component };

struct Expr {
  explicit Expr(ExprKind k, SourceLoc l) : kind(k), loc(l) {}
  virtual ~Expr() = default;
  ExprKind kind;
  SourceLoc loc;
  // Filled by the checker.
  Type type = Type::Error;
  Shape shape;
};
using ExprPtr = std::unique_ptr<Expr>;

struct IntLit : Expr {
  IntLit(SourceLoc l, std::int64_t v) : Expr(ExprKind::IntLit, l), value(v) {}
  std::int64_t value;
};
struct RealLit : Expr {
  RealLit(SourceLoc l, double v) : Expr(ExprKind::RealLit, l), value(v) {}
  double value;
};
struct BoolLit : Expr {
  BoolLit(SourceLoc l, bool v) : Expr(ExprKind::BoolLit, l), value(v) {}
  bool value;
};
struct StringLit : Expr {
  StringLit(SourceLoc l, std::string v) : Expr(ExprKind::StringLit, l), value(std::move(v)) {}
  std::string value;
};
// %1011: the leftmost digit is bit 1.
struct BitsLit : Expr {
  BitsLit(SourceLoc l, std::string v) : Expr(ExprKind::BitsLit, l), bits(std::move(v)) {}
  std::string bits;  // '0'/'1' characters
};
struct NameExpr : Expr {
  NameExpr(SourceLoc l, std::string n) : Expr(ExprKind::Name, l), name(std::move(n)) {}
  std::string name;
  Symbol* symbol = nullptr;     // a variable or constant
  Routine* routine = nullptr;   // a parameterless call `f`
  int builtin = -1;             // a parameterless builtin call (ParamCount)
};
struct CallExpr : Expr {
  CallExpr(SourceLoc l, std::string n) : Expr(ExprKind::Call, l), name(std::move(n)) {}
  std::string name;
  std::vector<ExprPtr> args;
  CallTarget target = CallTarget::Unresolved;
  int builtin = -1;            // Builtin id when target == Builtin
  Routine* routine = nullptr;  // when target == Routine
  Symbol* symbol = nullptr;    // the slice/word when target == Component: Y(i)
};
struct UnaryExpr : Expr {
  UnaryExpr(SourceLoc l, UnaryOp o, ExprPtr e) : Expr(ExprKind::Unary, l), op(o), operand(std::move(e)) {}
  UnaryOp op;
  ExprPtr operand;
};
struct BinaryExpr : Expr {
  BinaryExpr(SourceLoc l, BinaryOp o, ExprPtr a, ExprPtr b)
      : Expr(ExprKind::Binary, l), op(o), lhs(std::move(a)), rhs(std::move(b)) {}
  BinaryOp op;
  ExprPtr lhs, rhs;
};

// ------------------------------------------------------------------ statements
enum class StmtKind : std::uint8_t {
  Assign, Call, If, While, For, Repeat, Block, Break, Continue, Exit, Forall
};

// How a loop runs its iterations at once (docs/LANGUAGE.md, "Parallel loops"): a `forall`, or a
// sequential loop of one of the papers' idioms that the compiler proved independent.
enum class ParallelForm : std::uint8_t {
  None,
  Forall,     // forall i in x do BODY
  StepWhile,  // i := STEP(x); while i > 0 do begin BODY; i := STEP(x) end
  SomeStep,   // while SOME(X) do begin i := STEP(X); BODY end
  ForIf,      // for i := a to b do if X(i) = 1 then BODY
};
const char* parallelFormName(ParallelForm f);

// Filled by the parallel-loop analysis (frontend/sema/ParallelLoops.cpp).
struct LoopParallelism {
  ParallelForm form = ParallelForm::None;
  Symbol* index = nullptr;     // i
  Symbol* selector = nullptr;  // x or X (idioms)
  std::string whyNot;          // why a loop of an idiom's shape stays sequential (--explain-loops)
};

struct Stmt {
  explicit Stmt(StmtKind k, SourceLoc l) : kind(k), loc(l) {}
  virtual ~Stmt() = default;
  StmtKind kind;
  SourceLoc loc;
};
using StmtPtr = std::unique_ptr<Stmt>;

struct AssignStmt : Stmt {
  AssignStmt(SourceLoc l, ExprPtr t, ExprPtr v) : Stmt(StmtKind::Assign, l), target(std::move(t)), value(std::move(v)) {}
  ExprPtr target;  // NameExpr or CallExpr (COL, ROW, Y(i))
  ExprPtr value;
};
struct CallStmt : Stmt {
  CallStmt(SourceLoc l, ExprPtr c) : Stmt(StmtKind::Call, l), call(std::move(c)) {}
  ExprPtr call;  // NameExpr or CallExpr
};
struct IfStmt : Stmt {
  IfStmt(SourceLoc l) : Stmt(StmtKind::If, l) {}
  ExprPtr cond;
  StmtPtr thenS, elseS;  // either may be null (empty statement)
};
struct WhileStmt : Stmt {
  WhileStmt(SourceLoc l) : Stmt(StmtKind::While, l) {}
  ExprPtr cond;
  StmtPtr body;
  LoopParallelism parallel;
};
struct ForStmt : Stmt {
  ForStmt(SourceLoc l) : Stmt(StmtKind::For, l) {}
  std::string var;
  SourceLoc varLoc;
  Symbol* symbol = nullptr;
  ExprPtr from, to;
  bool down = false;
  StmtPtr body;
  LoopParallelism parallel;
};
// forall i in x do BODY: BODY for every i where the value x had at the start has a 1, as if at
// once; independence is proved by the checker.
struct ForallStmt : Stmt {
  ForallStmt(SourceLoc l) : Stmt(StmtKind::Forall, l) {}
  std::string var;
  SourceLoc varLoc;
  Symbol* symbol = nullptr;
  ExprPtr set;
  StmtPtr body;
  LoopParallelism parallel;
};
struct RepeatStmt : Stmt {
  RepeatStmt(SourceLoc l) : Stmt(StmtKind::Repeat, l) {}
  std::vector<StmtPtr> body;
  ExprPtr cond;
};
struct BlockStmt : Stmt {
  BlockStmt(SourceLoc l) : Stmt(StmtKind::Block, l) {}
  std::vector<StmtPtr> body;
};
struct JumpStmt : Stmt {  // break, continue, exit
  JumpStmt(StmtKind k, SourceLoc l) : Stmt(k, l) {}
};

// ------------------------------------------------------------------ declarations
struct TypeSpec {
  Type type = Type::Error;
  SourceLoc loc;
  ExprPtr size1, size2;  // slice(P | n), word(k), table(n, k); null when unsized
};

enum class SymbolKind : std::uint8_t { Const, Global, Local, Param };

// A named value: a constant, a variable or a parameter.
struct Symbol {
  std::string name;  // as written at the declaration
  SourceLoc loc;
  SymbolKind kind = SymbolKind::Local;
  Type type = Type::Error;
  Shape shape;          // statically known size of a variable (or constant)
  bool byRef = false;   // var parameter
  bool sized = false;   // declared with a size: its length/shape never changes
  bool used = false;      // read somewhere
  bool assigned = false;  // written somewhere
  // Constants: the folded value.
  std::int64_t intValue = 0;
  double realValue = 0;
  std::string stringValue;  // strings, and bits of word constants
  // Code generation: register (local) or global slot.
  std::uint32_t slot = 0;
};

struct VarDecl {
  std::string name;
  SourceLoc loc;
  TypeSpec* spec = nullptr;  // shared by `a, b: word`
  Symbol* symbol = nullptr;
};
struct ConstDecl {
  std::string name;
  SourceLoc loc;
  ExprPtr value;
  Symbol* symbol = nullptr;
};
struct Param {
  std::string name;
  SourceLoc loc;
  bool byRef = false;
  TypeSpec* spec = nullptr;
  Symbol* symbol = nullptr;
};

// Declarations of one scope, in source order (the order matters for sizes: slice(P) needs P).
struct DeclList {
  std::vector<std::unique_ptr<TypeSpec>> specs;
  std::vector<ConstDecl> consts;
  std::vector<VarDecl> vars;
};

struct Routine {
  std::string name;
  SourceLoc loc;
  SourceLoc keywordLoc;  // `procedure` / `function`: where the declaration starts
  SourceLoc endLoc;      // the `;` that ends the declaration (the language server's outline)
  bool isFunc = false;
  std::vector<std::unique_ptr<TypeSpec>> paramSpecs;
  std::vector<Param> params;
  std::unique_ptr<TypeSpec> result;
  DeclList decls;
  std::unique_ptr<BlockStmt> body;
  std::uint32_t moduleFile = 0;  // which source file defines it
  std::string nativeName;        // `native 'name';`: a backend may run it natively
  // Filled by the checker / code generator.
  Symbol* resultSymbol = nullptr;
  std::vector<std::unique_ptr<Symbol>> symbols;
  std::uint32_t index = 0;  // function index in the bytecode module
  bool used = false;
};

// A whole program, a library unit, or one REPL input.
struct Program {
  std::string name;
  SourceLoc loc;
  std::vector<std::pair<std::string, SourceLoc>> uses;
  DeclList decls;
  std::vector<std::unique_ptr<Routine>> routines;
  std::unique_ptr<BlockStmt> body;  // null for a unit
  std::vector<std::unique_ptr<Symbol>> symbols;  // globals and constants
  ExprPtr value;  // a REPL input that is a bare expression (ParseMode::ReplExpr); no body then
};

// Prints the tree (star check --dump-ast).
void dumpAst(const Program& program, std::ostream& out);

}  // namespace star
