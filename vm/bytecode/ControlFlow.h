// The basic blocks of a function's code and how control passes between them: the one control-flow
// graph of the VM (the verifier's block leaders, the liveness pass of the parallel-loop analysis).
//
// A block starts at offset 0, at a jump target (a 'j' operand), after a jump (JMP, JMPF, JMPT:
// taken or not, the block ends there), after RET or HALT, and where the caller asks for one.
// Control leaves a block by its jump (JMP: only there), by falling through into the next block
// unless it ends in JMP, RET or HALT, or, at RET and HALT, out of the function.
//
// The code is read with the decoder (Decode.h): on code that is not well formed the graph covers
// the instructions before the first malformed one, and a jump target outside the code starts no
// block and is no successor. The VM builds graphs of verified code only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "vm/bytecode/Opcodes.h"

namespace star {

// fallsThrough and leavesFunction: the n and x flags of Opcodes.def (vm/bytecode/Opcodes.h).

// Why an offset starts a block: the bits of blockLeaders' bytes (0 where no block starts).
enum LeaderReason : std::uint8_t {
  kLeaderEntry = 1,      // offset 0
  kLeaderTarget = 2,     // the target of a jump
  kLeaderAfterJump = 4,  // the offset after a jump
  kLeaderAfterEnd = 8,   // the offset after RET or HALT
  kLeaderMarked = 16,    // an offset the caller named
};

// Per code offset, and one past the end (code.size() + 1 bytes): why a block starts there. Marks
// beyond the end are ignored. A byte may be set at an offset that starts no instruction (a jump
// target or a mark inside one, in code that is not verified): no block starts there.
std::vector<std::uint8_t> blockLeaders(std::span<const std::uint32_t> code,
                                       std::span<const std::uint32_t> marks = {});

struct BasicBlock {
  std::uint32_t begin = 0;  // the offset of its first instruction
  std::uint32_t end = 0;    // the offset after its last instruction
  std::uint32_t last = 0;   // the offset of its last instruction
  Op lastOp = Op::HALT;
  // Blocks (indices into ControlFlow::blocks) control may go to from its end: the jump's target
  // first, then the next block when control falls through into it. None after RET or HALT.
  std::vector<std::uint32_t> successors;
  bool leaves() const { return leavesFunction(lastOp); }  // ends in RET or HALT
};

struct ControlFlow {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  std::vector<std::uint8_t> leader;  // blockLeaders(code, marks)
  std::vector<BasicBlock> blocks;    // in code order

  // The index of the block that starts at offset pc, or npos.
  std::size_t blockAt(std::size_t pc) const;
};

ControlFlow controlFlow(std::span<const std::uint32_t> code, std::span<const std::uint32_t> marks = {});

}  // namespace star
