#include "vm/bytecode/ControlFlow.h"

#include <algorithm>
#include <string_view>

#include "vm/bytecode/Decode.h"

namespace star {

std::vector<std::uint8_t> blockLeaders(std::span<const std::uint32_t> code, std::span<const std::uint32_t> marks) {
  const std::size_t n = code.size();
  std::vector<std::uint8_t> leader(n + 1, 0);
  leader[0] |= kLeaderEntry;
  for (std::uint32_t m : marks)
    if (m <= n) leader[m] |= kLeaderMarked;
  for (const Instr& in : instructions(code)) {
    const std::string_view shape = in.shape();
    bool jumps = false;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      if (shape[k] != 'j') continue;
      jumps = true;
      if (in.operands[k] < n) leader[in.operands[k]] |= kLeaderTarget;
    }
    if (jumps) leader[in.next()] |= kLeaderAfterJump;
    if (leavesFunction(in.op)) leader[in.next()] |= kLeaderAfterEnd;
  }
  return leader;
}

std::size_t ControlFlow::blockAt(std::size_t pc) const {
  auto it = std::lower_bound(blocks.begin(), blocks.end(), pc,
                             [](const BasicBlock& b, std::size_t at) { return b.begin < at; });
  return it != blocks.end() && it->begin == pc ? static_cast<std::size_t>(it - blocks.begin()) : npos;
}

ControlFlow controlFlow(std::span<const std::uint32_t> code, std::span<const std::uint32_t> marks) {
  ControlFlow cfg;
  cfg.leader = blockLeaders(code, marks);
  for (const Instr& in : instructions(code)) {
    if (cfg.leader[in.pc]) cfg.blocks.push_back(BasicBlock{static_cast<std::uint32_t>(in.pc), 0, 0, in.op, {}});
    BasicBlock& b = cfg.blocks.back();  // offset 0 starts a block
    b.end = static_cast<std::uint32_t>(in.next());
    b.last = static_cast<std::uint32_t>(in.pc);
    b.lastOp = in.op;
  }
  for (std::size_t i = 0; i < cfg.blocks.size(); ++i) {
    BasicBlock& b = cfg.blocks[i];
    const int j = jumpOperand(b.lastOp);
    if (j >= 0) {
      const std::size_t to = cfg.blockAt(code[b.last + 1 + static_cast<std::size_t>(j)]);
      if (to != ControlFlow::npos) b.successors.push_back(static_cast<std::uint32_t>(to));
    }
    if (fallsThrough(b.lastOp) && i + 1 < cfg.blocks.size() && cfg.blocks[i + 1].begin == b.end)
      b.successors.push_back(static_cast<std::uint32_t>(i + 1));
  }
  return cfg;
}

}  // namespace star
