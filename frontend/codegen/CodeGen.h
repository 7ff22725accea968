// Code generation: checked AST -> register bytecode (vm/bytecode/Opcodes.def).
//
// Registers: parameters first, then local variables, then temporaries pooled by kind (a register
// that holds a bit vector or table handle keeps that kind for the whole function), then the
// argument area used to pass arguments to calls. Program-level variables live in global slots.
// One CodeGen may compile several inputs into the same module (the REPL).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "frontend/ast/Ast.h"
#include "vm/bytecode/Module.h"

namespace star {

class CodeGen {
 public:
  explicit CodeGen(Module& module) : m_(module) {}

  // Compiles library units and a program (or REPL input) into the module. Returns the index of
  // the new entry function: it initialises the new globals and runs the program's body.
  std::uint32_t compile(const std::vector<Program*>& units, Program& main);

 private:
  struct Temp {
    std::uint32_t reg;
    SlotKind kind;
    bool inUse;
  };
  struct Loop {
    std::vector<std::uint32_t> breaks, continues;
  };
  struct FnState {
    Function* fn = nullptr;
    Routine* routine = nullptr;   // null for an entry function
    std::uint32_t nextReg = 0;    // first register not yet given to a variable or temporary
    std::vector<Temp> temps;
    std::uint32_t argTop = 0;     // argument area, relative to its (patched) base
    std::uint32_t argMax = 0;
    std::vector<std::uint32_t> argPatches;  // code offsets of operands in the argument area
    std::vector<Loop> loops;
  };

  void declareGlobals(Program& p);
  void compileRoutine(Routine& r);
  void initDecls(DeclList& decls);
  void finishFunction();

  // emission
  std::uint32_t emit(Op op, std::initializer_list<std::uint32_t> operands, SourceLoc loc);
  std::uint32_t emitOperands(Op op, std::span<const std::uint32_t> operands, SourceLoc loc);
  std::uint32_t here() const { return static_cast<std::uint32_t>(fs_.fn->code.size()); }
  void patchJump(std::uint32_t instr, std::uint32_t target);  // last operand of instr
  std::uint32_t constant(Constant c);

  // registers
  std::uint32_t newReg(SlotKind kind);
  std::uint32_t temp(SlotKind kind);
  void releaseTemps(std::size_t mark);
  std::size_t tempMark() const;
  std::uint32_t argReg(std::uint32_t index);  // operand naming the argument area slot
  std::uint32_t operand(const Symbol& s) const;

  // statements
  void stmt(Stmt* s);
  void assign(AssignStmt& s);
  void writeVariable(Symbol& sym, Expr* value, SourceLoc loc);
  void callStmt(CallStmt& s);
  void forStmt(ForStmt& s);

  // expressions: the result is in the returned register (dst when one was given and used)
  std::uint32_t expr(Expr* e, std::int64_t dst = -1);
  std::uint32_t scalarInto(Expr* e, std::int64_t dst);
  std::uint32_t name(NameExpr& e, std::int64_t dst);
  std::uint32_t binary(BinaryExpr& e, std::int64_t dst);
  std::uint32_t unary(UnaryExpr& e, std::int64_t dst);
  std::uint32_t builtin(CallExpr& e, std::int64_t dst);
  std::uint32_t irregularBuiltin(CallExpr& e, std::int64_t dst);
  std::uint32_t callRoutine(Routine& r, std::vector<ExprPtr>* args, SourceLoc loc,
                            std::int64_t dst);
  std::uint32_t literalConstant(const Symbol& s, SourceLoc loc, std::int64_t dst);
  std::uint32_t toReal(Expr* e);
  std::uint32_t resultReg(Type t, std::int64_t dst);

  Module& m_;
  FnState fs_;
  std::uint32_t lastInstr_ = 0;  // code offset of the last emitted instruction
};

SlotKind slotKindOf(Type t);
ValueTag valueTagOf(Type t);

}  // namespace star
