// The decoder (vm/bytecode/Decode.h) and the control-flow graph (vm/bytecode/ControlFlow.h) on
// hand-built code, well formed and not (an unknown opcode, an instruction cut short by the end of
// the code, jumps outside the code); the verifier's blocks and the parallel-loop liveness pass
// that are built on them.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/unit/support/VerifyError.h"
#include "vm/bytecode/CallGraph.h"
#include "vm/bytecode/ControlFlow.h"
#include "vm/bytecode/Decode.h"
#include "vm/bytecode/Verifier.h"
#include "vm/interp/ParallelBody.h"

namespace star {
namespace {

constexpr std::uint32_t op(Op o) { return static_cast<std::uint32_t>(o); }

// 0: LOADI R0, 1       3: JMPF R0, ->12    6: LOADI R1, 2     9: JMP ->15     11: RET
// 12: LOADI R1, 3      15: RET             16: LOADI R2, 4    19: HALT
const std::vector<std::uint32_t> kCode = {
    op(Op::LOADI), 0, 1, op(Op::JMPF), 0, 12, op(Op::LOADI), 1, 2, op(Op::JMP), 15, op(Op::RET),
    op(Op::LOADI), 1, 3, op(Op::RET), op(Op::LOADI), 2, 4, op(Op::HALT)};

std::vector<std::size_t> pcsOf(InstrRange range) {
  std::vector<std::size_t> pcs;
  for (const Instr& in : range) pcs.push_back(in.pc);
  return pcs;
}

TEST(Decode, WellFormedCode) {
  std::vector<Instr> seen;
  const DecodeStop stop = forEachInstruction(kCode, [&](const Instr& in) { seen.push_back(in); });
  EXPECT_EQ(stop.status, DecodeStatus::End);
  EXPECT_EQ(stop.pc, kCode.size());
  ASSERT_EQ(seen.size(), 9u);
  EXPECT_EQ(seen[1].pc, 3u);
  EXPECT_EQ(seen[1].op, Op::JMPF);
  EXPECT_EQ(seen[1].size, 3u);
  EXPECT_EQ(seen[1].next(), 6u);
  EXPECT_EQ(seen[1].operands, kCode.data() + 4);
  EXPECT_EQ(seen[1].operands[1], 12u);
  EXPECT_EQ(seen[1].shape(), "rj");
  EXPECT_EQ(seen[4].op, Op::RET);
  EXPECT_EQ(seen[4].size, 1u);
  EXPECT_EQ(pcsOf(instructions(kCode)), (std::vector<std::size_t>{0, 3, 6, 9, 11, 12, 15, 16, 19}));
  // A range: the instructions that start in [begin, end).
  EXPECT_EQ(pcsOf(instructions(kCode, 3, 11)), (std::vector<std::size_t>{3, 6, 9}));
  EXPECT_EQ(pcsOf(instructions(kCode, 3, 10)), (std::vector<std::size_t>{3, 6, 9}));
  EXPECT_TRUE(pcsOf(instructions(kCode, 20)).empty());
  EXPECT_TRUE(pcsOf(instructions(kCode, 1000, 2000)).empty());
  EXPECT_TRUE(pcsOf(instructions({})).empty());
  EXPECT_EQ(forEachInstruction({}, [](const Instr&) {}).status, DecodeStatus::End);
}

TEST(Decode, JumpOperands) {
  EXPECT_EQ(jumpOperand(Op::JMP), 0);
  EXPECT_EQ(jumpOperand(Op::JMPF), 1);
  EXPECT_EQ(jumpOperand(Op::JMPT), 1);
  EXPECT_EQ(jumpOperand(Op::RET), -1);
  EXPECT_EQ(jumpOperand(Op::CALL), -1);
  for (std::uint32_t o = 0; o < kOpCount; ++o) {
    const Op x = static_cast<Op>(o);
    EXPECT_EQ(isJump(x), x == Op::JMP || x == Op::JMPF || x == Op::JMPT) << opInfo(x).name;
  }
}

TEST(Decode, StopsSafelyOnMalformedCode) {
  // An instruction cut short by the end of the code: nothing is read past it.
  const std::vector<std::uint32_t> cut = {op(Op::LOADI), 0, 1, op(Op::IADD), 0, 1};
  std::vector<std::size_t> pcs;
  DecodeStop stop = forEachInstruction(cut, [&](const Instr& in) { pcs.push_back(in.pc); });
  EXPECT_EQ(pcs, std::vector<std::size_t>{0});
  EXPECT_EQ(stop.status, DecodeStatus::Truncated);
  EXPECT_EQ(stop.pc, 3u);
  EXPECT_EQ(stop.instr.op, Op::IADD);
  EXPECT_EQ(stop.instr.next(), 7u);  // where it would end
  EXPECT_EQ(pcsOf(instructions(cut)), std::vector<std::size_t>{0});
  for (std::size_t n = 0; n < cut.size(); ++n) {  // every prefix, from a copy of exactly n words
    const std::vector<std::uint32_t> prefix(cut.begin(), cut.begin() + static_cast<std::ptrdiff_t>(n));
    stop = forEachInstruction(prefix, [](const Instr&) {});
    EXPECT_EQ(stop.status, n == 0 || n == 3 ? DecodeStatus::End : DecodeStatus::Truncated) << n;
    EXPECT_EQ(stop.pc, n < 3 ? 0u : 3u) << n;
    EXPECT_LE(pcsOf(instructions(prefix)).size(), 1u);
  }
  // A lone opcode that takes operands.
  stop = forEachInstruction(std::vector<std::uint32_t>{op(Op::JMP)}, [](const Instr&) {});
  EXPECT_EQ(stop.status, DecodeStatus::Truncated);
  EXPECT_EQ(stop.instr.next(), 2u);
  // An unknown opcode.
  const std::vector<std::uint32_t> unknown = {op(Op::WRITELN), kOpCount, op(Op::HALT)};
  stop = forEachInstruction(unknown, [](const Instr&) {});
  EXPECT_EQ(stop.status, DecodeStatus::UnknownOpcode);
  EXPECT_EQ(stop.pc, 1u);
  EXPECT_EQ(pcsOf(instructions(unknown)), std::vector<std::size_t>{0});
  const std::vector<std::uint32_t> huge = {0xffffffffu};
  EXPECT_EQ(forEachInstruction(huge, [](const Instr&) {}).status, DecodeStatus::UnknownOpcode);
}

TEST(ControlFlow, LeadersAndTheirReasons) {
  const std::vector<std::uint8_t> leader = blockLeaders(kCode);
  ASSERT_EQ(leader.size(), kCode.size() + 1);
  std::vector<std::uint8_t> want(kCode.size() + 1, 0);
  want[0] = kLeaderEntry;
  want[6] = kLeaderAfterJump;
  want[11] = kLeaderAfterJump;
  want[12] = kLeaderTarget | kLeaderAfterEnd;
  want[15] = kLeaderTarget;
  want[16] = kLeaderAfterEnd;
  want[20] = kLeaderAfterEnd;
  EXPECT_EQ(leader, want);
  const std::uint32_t marks[] = {9, 3, 21, 1000};  // past the end: ignored
  const std::vector<std::uint8_t> marked = blockLeaders(kCode, marks);
  want[9] |= kLeaderMarked;
  want[3] |= kLeaderMarked;
  EXPECT_EQ(marked, want);
}

TEST(ControlFlow, BlocksAndSuccessors) {
  const ControlFlow cfg = controlFlow(kCode);
  ASSERT_EQ(cfg.blocks.size(), 6u);
  struct Want {
    std::uint32_t begin, end, last;
    Op lastOp;
    std::vector<std::uint32_t> successors;
  };
  const std::vector<Want> want = {
      {0, 6, 3, Op::JMPF, {3, 1}}, {6, 11, 9, Op::JMP, {4}}, {11, 12, 11, Op::RET, {}},
      {12, 15, 12, Op::LOADI, {4}}, {15, 16, 15, Op::RET, {}}, {16, 20, 19, Op::HALT, {}}};
  for (std::size_t b = 0; b < want.size(); ++b) {
    const BasicBlock& got = cfg.blocks[b];
    EXPECT_EQ(got.begin, want[b].begin) << b;
    EXPECT_EQ(got.end, want[b].end) << b;
    EXPECT_EQ(got.last, want[b].last) << b;
    EXPECT_EQ(got.lastOp, want[b].lastOp) << b;
    EXPECT_EQ(got.successors, want[b].successors) << b;
    EXPECT_EQ(got.leaves(), want[b].lastOp == Op::RET || want[b].lastOp == Op::HALT) << b;
    EXPECT_EQ(cfg.blockAt(want[b].begin), b);
  }
  EXPECT_EQ(cfg.blockAt(3), ControlFlow::npos);   // inside block 0
  EXPECT_EQ(cfg.blockAt(13), ControlFlow::npos);  // inside an instruction
  EXPECT_EQ(cfg.blockAt(20), ControlFlow::npos);  // the end
  // A mark splits a block; control falls through from the first half into the second.
  const std::uint32_t marks[] = {9};
  const ControlFlow split = controlFlow(kCode, marks);
  ASSERT_EQ(split.blocks.size(), 7u);
  EXPECT_EQ(split.blocks[1].begin, 6u);
  EXPECT_EQ(split.blocks[1].end, 9u);
  EXPECT_EQ(split.blocks[1].successors, std::vector<std::uint32_t>{2});
  EXPECT_EQ(split.blocks[0].successors, (std::vector<std::uint32_t>{4, 1}));
}

TEST(ControlFlow, MalformedCode) {
  // Jumps outside the code, and into the middle of an instruction: no block, no successor.
  const std::vector<std::uint32_t> wild = {op(Op::JMPT), 0, 1000, op(Op::JMP), 7, op(Op::LOADI), 0, 1, op(Op::RET)};
  const ControlFlow cfg = controlFlow(wild);
  EXPECT_EQ(cfg.leader[7], kLeaderTarget);
  ASSERT_EQ(cfg.blocks.size(), 3u);
  EXPECT_EQ(cfg.blocks[0].successors, std::vector<std::uint32_t>{1});  // falls through only
  EXPECT_TRUE(cfg.blocks[1].successors.empty());
  EXPECT_EQ(cfg.blocks[2].begin, 5u);
  EXPECT_EQ(cfg.blocks[2].end, 9u);
  // Cut short: the graph covers the instructions before the malformed one.
  const std::vector<std::uint32_t> cut = {op(Op::LOADI), 0, 1, op(Op::JMPF), 0};
  const ControlFlow c2 = controlFlow(cut);
  EXPECT_EQ(c2.leader.size(), cut.size() + 1);
  ASSERT_EQ(c2.blocks.size(), 1u);
  EXPECT_EQ(c2.blocks[0].end, 3u);
  EXPECT_TRUE(c2.blocks[0].successors.empty());
  EXPECT_TRUE(controlFlow(std::vector<std::uint32_t>{op(Op::JMP)}).blocks.empty());
  EXPECT_TRUE(controlFlow(std::vector<std::uint32_t>{kOpCount, op(Op::RET)}).blocks.empty());
  EXPECT_TRUE(controlFlow({}).blocks.empty());
  EXPECT_EQ(controlFlow({}).leader, std::vector<std::uint8_t>{kLeaderEntry});
}

Module moduleOf(std::vector<std::uint32_t> code, std::uint32_t numRegs) {
  Module m;
  m.files = {"x.star"};
  Function f;
  f.name = "<main>";
  f.numRegs = numRegs;
  f.code = std::move(code);
  f.locs.assign(f.code.size(), SourceLoc{0, 1, 1});
  m.functions.push_back(std::move(f));
  return m;
}

using test_support::verifyError;

TEST(ControlFlow, VerifierOnMalformedCode) {
  EXPECT_EQ(verifyError(moduleOf({op(Op::LOADI), 0, 1, op(Op::IADD), 0, 1}, 2)),
            "invalid bytecode in function '<main>' at 7: truncated instruction");
  EXPECT_EQ(verifyError(moduleOf({op(Op::WRITELN), 200, op(Op::HALT)}, 2)),
            "invalid bytecode in function '<main>' at 1: unknown opcode 200");
  EXPECT_EQ(verifyError(moduleOf({op(Op::JMP), 1}, 2)),
            "invalid bytecode in function '<main>' at 0: jump target is not an instruction");
  EXPECT_EQ(verifyError(moduleOf(kCode, 3)), "");
}

// A polymorphic register's kind is forgotten at every block the verifier starts: at a jump target
// and after a jump, not after RET or HALT (code there that no jump reaches never runs).
TEST(ControlFlow, VerifierBlocks) {
  // 0: MKREF R1, R0   3: RET   4: LDREF R2, R1   7: RET
  EXPECT_EQ(verifyError(moduleOf({op(Op::MKREF), 1, 0, op(Op::RET), op(Op::LDREF), 2, 1, op(Op::RET)}, 3)), "");
  // 0: MKREF R1, R0   3: JMP ->5   5: LDREF R2, R1   8: RET
  EXPECT_EQ(verifyError(moduleOf({op(Op::MKREF), 1, 0, op(Op::JMP), 5, op(Op::LDREF), 2, 1, op(Op::RET)}, 3)),
            "invalid bytecode in function '<main>' at 5: operand R1 holds no known value, not a reference");
}

// Liveness over the graph (ParallelBody.h, liveAtExit): registers live where a loop's exit is.
TEST(ControlFlow, LivenessAtAnExit) {
  // 0: LOADI R1, 5   3: JMPF R0, ->10   6: IADD R2, R1, R1   10: RET (result R2)
  Module m = moduleOf({op(Op::LOADI), 1, 5, op(Op::JMPF), 0, 10, op(Op::IADD), 2, 1, 1, op(Op::RET)}, 3);
  Function& f = m.functions[0];
  f.resultReg = 2;
  using Live = std::vector<std::uint8_t>;
  EXPECT_EQ(liveAtExit(m, f, 0), (Live{1, 0, 1}));
  EXPECT_EQ(liveAtExit(m, f, 3), (Live{1, 1, 1}));   // not a block start but for the exit
  EXPECT_EQ(liveAtExit(m, f, 6), (Live{0, 1, 0}));
  EXPECT_EQ(liveAtExit(m, f, 10), (Live{0, 0, 1}));
  EXPECT_EQ(liveAtExit(m, f, 11), (Live{1, 1, 1}));  // no block there: everything
}

TEST(ControlFlow, CallGraphOnMalformedCode) {
  Module m = moduleOf({op(Op::CALL), 0, 0, 0, op(Op::RET)}, 1);
  EXPECT_EQ(calleesOf(m, 0), std::vector<std::uint32_t>{0});
  m.functions[0].code = {op(Op::RET), op(Op::CALL), 0, 0};  // cut short
  EXPECT_FALSE(calleesOf(m, 0).has_value());
  m.functions[0].code = {op(Op::RET), kOpCount};
  EXPECT_FALSE(calleesOf(m, 0).has_value());
  m.functions[0].code = {op(Op::CALL), 1, 0, 0, op(Op::RET)};  // no function 1
  EXPECT_FALSE(calleesOf(m, 0).has_value());
}

}  // namespace
}  // namespace star
