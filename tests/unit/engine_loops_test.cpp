// Which parallel loops the device engine runs itself (vm/interp/EngineLoops.cpp): exactly the
// column or row update `v := COL(i, T); v := v op x; COL(i, T) := v`, with its registers, op and
// form recorded; every other parallel body is left to the host's executor. And the same update
// as the host executors find it in a plan (vm/backend/FusedUpdate.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/unit/support/StarTestUtil.h"
#include "vm/backend/FusedUpdate.h"
#include "vm/bytecode/CallGraph.h"
#include "vm/interp/EngineLoops.h"

namespace star {
namespace {

// The engine's view of the one parallel loop of procedure Body, compiled from `body` (statements
// over `var T: table; x: word; s: slice; V, W: slice(T); u, y: word(T); i, a, b: integer`; names
// are case-blind).
engine::LoopInfo loopOf(const std::string& body, const ParallelLoop** loopOut = nullptr) {
  static startest::TempDir dir;
  const std::string source =
      "program P;\nvar G: table(4, 4);\n"
      "proc Body(var T: table; x: word; s: slice; a, b: integer);\n"
      "var V, W: slice(T); u, y: word(T); i: integer;\nbegin\n" +
      body + "\nend;\nbegin Body(G, ROW(1, G), COL(1, G), 1, 4) end.\n";
  static startest::Compiled c;
  c = startest::compileSource(dir, source, "prog.star", /*warnUnused=*/false);
  EXPECT_TRUE(c.ok) << c.diagnostics;
  for (const Function& f : c.module.functions) {
    if (f.name != "Body") continue;
    EXPECT_EQ(f.parallelLoops.size(), 1u) << body;
    if (f.parallelLoops.size() != 1) break;
    if (loopOut) *loopOut = &f.parallelLoops[0];
    return engineLoopOf(analyseParallelBody(c.module, f, f.parallelLoops[0]), f.parallelLoops[0]);
  }
  ADD_FAILURE() << "no procedure Body";
  return {};
}

TEST(EngineLoops, WarshallCColumnsUpdateIsTheEngines) {
  const ParallelLoop* loop = nullptr;
  const engine::LoopInfo info = loopOf(
      "W := COL(1, T); i := STEP(x); while i > 0 do begin V := COL(i, T); V := V or W; "
      "COL(i, T) := V; i := STEP(x) end",
      &loop);
  EXPECT_EQ(info.kind, engine::kLoopColumns);
  EXPECT_EQ(info.form, static_cast<std::uint32_t>(LoopForm::StepWhile));
  EXPECT_EQ(info.op, static_cast<std::uint32_t>(Op::BOR));
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(info.selector, loop->selector);
  EXPECT_EQ(info.index, loop->index);
  EXPECT_EQ(info.exit, loop->exit);
  EXPECT_EQ(info.table, 0u);  // T, the first parameter
  EXPECT_NE(info.update, info.temp);
  EXPECT_EQ(info.tempLiveOut, 0u);
}

TEST(EngineLoops, RowsUpdateInEveryFormAndOperator) {
  struct Case {
    const char* body;
    LoopForm form;
    Op op;
  };
  const Case cases[] = {
      {"forall i in s do begin u := ROW(i, T); u := u xor y; ROW(i, T) := u end", LoopForm::Forall,
       Op::BXOR},
      {"while SOME(s) do begin i := STEP(s); u := ROW(i, T); u := y and u; ROW(i, T) := u end",
       LoopForm::SomeStep, Op::BAND},
      {"for i := a to b do if s(i) = 1 then begin u := ROW(i, T); u := u or y; ROW(i, T) := u end",
       LoopForm::ForIf, Op::BOR},
  };
  for (const Case& c : cases) {
    const engine::LoopInfo info = loopOf(c.body);
    EXPECT_EQ(info.kind, engine::kLoopRows) << c.body;
    EXPECT_EQ(info.form, static_cast<std::uint32_t>(c.form)) << c.body;
    EXPECT_EQ(info.op, static_cast<std::uint32_t>(c.op)) << c.body;
  }
}

TEST(EngineLoops, VReadAfterTheLoopIsRecorded) {
  const engine::LoopInfo info =
      loopOf("forall i in x do begin V := COL(i, T); V := V or W; COL(i, T) := V end; W := V");
  EXPECT_EQ(info.kind, engine::kLoopColumns);
  EXPECT_EQ(info.tempLiveOut, 1u);
}

TEST(EngineLoops, OtherBodiesAreTheHosts) {
  const char* bodies[] = {
      // two updates
      "forall i in x do begin V := COL(i, T); V := V or W; V := V and W; COL(i, T) := V end",
      // the update with itself
      "forall i in x do begin V := COL(i, T); V := V or V; COL(i, T) := V end",
      // not a bitwise operator
      "forall i in x do begin V := COL(i, T); V := not V; COL(i, T) := V end",
      // a copy, no update
      "forall i in x do begin V := COL(i, T); COL(i, T) := V end",
      // the update and another statement
      "forall i in s do begin u := ROW(i, T); u := u or y; ROW(i, T) := u; a := i end",
  };
  for (const char* body : bodies) EXPECT_EQ(loopOf(body).kind, engine::kLoopHost) << body;
}

// Which functions may reach a loop the engine runs (reachesEngineLoops, over
// vm/bytecode/CallGraph.h), as the hand-over asks before it tells the engine it may size its team
// for whole tables (kFlagEngineLoopsReachable): Update has one, Via calls it, Other and Leaf do not reach one, and neither does
// the main body that calls only Other.
TEST(EngineLoops, OnlyCallersOfTheEnginesLoopsReachThem) {
  static startest::TempDir dir;
  const std::string units =
      "proc Update(var T: table; x: word);\nvar V, W: slice(T); i: integer;\n"
      "begin W := COL(1, T); forall i in x do begin V := COL(i, T); V := V or W; COL(i, T) := V end end;\n"
      "proc Via(var T: table); begin Update(T, ROW(1, T)) end;\n"
      "proc Leaf(var T: table); var i: integer;\n"
      "begin for i := 1 to COLS(T) do COL(i, T) := COL(1, T) end;\n"
      "proc Other(var T: table); begin Leaf(T); Leaf(T) end;\n";
  for (const bool callsVia : {false, true}) {
    const std::string source = "program P;\nvar G: table(4, 4);\n" + units + "begin Other(G)" +
                               (callsVia ? "; Via(G)" : "") + " end.\n";
    const startest::Compiled c = startest::compileSource(dir, source, "prog.star", /*warnUnused=*/false);
    ASSERT_TRUE(c.ok) << c.diagnostics;
    std::vector<engine::LoopInfo> loops;  // as the engine's program image lists them
    for (const Function& f : c.module.functions)
      for (const ParallelLoop& loop : f.parallelLoops)
        loops.push_back(engineLoopOf(analyseParallelBody(c.module, f, loop), loop));
    const std::vector<bool> reaches = reachesEngineLoops(c.module, loops);
    ASSERT_EQ(reaches.size(), c.module.functions.size());
    int named = 0;
    for (std::uint32_t fi = 0; fi < c.module.functions.size(); ++fi) {
      const std::string& name = c.module.functions[fi].name;
      if (name == "Update" || name == "Via") {
        EXPECT_TRUE(reaches[fi]) << name;
        ++named;
      } else if (name == "Leaf" || name == "Other") {
        EXPECT_FALSE(reaches[fi]) << name;
        ++named;
      }
    }
    EXPECT_EQ(named, 4);  // every procedure was looked at
    EXPECT_EQ(reaches[c.module.entry], callsVia) << source;
  }
}

TEST(CallGraph, CalleesAreReadFromTheCodeAndBadCodeReaches) {
  static startest::TempDir dir;
  const startest::Compiled c = startest::compileSource(
      dir, "program P;\nproc A; begin writeln(1) end;\nproc B; begin A; A end;\nbegin B end.\n",
      "prog.star", /*warnUnused=*/false);
  ASSERT_TRUE(c.ok) << c.diagnostics;
  Module m = c.module;
  std::uint32_t a = 0, b = 0;
  for (std::uint32_t fi = 0; fi < m.functions.size(); ++fi) {
    if (m.functions[fi].name == "A") a = fi;
    if (m.functions[fi].name == "B") b = fi;
  }
  const auto callees = calleesOf(m, b);
  ASSERT_TRUE(callees.has_value());
  EXPECT_EQ(*callees, (std::vector<std::uint32_t>{a, a}));
  EXPECT_EQ(*calleesOf(m, m.entry), std::vector<std::uint32_t>{b});
  std::vector<bool> none(m.functions.size(), false);
  EXPECT_FALSE(reachingFunctions(m, none)[m.entry]);
  // A cut instruction in A: nothing can be proved of it, so it and its callers reach.
  m.functions[a].code.push_back(static_cast<std::uint32_t>(Op::CALL));
  EXPECT_FALSE(calleesOf(m, a).has_value());
  const std::vector<bool> reaches = reachingFunctions(m, none);
  EXPECT_TRUE(reaches[a]);
  EXPECT_TRUE(reaches[b]);
  EXPECT_TRUE(reaches[m.entry]);
  EXPECT_FALSE(calleesOf(m, static_cast<std::uint32_t>(m.functions.size())).has_value());
}

// The backends' executors fuse the same update in a plan (vm/backend/FusedUpdate.h).
namespace plans {

PlanOperand priv(std::uint32_t slot) { return {Source::Private, slot, kNoHandle, 0}; }
PlanOperand shared(Handle h) { return {Source::Shared, 0, h, 0}; }
PlanOperand index() { return {Source::Index, 0, kNoHandle, 0}; }

// v := COL(i, T); v := v op x; COL(i, T) := v, with T = handle 7 and x = handle 9.
ParallelPlan columnUpdate(Op op = Op::BOR) {
  ParallelPlan p;
  p.ops.push_back({Op::TGETCOL, 0, {priv(0), shared(7), index(), {}}, 0});
  p.ops.push_back({op, 1, {priv(0), priv(0), shared(9), {}}, 0});
  p.ops.push_back({Op::TSETCOL, 2, {shared(7), index(), priv(0), {}}, 0});
  p.bitsSlotLength = {4};
  return p;
}

}  // namespace plans

TEST(FusedUpdate, FindsTheColumnUpdateAndItsOperands) {
  ParallelPlan p = plans::columnUpdate(Op::BXOR);
  auto u = fusedUpdateAt(p, 0);
  ASSERT_TRUE(u.has_value());
  EXPECT_TRUE(u->columns);
  EXPECT_EQ(u->op, Op::BXOR);
  EXPECT_EQ(u->table, 7u);
  EXPECT_EQ(u->x->handle, 9u);
  EXPECT_FALSE(u->keep);
  EXPECT_FALSE(fusedUpdateAt(p, 1).has_value());  // not at the start of the three
  // x on the left of op is the same update.
  std::swap(p.ops[1].a[1], p.ops[1].a[2]);
  ASSERT_TRUE(fusedUpdateAt(p, 0).has_value());
  EXPECT_EQ(fusedUpdateAt(p, 0)->x->handle, 9u);
}

TEST(FusedUpdate, KeepsVWhenReadLaterOrAfterTheLoop) {
  ParallelPlan p = plans::columnUpdate();
  p.ops.push_back({Op::BNUMB, 3, {{Source::Private, 1, kNoHandle, 0}, plans::priv(0), {}, {}}, 0});
  EXPECT_TRUE(fusedUpdateAt(p, 0)->keep);
  ParallelPlan q = plans::columnUpdate();
  q.liveOut.push_back({true, 0, 5});
  EXPECT_TRUE(fusedUpdateAt(q, 0)->keep);
}

TEST(FusedUpdate, RejectsWhatIsNotTheUpdate) {
  ParallelPlan other = plans::columnUpdate(Op::BAND);
  other.ops[1].op = Op::BCOPY;  // not AND, OR or XOR
  EXPECT_FALSE(fusedUpdateAt(other, 0).has_value());
  ParallelPlan mixed = plans::columnUpdate();
  mixed.ops[2].op = Op::TSETROW;  // COL read, ROW written
  EXPECT_FALSE(fusedUpdateAt(mixed, 0).has_value());
  ParallelPlan twoTables = plans::columnUpdate();
  twoTables.ops[2].a[0] = plans::shared(8);
  EXPECT_FALSE(fusedUpdateAt(twoTables, 0).has_value());
  ParallelPlan selfOp = plans::columnUpdate();
  selfOp.ops[1].a[2] = plans::priv(0);  // v op v
  EXPECT_FALSE(fusedUpdateAt(selfOp, 0).has_value());
  ParallelPlan sharedIndex = plans::columnUpdate();
  sharedIndex.ops[0].a[2] = {Source::None, 0, kNoHandle, 2};  // COL(2, T), not COL(i, T)
  EXPECT_FALSE(fusedUpdateAt(sharedIndex, 0).has_value());
  // A jump into the middle of the three: some iterations would run only part of it.
  ParallelPlan jumpIn;
  jumpIn.ops.push_back({Op::JMPF, 0, {plans::priv(1), {}, {}, {}}, 4});  // past the three
  for (const PlanOp& o : plans::columnUpdate().ops) jumpIn.ops.push_back(o);
  EXPECT_TRUE(fusedUpdateAt(jumpIn, 1).has_value());
  for (std::uint32_t inside : {2u, 3u}) {
    jumpIn.ops[0].target = inside;
    EXPECT_FALSE(fusedUpdateAt(jumpIn, 1).has_value()) << inside;
  }
}

}  // namespace
}  // namespace star
