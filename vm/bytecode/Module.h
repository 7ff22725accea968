// A compiled Star module: what `star compile` writes and the VM runs (docs/BYTECODE.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/SourceLoc.h"
#include "vm/bytecode/Opcodes.h"

namespace star {

// 2: graph-loading opcodes, FNV-1a checksum with the standard offset basis.
// 3: native procedures (Function::native); CHKSTEP removed.
// 4: parallel loops (Function::parallelLoops, PFOR).
inline constexpr std::uint32_t kModuleVersion = 4;

// The most registers a function may have (the verifier rejects more).
inline constexpr std::uint32_t kMaxRegisters = 1u << 18;

// How a register or global slot holds its value.
enum class SlotKind : std::uint8_t {
  Scalar = 0,  // integer, boolean, real or string, by value
  Bits = 1,    // a slice or word: a backend handle
  Table = 2,   // a table: a backend handle
  Ref = 3,     // a var parameter of scalar type: a reference to the caller's slot
};

struct Constant {
  ValueTag tag = ValueTag::Integer;
  std::int64_t intValue = 0;   // integer, boolean
  double realValue = 0;
  std::string text;            // string; for Bits the '0'/'1' characters
};

struct ParamInfo {
  SlotKind kind = SlotKind::Scalar;  // Ref for a var scalar
  bool byRef = false;                // var parameter (bits/tables share the caller's handle)
};

// A loop whose iterations may run at once (docs/BYTECODE.md, "Parallel loops"). The PFOR
// instruction names it; the loop's ordinary sequential code follows the PFOR and ends at `exit`,
// so a VM or backend that does not run it in parallel simply falls through.
enum class LoopForm : std::uint8_t {
  Forall = 1,     // iterations: the 1s of R[selector]; after: R[index] = 0 (PFOR precedes the first STEP)
  StepWhile = 2,  // the same, PFOR before the head `i := STEP(x)`; after: R[selector] zeros, R[index] = 0
  SomeStep = 3,   // iterations: the 1s of R[selector]; after: zeros, R[index] = the last one
  ForIf = 4,      // iterations: i in R[first]..R[last] with R[selector](i) = 1; after: R[index] = R[last]
};

struct ParallelLoop {
  LoopForm form = LoopForm::Forall;
  std::uint32_t selector = 0;  // register: bits whose 1s select the iterations
  std::uint32_t index = 0;     // register: the loop variable
  std::uint32_t first = 0, last = 0;  // ForIf: registers holding the range
  std::uint32_t bodyBegin = 0, bodyEnd = 0;  // the body's code, run once per iteration
  std::uint32_t exit = 0;      // where execution goes on after the loop
};

struct Function {
  std::string name;
  std::vector<ParamInfo> params;     // registers 0..params.size()-1
  std::uint32_t numRegs = 0;
  // Registers (beyond the parameters) that own a bit vector or table for the call's duration.
  std::vector<std::pair<std::uint32_t, SlotKind>> ownedRegs;
  std::int32_t resultReg = -1;       // functions: the register holding the result
  SlotKind resultKind = SlotKind::Scalar;
  std::vector<std::uint32_t> code;
  std::vector<SourceLoc> locs;       // one per code word: where the instruction came from
  std::string native;                // a native implementation the VM may call instead
  std::int32_t nativeId = -1;        // `native` resolved (core/NativeTable.h); -1: none
  std::vector<ParallelLoop> parallelLoops;  // named by PFOR instructions
};

struct GlobalInfo {
  std::string name;
  SlotKind kind = SlotKind::Scalar;
};

struct Module {
  std::vector<std::string> files;  // source paths, indexed by SourceLoc::file
  std::vector<Constant> constants;
  std::vector<GlobalInfo> globals;
  std::vector<Function> functions;
  std::uint32_t entry = 0;  // the main body
};

}  // namespace star
