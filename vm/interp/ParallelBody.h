// What the VM proves once about a parallel loop's body, from its bytecode alone (the module may
// come from a hostile file, so nothing the compiler said is taken on trust): which registers are
// private to an iteration, which handles are written at the iteration's own index, that privates
// are written before they are read, that jumps go forward. vm/backend/ParallelPlan.h says what a
// backend relies on; Interpreter::runParallel turns a ParallelBody into a plan at each PFOR.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vm/bytecode/Module.h"

namespace star {

struct ParallelBody {
  bool ok = false;
  std::string whyNot;  // when !ok: why the loop runs sequentially

  struct Op {
    star::Op op;
    std::uint32_t pc;
    std::uint32_t operand[4];
    std::uint32_t target;  // jumps: index into ops (ops.size(): the end of the body)
  };
  std::vector<Op> ops;

  // Registers (operands: frame registers, or global slots with kGlobalBit) private to an
  // iteration, with their kind (Scalar or Bits), and whether their value is needed after the loop.
  struct Private {
    std::uint32_t reg;
    SlotKind kind;
    bool liveOut;
  };
  std::vector<Private> privates;
  // Handle registers written at the iteration's own index, and how (TSETCOL, TSETROW or BSET).
  std::vector<std::pair<std::uint32_t, star::Op>> writtenAtIndex;
  bool indexLiveOut = true;  // the loop variable is read after the loop
};

// Proves what the body of loop `loop` of `fn` satisfies (cheap enough to cache per loop).
ParallelBody analyseParallelBody(const Module& m, const Function& fn, const ParallelLoop& loop);

// Registers live at each code offset's instruction start: live[pc] holds the sorted registers
// (frame registers only; globals are always live). Backward dataflow over the function's
// basic blocks with the access letters of Opcodes.def.
std::vector<std::uint8_t> liveAtExit(const Module& m, const Function& fn, std::uint32_t exitPc);

}  // namespace star
