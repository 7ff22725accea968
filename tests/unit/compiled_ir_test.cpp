// The compiled tier's owned loops (vm/compile/CompiledIr.h, findOwnedLoops): which loops compiled
// code may run on each thread's words kept in registers, and what each keeps. The golden test
// tests/lang/compiled/owned_loop.star checks that running them changes no output or error.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/unit/support/StarTestUtil.h"
#include "vm/compile/CompiledIr.h"

namespace star {
namespace {

// The IR of `source`'s functions.
std::vector<compile::IrFunction> irOf(const std::string& source) {
  startest::TempDir dir;
  const auto c = startest::compileSource(dir, source);
  EXPECT_TRUE(c.ok) << c.diagnostics;
  std::vector<compile::FunctionCode> functions;
  for (const Function& f : c.module.functions) functions.push_back({f.name, f.code, f.numRegs});
  return compile::buildIr(functions, c.module.entry);
}

const compile::IrFunction& named(const std::vector<compile::IrFunction>& ir,
                                 const std::string& name) {
  const auto f = std::find_if(ir.begin(), ir.end(),
                              [&](const compile::IrFunction& x) { return x.name == name; });
  EXPECT_NE(f, ir.end()) << name;
  return *f;
}

TEST(OwnedLoops, ElementwiseLoopWithReductionIsOne) {
  const auto ir = irOf(R"(program P;
proc Least(var T: table; X: slice; f, len: integer; var Z: slice);
var Y: slice; q: integer;
begin
  Z := X;
  for q := f to f + len - 1 do
  begin
    Y := Z and not COL(q, T);
    if SOME(Y) then Z := Y
  end
end;
var T: table(10, 4); X, Z: slice(T);
begin SET(X); Least(T, X, 1, 4, Z); writeln(NUMB(Z)) end.
)");
  const compile::IrFunction& f = named(ir, "Least");
  ASSERT_EQ(f.loops.size(), 1u);
  const compile::OwnedLoop& l = f.loops[0];
  EXPECT_EQ(l.tables.size(), 1u);  // T, read only
  EXPECT_TRUE(l.tablesWritten.empty());
  EXPECT_TRUE(l.reads.empty());
  // Z (the var parameter), Y and the temporaries of `not COL(q, T)`; all written in the loop.
  EXPECT_EQ(l.vectors.size(), 4u);
  EXPECT_EQ(l.written.size(), 4u);
  // The two temporaries are written before they are read in every block; Z is read first, and Y
  // is read by `Z := Y` in a block that does not write it.
  EXPECT_EQ(l.defined, 2u);
  // The BCOPY before the loop is not in it; the loop's BSOME is.
  bool someInLoop = false;
  for (const compile::IrBlock& b : f.blocks)
    for (const compile::IrInstr& in : b.instrs) {
      if (in.op == Op::BSOME) someInLoop = in.loop == l.id;
      if (in.op == Op::BCOPY && in.pc == 0) {
        EXPECT_EQ(in.loop, 0u);
      }
    }
  EXPECT_TRUE(someInLoop);
}

TEST(OwnedLoops, ALoopWithACallARowReadOrASlicePutIsNot) {
  const auto ir = irOf(R"(program P;
proc Q(var X: slice); begin X := not X end;
var T: table(10, 4); X, Y: slice(T); w: word; i: integer;
begin
  for i := 1 to 3 do begin X := X and Y; Q(X) end;
  for i := 1 to 3 do begin X := X and Y; w := ROW(i, T) end;
  for i := 1 to 3 do begin X := X and Y; X(i) := 1 end;
  writeln(NUMB(X), LEN(w))
end.
)");
  EXPECT_TRUE(named(ir, "<main>").loops.empty());
}

TEST(OwnedLoops, TheOutermostLoopThatQualifiesIsTaken) {
  const auto ir = irOf(R"(program P;
var T: table(10, 4); X, Y: slice(T); i, j: integer;
begin
  for i := 1 to 3 do
    for j := 1 to 4 do X := X or COL(j, T);
  for i := 1 to 3 do
  begin
    for j := 1 to 4 do Y := Y xor COL(j, T);
    writeln(NUMB(Y))
  end
end.
)");
  const compile::IrFunction& f = named(ir, "<main>");
  // The first nest as one loop (the inner one inside it); of the second, only the inner loop
  // (the outer one writes).
  ASSERT_EQ(f.loops.size(), 2u);
  EXPECT_GT(f.loops[0].blocks.size(), f.loops[1].blocks.size());
  for (const compile::OwnedLoop& l : f.loops) EXPECT_EQ(l.tables.size(), 1u);
}

TEST(OwnedLoops, BitReadsAreRecordedAndAKeptVectorIsNeverRead) {
  const auto ir = irOf(R"(program P;
var T: table(10, 4); X, Z: slice(T); v: word; q, n: integer;
begin
  v := BIN(5, 4);
  for q := 1 to 4 do
    if v(q) = 1 then Z := Z and COL(q, T) else Z := Z and not COL(q, T);
  for q := 1 to 4 do
  begin
    Z := Z or X;
    if Z(q) = 1 then n := n + 1
  end;
  writeln(NUMB(Z), n)
end.
)");
  const compile::IrFunction& f = named(ir, "<main>");
  // The first loop reads v's bits (kept apart from its vectors); the second reads a bit of Z,
  // which it would keep: not an owned loop.
  ASSERT_EQ(f.loops.size(), 1u);
  ASSERT_EQ(f.loops[0].reads.size(), 1u);
  EXPECT_EQ(std::count(f.loops[0].vectors.begin(), f.loops[0].vectors.end(), f.loops[0].reads[0]),
            0);
}

TEST(OwnedLoops, PrintedInTheIr) {
  const auto ir = irOf(R"(program P;
var T: table(10, 4); X: slice(T); i: integer;
begin for i := 1 to 4 do X := X or COL(i, T); writeln(NUMB(X)) end.
)");
  const std::string text = compile::printIr(ir);
  EXPECT_NE(text.find("owned loop 1: header"), std::string::npos) << text;
  EXPECT_NE(text.find("[owned loop 1]"), std::string::npos) << text;
}

}  // namespace
}  // namespace star
