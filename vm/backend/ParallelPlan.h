// A parallel loop's body as a backend runs it (docs/BYTECODE.md, "Parallel loops"): the body's
// instructions with every register operand resolved to where its value lives in an iteration.
// The VM builds the plan (vm/parallel/) and proves what the backend may rely on:
//  * the instructions are those of kParallelOps (no calls, no I/O, no loops: jumps go forward);
//  * a Private operand is written before it is read in every iteration, on every path;
//  * Shared operands are the same in every iteration: scalars are given by value, bit vectors
//    and tables by handle; no iteration writes them, except tables and bit vectors written at
//    the iteration's own index (TSETCOL, TSETROW, BSET with the Index operand), which no other
//    iteration reads there;
//  * lengths agree wherever an instruction needs them to (checked with the shapes at the PFOR):
//    what is left to check in an iteration are values (indices, overflow, division by zero).
// A backend offers the executor through Backend::parallelExecutor(); without it every loop runs
// its sequential code.
#pragma once

#include <cstdint>
#include <vector>

#include "vm/backend/Backend.h"
#include "vm/bytecode/Opcodes.h"
#include "vm/semantics/Scalar.h"

namespace star {

enum class Source : std::uint8_t {
  None,     // not a register: `value` is the immediate (or, for LOADK, the constant's value)
  Shared,   // the same in every iteration: `value` (scalars) or `handle` (bit vectors, tables)
  Private,  // the iteration's own: scalar or bit-vector slot `slot`
  Index,    // the iteration's index (1-based), a scalar
};

struct PlanOperand {
  Source source = Source::None;
  std::uint32_t slot = 0;
  Handle handle = kNoHandle;
  std::uint64_t value = 0;  // the register's 64 bits (int64, double, string index, flag)
};

struct PlanOp {
  Op op = Op::HALT;
  std::uint32_t pc = 0;      // the instruction's offset in its function (for errors)
  PlanOperand a[4];
  std::uint32_t target = 0;  // JMP, JMPF, JMPT: the op to go to; ops.size() ends the iteration
};

struct ParallelPlan {
  std::vector<PlanOp> ops;
  std::uint32_t scalarSlots = 0;
  std::vector<std::uint64_t> bitsSlotLength;  // each private bit vector's length
  // BCONST's words (operand 1's slot indexes them), packed as Backend.h says, and their lengths.
  std::vector<std::vector<std::uint64_t>> constantWords;
  std::vector<std::uint64_t> constantLength;
  // The iterations, in increasing order: every i (1-based) with from <= i <= to where the
  // selector has a 1 (the PFOR of a STEP form precedes its first STEP: no index is taken yet).
  Handle selector = kNoHandle;
  std::uint64_t from = 1, to = 0;
  bool clearSelector = false;  // afterwards the selector is all zeros (its length kept)
  bool wantLastIndex = false;  // report the largest iteration index
  bool countIterations = true;  // report the number of iterations (for --stats; may cost a wait)
  // Values needed after the loop: the last iteration that wrote each of these slots gives it.
  struct LiveOut {
    bool bits = false;
    std::uint32_t slot = 0;
    Handle handle = kNoHandle;  // bits: the register's handle, which receives the value
  };
  std::vector<LiveOut> liveOut;
};

// What went wrong first: the fault of the lowest failing iteration (FaultKind: vm/semantics/Scalar.h,
// where faults are detected).
struct ParallelFault {
  FaultKind kind = FaultKind::None;
  std::int64_t iteration = 0;  // its index
  std::uint32_t op = 0;        // in plan.ops
  std::int64_t values[2] = {0, 0};
};

struct ParallelOutcome {
  std::uint64_t iterations = 0;                // when countIterations (else it may stay 0)
  std::int64_t lastIndex = 0;                  // wantLastIndex; 0 when there was no iteration
  std::vector<std::uint64_t> liveOutScalars;   // per plan.liveOut entry (bits entries: unused)
  std::vector<std::uint8_t> liveOutWritten;    // per entry: some iteration wrote it
  ParallelFault fault;
};

class ParallelExecutor {
 public:
  virtual ~ParallelExecutor() = default;
  // Runs every iteration of the plan. False when this backend cannot run it (the VM then runs
  // the loop's sequential code, which does the same).
  virtual bool runParallel(const ParallelPlan& plan, ParallelOutcome& outcome) = 0;
};

// The instructions a plan may contain: isParallelOp, a column of vm/bytecode/Opcodes.def.

}  // namespace star
