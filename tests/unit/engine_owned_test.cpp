// Compiled code's owned instructions (vm/engine/EngineCore.h): element-wise instructions on bit
// vectors and table columns run back to back without a team-wide barrier, and the team meets
// exactly where a thread could otherwise read a word another thread wrote, or write one another
// read. A one-thread team that counts its barriers drives Core::team as generated code does.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "vm/engine/EngineCompiled.h"

namespace star::engine {
namespace {

// One thread; counts syncData (the team-wide barrier) and reductions.
struct CountingTeam {
  int dataBarriers = 0, reductions = 0;
  Ctl slots[2]{};
  bool leader() const { return true; }
  bool teamFirst() const { return true; }
  std::uint64_t rank() const { return 0; }
  std::uint64_t size() const { return 1; }
  std::uint64_t blockRank() const { return 0; }
  std::uint64_t blockSize() const { return 1; }
  void syncBlock() {}
  void syncData() { ++dataBarriers; }
  std::uint64_t reduceMin(std::uint64_t v) { return ++reductions, v; }
  std::uint64_t reduceSum(std::uint64_t v) { return ++reductions, v; }
  bool reduceOr(bool v) { return ++reductions, v; }
  Ctl* ctl() { return slots; }
  bool interrupted() const { return false; }
};

// Handles 1-4: slices of 100 rows; 5: a table of 100 rows and 8 columns; 6: a word of 8 bits.
class OwnedInstructions : public ::testing::Test {
 protected:
  static constexpr std::uint32_t X = 1, Y = 2, Z = 3, W = 4, T = 5, V = 6;
  OwnedInstructions() : bits(7 * 16, 0) {
    header.handles = 7;
    shapes.resize(7, Shape{});
    for (std::uint32_t h = X; h <= W; ++h) shapes[h] = Shape{&bits[h * 16], 100, 1, 2, 1, 0};
    tableWords.assign(8 * 2, 0);
    shapes[T] = Shape{tableWords.data(), 100, 8, tableWords.size(), 2, 0};
    shapes[V] = Shape{&bits[6 * 16], 8, 1, 1, 1, 0};
    region.h = &header;
    region.shapes = shapes.data();
    core.emplace(team, program, region, /*compiled=*/true);
  }
  StopReason run(Op op, Word a, Word b = 0, Word c = 0) {
    Values v{{a, b, c, 0}, {0, 0, 0, 0}};
    return core->team(op, v);
  }

  std::vector<Word> bits, tableWords;
  std::vector<Shape> shapes;
  Header header{};
  Region region{};
  Program program{};
  CountingTeam team;
  std::optional<Core<CountingTeam>> core;  // after the region is set up (it copies it)
};

TEST_F(OwnedInstructions, ElementWiseRunsWithoutBarriers) {
  ASSERT_EQ(run(Op::BAND, Z, X, Y), StopReason::None);
  ASSERT_EQ(run(Op::BNOT, Z, Z), StopReason::None);
  ASSERT_EQ(run(Op::TGETCOL, W, T, 3), StopReason::None);
  ASSERT_EQ(run(Op::BOR, Z, Z, W), StopReason::None);
  ASSERT_EQ(run(Op::TSETCOL, T, 2, Z), StopReason::None);
  ASSERT_EQ(run(Op::BCOPY, Y, Z), StopReason::None);
  EXPECT_EQ(team.dataBarriers, 0);
  // The results are the instructions': Z = not (X and Y) or column 3 = all ones.
  EXPECT_EQ(bits[Z * 16], ~Word{0});
  EXPECT_EQ(tableWords[1 * 2], ~Word{0});
}

TEST_F(OwnedInstructions, AnInstructionThatIsNotOwnedMeetsFirst) {
  run(Op::BAND, Z, X, Y);
  ASSERT_EQ(run(Op::TGETROW, V, T, 5), StopReason::None);  // reads words of every column
  EXPECT_EQ(team.dataBarriers, 2);                         // before it, and its own after
  run(Op::BAND, Z, X, Y);
  run(Op::BSTEP, Z, Z);  // writes a word another thread owns
  EXPECT_EQ(team.dataBarriers, 4);
}

TEST_F(OwnedInstructions, NoBarrierWhenNothingIsPending) {
  ASSERT_EQ(run(Op::TGETROW, V, T, 5), StopReason::None);
  EXPECT_EQ(team.dataBarriers, 1);  // its own only
}

TEST_F(OwnedInstructions, BitReadsMeetOwnedWritesOfTheSameHandleOnly) {
  run(Op::BAND, Z, X, Y);
  core->beforeSharedRead(V);  // nothing wrote V
  EXPECT_EQ(team.dataBarriers, 0);
  core->beforeSharedRead(Z);  // Z was written by its owners
  EXPECT_EQ(team.dataBarriers, 1);
}

TEST_F(OwnedInstructions, AnOwnedWriteWaitsForEveryThreadsRead) {
  core->beforeSharedRead(X);
  run(Op::BAND, Z, X, Y);  // reads X: no conflict
  EXPECT_EQ(team.dataBarriers, 0);
  run(Op::BNOT, X, Z);  // writes X, which every thread read
  EXPECT_EQ(team.dataBarriers, 1);
}

TEST_F(OwnedInstructions, AReductionSettlesEverything) {
  run(Op::BAND, Z, X, Y);
  core->beforeSharedRead(X);
  Values v{{0, Z, 0, 0}, {0, 0, 0, 0}};
  ASSERT_EQ(core->team(Op::BSOME, v), StopReason::None);
  EXPECT_EQ(team.reductions, 1);
  run(Op::BNOT, X, Z);        // X was read before the reduction's barriers
  core->beforeSharedRead(Z);  // Z was written before them
  run(Op::TGETROW, V, T, 1);
  EXPECT_EQ(team.dataBarriers, 2);  // TGETROW's own, and before it for BNOT's write
}

TEST_F(OwnedInstructions, TheInterpreterKeepsItsBarriers) {
  Core<CountingTeam> interpreter{team, program, region, /*compiled=*/false};
  Values v{{Z, X, Y, 0}, {0, 0, 0, 0}};
  interpreter.team(Op::BAND, v);
  interpreter.team(Op::BAND, v);
  EXPECT_EQ(team.dataBarriers, 2);
}

TEST_F(OwnedInstructions, SettleMeetsOnceThenNothingIsPending) {
  run(Op::BAND, Z, X, Y);
  core->settle();
  core->settle();
  EXPECT_EQ(team.dataBarriers, 1);
}

}  // namespace
}  // namespace star::engine

namespace star::engine {
namespace {

// Opcodes.def's o and v flags name instructions on the bits only (the team runs them), and no
// instruction is both.
TEST(OwnedFlags, OnlyTeamInstructionsAreOwned) {
  int owned = 0;
  for (std::uint32_t o = 0; o < kOpCount; ++o) {
    const Op op = static_cast<Op>(o);
    if (!isOwnedWrite(op) && !isOwnedReduction(op)) continue;
    ++owned;
    EXPECT_TRUE(isTeamOp(op)) << opInfo(op).name;
    EXPECT_FALSE(isOwnedWrite(op) && isOwnedReduction(op)) << opInfo(op).name;
  }
  EXPECT_EQ(owned, 13);
  EXPECT_TRUE(isOwnedWrite(Op::TSETCOL));
  EXPECT_FALSE(isOwnedWrite(Op::TSETROW));    // a row's bit of every column: another thread's word
  EXPECT_FALSE(isOwnedReduction(Op::BSTEP));  // clears a bit another thread owns
}

}  // namespace
}  // namespace star::engine
