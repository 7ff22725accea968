// The compiled tier's intermediate representation: a function's verified bytecode as basic blocks
// of instructions, each marked with how compiled code runs it, and the points where a run may enter
// it. The C++ emitter (EmitCpp.h) reads only this; `star dis --emit=ir` prints it.
//
// How each instruction runs (Kind):
//   Scalar     vm/semantics' operation on registers held in locals; a fault stops before it
//   Load       a register from an immediate, a constant or another register
//   Jump       a branch; a backward one polls (interrupt, budget) first
//   ShapeRead  a scalar from a value's shape or bits (vm/engine/EngineReads.h), by every thread
//   Team       an instruction on the bits, the interpreter's own code with the operands in hand
//   Call       CALL: the registers go back to the frame, the interpreter's call makes the
//              callee's frame (Compiled::control), and compiled code goes on in the callee: a C++
//              call of its function where the callee cannot reach the caller again (`direct`: so
//              the generated functions call each other without recursion), else through the
//              trampoline
//   Return     RET: the registers go back, the interpreter's return pops the frame, and the
//              caller's function goes on after its call
//   Interpret  a stop point: the registers go back to the frame and the interpreter runs it
//              (references, strings, I/O, parallel loops, ...)
// A run enters a function at offset 0, at a jump target, or after a Call or Interpret instruction
// (where the function, or the trampoline, re-enters it); anywhere else the interpreter runs
// instructions until one of these (the entry points, `resume`).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "vm/bytecode/Opcodes.h"

namespace star::compile {

enum class Kind : std::uint8_t { Scalar, Load, Jump, ShapeRead, Team, Call, Return, Interpret };
const char* kindName(Kind k);
Kind kindOf(Op op);

struct IrInstr {
  std::uint32_t pc = 0, next = 0;
  Op op = Op::HALT;
  Kind kind = Kind::Interpret;
  std::vector<std::uint32_t> operands;  // the code's operand words, in shape order
  bool backward = false;                // a jump to itself or before it
  bool direct = false;                  // a Call made as a C++ call (see Kind)
  // The owned run it belongs to (1, 2, ... in its function; 0: none): a fusion candidate.
  std::uint32_t run = 0;
  // The owned loop it is in (1, 2, ... in its function; 0: none).
  std::uint32_t loop = 0;
};

struct IrBlock {
  std::uint32_t begin = 0;
  bool entry = false;  // a run may enter here
  std::vector<IrInstr> instrs;
  std::vector<std::uint32_t> successors;  // the offsets of the blocks control goes to
};

// An owned loop: a loop of the function (one header, the only way in) whose every instruction is
// scalar code, a jump, a read, or one of the element-wise instructions and reductions that touch
// only a thread's own words (ownedLoopOp). Compiled code runs it, when the shapes at its header
// allow (Compiled::ownedLoopFits), with each thread's words of its bit vectors in locals: loaded
// once on the way in, stored once on the way out, no barrier but the reductions' own.
struct OwnedLoop {
  std::uint32_t id = 0;               // 1, 2, ... in its function
  std::uint32_t header = 0;           // the block the loop is entered at
  std::vector<std::uint32_t> blocks;  // its blocks' offsets, in code order
  std::vector<std::uint32_t>
      vectors;  // bit-vector handle registers its instructions on the bits use
  std::vector<std::uint32_t> written;  // those it writes
  // Vectors first (in `vectors`) that every block of the loop writes before it reads them (a
  // procedure's temporaries): their shape on the way in does not matter.
  std::uint32_t defined = 0;
  std::vector<std::uint32_t> tables;  // table handle registers (COL reads and writes, in memory)
  std::vector<std::uint32_t> tablesWritten;
  std::vector<std::uint32_t> reads;  // handle registers whose bits its reads (BGET, VAL) read
};

// The instructions on the bits an owned loop may hold.
bool ownedLoopOp(Op op);

// The registers and globals a function reads or writes (operand encoding: globals by slot).
struct IrFunction {
  std::uint32_t index = 0;
  std::string name;
  std::uint32_t numRegs = 0;
  std::vector<IrBlock> blocks;
  std::vector<std::uint32_t> regsUsed, regsWritten, globalsUsed, globalsWritten;
  std::vector<std::uint32_t> callees;  // CALL's function operands
  std::vector<OwnedLoop> loops;        // findOwnedLoops
  // A run can be in it: it is the entry or a function the entry calls, directly or not. Only these
  // are compiled; the rest of a unit (procedures the program never calls) is left out.
  bool reached = true;
};

struct FunctionCode {
  std::string name;
  std::span<const std::uint32_t> code;  // plain opcodes (not the engine's op words)
  std::uint32_t numRegs = 0;
};

// Owned runs: in one block, at least two owned instructions (Opcodes.def's flags o and v: the
// element-wise instructions and the reductions over a thread's own words) with only scalar
// instructions and loads between them, ending at the first reduction. Compiled code runs them
// without barriers between them already (Core's owned words); they are what a fused pass would
// turn into one loop over each thread's words (docs/ARCHITECTURE.md §5, "The next pass").
void markOwnedRuns(IrFunction& f);

// The function's owned loops, outermost first where loops nest (an inner loop is one only where
// the loop around it is not).
void findOwnedLoops(IrFunction& f);

// The IR of verified code (owned runs and loops marked). `entry`: the function runs start in; the
// functions it reaches are marked `reached`, and calls whose callee cannot reach back `direct`.
IrFunction buildIr(std::uint32_t index, const FunctionCode& f);
std::vector<IrFunction> buildIr(std::span<const FunctionCode> functions, std::uint32_t entry);

// The IR as text: one line per block, one per instruction with its kind.
std::string printIr(std::span<const IrFunction> functions);

}  // namespace star::compile
