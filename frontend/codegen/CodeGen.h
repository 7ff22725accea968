// Code generation: checked AST -> register bytecode (vm/bytecode/Opcodes.def).
//
// Registers: parameters first, then local variables, then temporaries pooled by kind (a register
// that holds a bit vector or table handle keeps that kind for the whole function), then the
// argument area used to pass arguments to calls. Program-level variables live in global slots.
// One CodeGen may compile several inputs into the same module (the REPL).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
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
  // The same in three steps, for a driver that compiles the main body one statement at a time.
  void beginProgram(const std::vector<Program*>& units, Program& main);
  void mainStatement(Stmt* s, Stmt* next = nullptr);
  std::uint32_t endProgram(Program& main);

 private:
  struct Loop {
    std::vector<std::uint32_t> breaks, continues;
  };
  struct FnState {
    Function* fn = nullptr;
    Routine* routine = nullptr;   // null for an entry function
    std::uint32_t nextReg = 0;    // first register not yet given to a variable or temporary
    // Temporaries: a free list per kind (Scalar, Bits, Table) and each register's state.
    std::vector<std::uint32_t> freeTemps[3];
    std::vector<std::uint8_t> tempState;  // per register: kNotTemp, kTempFree, kTempInUse
    std::vector<SlotKind> tempKind;       // per register, for temporaries
    std::vector<std::uint32_t> allTemps;
    std::size_t tempsInUse = 0;
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
  void releaseTemp(std::uint32_t reg);  // when reg is a temporary in use: its value is consumed
  std::size_t tempMark() const;
  std::uint32_t argReg(std::uint32_t index);  // operand naming the argument area slot
  std::uint32_t operand(const Symbol& s) const;

  // statements
  void stmt(Stmt* s);
  void assign(AssignStmt& s);
  void writeVariable(Symbol& sym, Expr* value, SourceLoc loc);
  void callStmt(CallStmt& s);
  void forStmt(ForStmt& s);
  void forallStmt(ForallStmt& s);
  void beforeStatement(Stmt* next);
  std::int64_t beginParallelLoop(LoopForm form, std::uint32_t selector, std::uint32_t index,
                                 SourceLoc loc);

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
  // Constants already in the module, for O(1) deduplication (filled lazily: the REPL compiles
  // into a module other CodeGens have filled before).
  std::unordered_map<std::string, std::uint32_t> constantIndex_;
  std::size_t constantsIndexed_ = 0;
  std::uint32_t lastInstr_ = 0;  // code offset of the last emitted instruction
  std::uint32_t entry_ = 0;      // the entry function being compiled
  // STEP-while loops whose PFOR was emitted before their head statement, and its loop index.
  std::unordered_map<const WhileStmt*, std::int64_t> pendingParallel_;
};

SlotKind slotKindOf(Type t);
ValueTag valueTagOf(Type t);

}  // namespace star
