// The interpreter on the CPU backend: program output, runtime errors with their message and
// source location, parameter passing, recovery after an error, and no allocation in the
// steady-state column loop.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <deque>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "tests/unit/support/StarTestUtil.h"

#include "tests/unit/support/AllocationCounter.h"

namespace star {
namespace {

using startest::Compiled;
using startest::RunResult;

class Interp : public ::testing::Test {
 protected:
  Compiled compile(const std::string& source) {
    Compiled c = startest::compileSource(dir, source, "prog" + std::to_string(++count_) + ".star",
                                         /*warnUnused=*/false);
    EXPECT_TRUE(c.ok) << c.diagnostics;
    return c;
  }
  // Compiles a program and runs it on a fresh interpreter (one interpreter runs one module, or
  // the same module grown by the REPL: its global slots are the module's); a compile failure
  // gives an error result.
  RunResult run(const std::string& source, std::vector<std::string> args = {}) {
    return runOn(fresh_.emplace_back(), source, std::move(args));
  }
  // The same on a given interpreter.
  RunResult runOn(startest::Vm& on, const std::string& source, std::vector<std::string> args = {}) {
    Compiled c = compile(source);
    if (!c.ok) return RunResult{"", "did not compile", {}};
    modules_.push_back(std::move(c.module));  // the interpreter may point into the module
    return on.run(modules_.back(), std::move(args));
  }
  // Expects a runtime error `message` at line:col.
  void expectError(const RunResult& r, const std::string& message, std::uint32_t line,
                   std::uint32_t col) {
    ASSERT_TRUE(r.error) << "no runtime error; output: " << r.output;
    EXPECT_EQ(*r.error, message);
    EXPECT_EQ(r.loc.line, line) << *r.error;
    EXPECT_EQ(r.loc.col, col) << *r.error;
  }

  startest::TempDir dir;
  startest::Vm vm;
  std::deque<startest::Vm> fresh_;
  std::deque<Module> modules_;  // stable addresses: string values point into a module
  int count_ = 0;
};

// ------------------------------------------------------------------ output

TEST_F(Interp, WritesValuesOfEveryType) {
  RunResult r = run(
      "program w;\n"
      "var T: table(2, 3); s: slice(4);\n"
      "begin\n"
      "  ROW(2, T) := %101; s(2) := 1;\n"
      "  writeln(42, ' ', -7, ' ', true, ' ', false, ' ', 'text', ' ', 2.5, ' ', 3.0);\n"
      "  writeln(s, ' ', %0011, ' ', 7 div 2, ' ', -7 mod 2, ' ', 1 / 4);\n"
      "  writeln(T);\n"
      "  write('no newline')\n"
      "end.\n");
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(r.output,
            "42 -7 true false text 2.5 3.0\n"
            "0100 0011 3 -1 0.25\n"
            "000\n101\n"
            "no newline");
}

TEST_F(Interp, ControlFlow) {
  RunResult r = run(
      "program c;\n"
      "var i, j, s: integer;\n"
      "begin\n"
      "  s := 0;\n"
      "  for i := 1 to 10 do begin if i mod 2 = 0 then continue; if i > 7 then break; s := s + i end;\n"
      "  writeln(s);\n"                                 // 1 + 3 + 5 + 7 = 16
      "  for i := 3 downto 1 do write(i); writeln;\n"
      "  for i := 1 to 0 do write('never'); writeln(i);\n"  // an empty range leaves i alone
      "  j := 0; repeat j := j + 2 until j >= 5; writeln(j);\n"
      "  while j > 0 do j := j - 4; writeln(j);\n"
      "  for i := 9223372036854775806 to 9223372036854775807 do write('.'); writeln\n"
      "end.\n");
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(r.output, "16\n321\n1\n6\n-2\n..\n");
}

// ------------------------------------------------------------------ runtime errors

TEST_F(Interp, IndexOutOfRange) {
  // Writing a component: located at the ':='.
  expectError(run("program e;\nvar s: slice(4); i: integer;\nbegin\n  i := 5;\n  s(i) := 1\nend.\n"),
              "index 5 is out of range 1..4", 5, 8);
  // Reading a component: located at the name.
  expectError(run("program e;\nvar s: slice(4); i: integer;\nbegin\n  i := 0;\n  i := s(i) + 1\nend.\n"),
              "index 0 is out of range 1..4", 5, 8);
  expectError(run("program e;\nvar z: slice;\nbegin\n  z(1) := 1\nend.\n"),
              "index 1 is out of range (it has no components)", 4, 8);
  expectError(run("program e;\nvar T: table(3, 2); V: slice; j: integer;\n"
                  "begin\n  j := 3;\n  V := COL(j, T)\nend.\n"),
              "column 3 is out of range 1..2", 5, 8);
  expectError(run("program e;\nvar T: table(3, 2); j: integer;\n"
                  "begin\n  j := 4;\n  ROW(j, T) := %11\nend.\n"),
              "row 4 is out of range 1..3", 5, 13);
  expectError(run("program e;\nvar w: word; v: word; i: integer;\n"
                  "begin\n  w := %1010; i := 5;\n  v := TRIM(2, i, w)\nend.\n"),
              "TRIM end 5 is out of range 1..4", 5, 8);
}

TEST_F(Interp, SizeMismatch) {
  expectError(run("program e;\nvar a: word(3); b: word;\nbegin\n  b := %1011;\n  a := b\nend.\n"),
              "size mismatch: cannot store 4 bits in a variable of 3 bits", 5, 5);
  expectError(run("program e;\nvar a, b, c: word;\nbegin\n  a := %101; b := %1011;\n"
                  "  c := a and b\nend.\n"),
              "size mismatch: 'and' of 3 bits and 4 bits", 5, 10);
  expectError(run("program e;\nvar T: table(3, 2); w: word;\nbegin\n  w := %111;\n"
                  "  ROW(1, T) := w\nend.\n"),
              "size mismatch: the table has 2 columns but the word has 3 bits", 5, 13);
  expectError(run("program e;\nvar v, w: word;\nbegin\n  v := %10; w := %110;\n"
                  "  if LESS(v, w) then writeln\nend.\n"),
              "size mismatch: comparison of 2 bits and 3 bits", 5, 6);
}

TEST_F(Interp, DivisionByZero) {
  expectError(run("program e;\nvar i, j: integer;\nbegin\n  i := 0;\n  j := 5 div i\nend.\n"),
              "division by zero", 5, 10);
  expectError(run("program e;\nvar i, j: integer;\nbegin\n  i := 0;\n  j := 5 mod i\nend.\n"),
              "division by zero", 5, 10);
}

TEST_F(Interp, IntegerOverflow) {
  expectError(run("program e;\nvar i: integer;\nbegin\n  i := 9223372036854775807;\n  i := i + 1\nend.\n"),
              "integer overflow in '+'", 5, 10);
  expectError(run("program e;\nvar i: integer;\nbegin\n  i := -9223372036854775808;\n  i := i - 1\nend.\n"),
              "integer overflow in '-'", 5, 10);
  expectError(run("program e;\nvar i: integer;\nbegin\n  i := 4294967296;\n  i := i * i\nend.\n"),
              "integer overflow in '*'", 5, 10);
  expectError(run("program e;\nvar i: integer;\nbegin\n  i := -9223372036854775808;\n  i := -i\nend.\n"),
              "integer overflow in '-'", 5, 8);
  expectError(run("program e;\nvar i, j: integer;\nbegin\n  i := -9223372036854775808; j := -1;\n"
                  "  i := i div j\nend.\n"),
              "integer overflow in 'div'", 5, 10);
  // mod -1 is 0 for every dividend, the smallest one included; the largest products still fit.
  RunResult ok = run(
      "program e;\nvar i, j: integer;\nbegin\n  i := -9223372036854775808; j := -1;\n"
      "  writeln(i mod j, ' ', 3037000499 * 3037000499, ' ', -9223372036854775807 - 1)\nend.\n");
  ASSERT_FALSE(ok.error) << *ok.error;
  EXPECT_EQ(ok.output, "0 9223372030926249001 -9223372036854775808\n");
}

TEST_F(Interp, UnboundedRecursionIsACleanRuntimeError) {
  // The error is raised at the call that would be one too many: `r(n + 1)` in line 2.
  expectError(run("program e;\nproc r(n: integer); begin r(n + 1) end;\nbegin\n  r(1)\nend.\n"),
              "stack overflow: more than 100000 nested calls", 2, 27);
  // A function with vector locals: each frame owns storage, all of it handed back.
  expectError(run("program e;\n"
                  "func f(n: integer): integer; var w: word; begin w := %1; f := f(n + 1) + 1 end;\n"
                  "begin\n  writeln(f(0))\nend.\n"),
              "stack overflow: more than 100000 nested calls", 2, 63);
  // Deep but bounded recursion works, and the interpreter is still usable.
  RunResult ok = run(
      "program d;\nfunc depth(n: integer): integer;\n"
      "begin if n = 0 then depth := 0 else depth := depth(n - 1) + 1 end;\n"
      "begin writeln(depth(99990)) end.\n");
  ASSERT_FALSE(ok.error) << *ok.error;
  EXPECT_EQ(ok.output, "99990\n");
}

TEST_F(Interp, OtherRuntimeErrors) {
  expectError(run("program e;\nvar i: integer;\nbegin\n  i := StrToInt('12x')\nend.\n"),
              "StrToInt: '12x' is not an integer", 4, 8);
  expectError(run("program e;\nvar s: string;\nbegin\n  s := ParamStr(2)\nend.\n", {"one"}),
              "ParamStr(2): there is 1 program argument", 4, 8);
  expectError(run("program e;\nvar w: word;\nbegin\n  w := BIN(8, 3)\nend.\n"),
              "BIN(8, 3): 8 does not fit in 3 bits", 4, 8);
  expectError(run("program e;\nvar s: slice(2); n: integer;\nbegin\n  n := -1;\n  s(1) := n\nend.\n"),
              "a component is 0 or 1, not -1", 5, 8);
  const std::string missing = dir.file("missing.txt");
  expectError(run("program e;\nvar T: table;\nbegin\n  LOAD(T, '" + missing + "')\nend.\n"),
              missing + ": cannot open: No such file or directory", 4, 3);
}

TEST_F(Interp, OutputBeforeAnErrorIsKept) {
  RunResult r2 = run(
      "program e;\nvar i: integer;\nbegin\n  writeln('line');\n  write('before');\n  i := 1 div i\nend.\n");
  expectError(r2, "division by zero", 6, 10);
  EXPECT_EQ(r2.output, "line\nbefore");
}

// ------------------------------------------------------------------ parameters

// ERROR(msg) stops the run with exactly msg, at the call; a constant or a run-time string.
TEST_F(Interp, ErrorBuiltinStopsWithItsMessage) {
  RunResult r =
      run("program e;\nbegin\n  write('before');\n  ERROR('stop: x < 0');\n"
          "  writeln('after')\nend.\n");
  expectError(r, "stop: x < 0", 4, 3);
  EXPECT_EQ(r.output, "before");
  EXPECT_TRUE(r.callers.empty());
  // Any case, a message known only at run time, and the empty message.
  expectError(run("program e;\nbegin\n  error(ParamStr(1))\nend.\n", {"from argv"}), "from argv", 3,
              3);
  expectError(run("program e;\nbegin\n  Error('')\nend.\n"), "", 3, 3);
  // A message is not cut or changed (StrToInt shows 40 characters of its text).
  const std::string longText(300, 'x');
  expectError(run("program e;\nbegin\n  ERROR('" + longText + "')\nend.\n"), longText, 3, 3);
  // Only when reached.
  RunResult ok = run("program e;\nbegin\n  if false then ERROR('no');\n  writeln('ok')\nend.\n");
  ASSERT_FALSE(ok.error) << *ok.error;
  EXPECT_EQ(ok.output, "ok\n");
}

// A run-time error inside routines carries the call sites that led to it, innermost first.
TEST_F(Interp, RuntimeErrorsCarryTheCallTrace) {
  RunResult r =
      run("program t;\n"
          "proc inner(n: integer); var i: integer; begin i := 1 div n end;\n"
          "proc outer(n: integer); begin\n"
          "  inner(n) end;\n"
          "begin\n"
          "  outer(1);\n"
          "  outer(0)\n"
          "end.\n");
  expectError(r, "division by zero", 2, 54);
  ASSERT_EQ(r.callers.size(), 2u);
  EXPECT_EQ(r.callers[0].loc.line, 4u);  // inner(n) in outer
  EXPECT_EQ(r.callers[0].loc.col, 3u);
  EXPECT_EQ(r.callers[1].loc.line, 7u);  // outer(0), not outer(1)
  EXPECT_EQ(r.callers[1].loc.col, 3u);
  EXPECT_EQ(r.callers[0].times, 1u);
  EXPECT_EQ(r.moreCallers, 0u);

  // Recursion from one place is one entry with its count.
  r =
      run("program t;\n"
          "func down(n: integer): integer;\n"
          "begin if n = 0 then ERROR('bottom') else down := down(n - 1) end;\n"
          "begin\n  writeln(down(25))\nend.\n");
  expectError(r, "bottom", 3, 21);
  ASSERT_EQ(r.callers.size(), 2u);
  EXPECT_EQ(r.callers[0].loc.line, 3u);
  EXPECT_EQ(r.callers[0].times, 25u);
  EXPECT_EQ(r.callers[1].loc.line, 5u);
  EXPECT_EQ(r.callers[1].times, 1u);

  // A chain of distinct call sites is cut after kMaxCallers entries; the rest are counted.
  auto chain = [&](int depth) {
    std::string src = "program c;\nproc p0; begin ERROR('deep') end;\n";
    for (int k = 1; k < depth; ++k)
      src += "proc p" + std::to_string(k) + "; begin p" + std::to_string(k - 1) + " end;\n";
    src += "begin\n  p" + std::to_string(depth - 1) + "\nend.\n";
    return run(src);
  };
  const std::size_t cap = RuntimeError::kMaxCallers;
  for (std::size_t depth : {cap, cap + 1, cap + 7}) {
    // depth routines: depth - 1 calls between them and one from the main program.
    RunResult c = chain(static_cast<int>(depth));
    expectError(c, "deep", 2, 16);
    ASSERT_EQ(c.callers.size(), std::min(depth, cap)) << depth;
    EXPECT_EQ(c.moreCallers, depth - std::min(depth, cap)) << depth;
    for (std::size_t k = 0; k < c.callers.size(); ++k) {
      // p(k+1) calls p(k) on line k + 3; the main program calls p(depth-1) on line depth + 3.
      EXPECT_EQ(c.callers[k].loc.line, k + 1 < depth ? k + 3 : depth + 3) << depth;
      EXPECT_EQ(c.callers[k].times, 1u);
    }
  }

  // A function result that does not fit is reported at the call; the trace starts below it.
  r =
      run("program f;\n"
          "func w3: word; begin w3 := %101 end;\n"
          "proc take; var v: word(2); begin\n  v := w3 end;\n"
          "begin\n  take\nend.\n");
  expectError(r, "size mismatch: the function returns 3 bits for a variable of 2 bits", 4, 8);
  ASSERT_EQ(r.callers.size(), 1u);
  EXPECT_EQ(r.callers[0].loc.line, 6u);

  // A stack overflow: one entry for the recursion, one for the first call.
  r = run("program s;\nproc r(n: integer); begin r(n + 1) end;\nbegin\n  r(1)\nend.\n");
  ASSERT_TRUE(r.error);
  ASSERT_EQ(r.callers.size(), 2u);
  EXPECT_EQ(r.callers[0].loc.line, 2u);
  EXPECT_EQ(r.callers[0].times, 99998u);
  EXPECT_EQ(r.callers[1].loc.line, 4u);
}

TEST_F(Interp, VarParametersOfEveryKind) {
  RunResult r = run(
      "program v;\n"
      "var g: integer; s: slice(5); w: word; T: table(2, 3);\n"
      "proc incr(var x: integer); begin x := x + 1 end;\n"
      "proc twice(var y: integer); begin incr(y); incr(y) end;\n"  // passed on
      "proc setAll(var a: slice); begin SET(a) end;\n"
      "proc setAll2(var b: slice); begin setAll(b) end;\n"
      "proc flip(var u: word); begin u := not u end;\n"
      "proc flip2(var u2: word); begin flip(u2) end;\n"
      "proc mark(var M: table); begin ROW(2, M) := %101 end;\n"
      "proc mark2(var M2: table); begin mark(M2) end;\n"
      "proc upto(var k: integer); begin for k := 1 to 3 do write(k) end;\n"
      "proc local; var n: integer; begin n := 10; twice(n); writeln(n) end;\n"
      "begin\n"
      "  g := 1; twice(g); writeln(g);\n"
      "  setAll2(s); writeln(s);\n"
      "  w := %0110; flip2(w); writeln(w);\n"
      "  mark2(T); writeln(T);\n"
      "  upto(g); writeln(' ', g);\n"
      "  local\n"
      "end.\n");
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(r.output, "3\n11111\n1001\n000\n101\n123 3\n12\n");
}

TEST_F(Interp, VarParameterSeesTheCallersShapeChanges) {
  RunResult r = run(
      "program v;\n"
      "var T: table; w: word;\n"
      "proc grow(var U: table; var x: word); begin U := T; x := %1100110 end;\n"
      "begin\n"
      "  w := %1;\n"
      "  grow(T, w); writeln(LEN(w), ' ', w, ' ', ROWS(T))\n"
      "end.\n");
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(r.output, "7 1100110 0\n");
}

TEST_F(Interp, ValueParametersAreCopies) {
  RunResult r = run(
      "program c;\n"
      "var x: integer; s: slice(3); w: word; T: table(2, 2);\n"
      "proc m(x: integer; s: slice; w: word; T: table);\n"
      "begin x := 99; SET(s); w := not w; ROW(1, T) := %11; writeln(x, ' ', s, ' ', w, ' ', T) end;\n"
      "begin\n"
      "  x := 1; w := %010;\n"
      "  m(x, s, w, T);\n"
      "  writeln(x, ' ', s, ' ', w, ' ', T)\n"
      "end.\n");
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(r.output, "99 111 101 11\n00\n1 000 010 00\n00\n");
}

TEST_F(Interp, RealParametersAcceptIntegers) {
  RunResult r = run(
      "program r;\nvar x: real;\nfunc half(v: real): real; begin half := v / 2 end;\n"
      "proc put(var y: real); begin y := 7 end;\n"
      "begin writeln(half(3)); put(x); writeln(x) end.\n");
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(r.output, "1.5\n7.0\n");
}

TEST_F(Interp, FunctionsReturningWords) {
  RunResult r = run(
      "program f;\n"
      "func rev(w: word): word;\n"
      "var i, n: integer; r: word;\n"
      "begin\n"
      "  n := LEN(w); r := w;\n"
      "  for i := 1 to n do r(i) := w(n + 1 - i);\n"
      "  rev := r\n"
      "end;\n"
      "func bits(n, k: integer): word; begin bits := BIN(n, k) end;\n"
      "var a: word(4); b: word;\n"
      "begin\n"
      "  writeln(rev(%1101));\n"
      "  a := rev(%0001); writeln(a);\n"
      "  b := rev(rev(%110)); writeln(b);\n"
      "  writeln(bits(5, 4), ' ', VAL(rev(bits(6, 3))));\n"
      "  writeln(EQ(rev(a), %0001), ' ', LEN(bits(1, 70)))\n"
      "end.\n");
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(r.output, "1011\n1000\n110\n0101 3\ntrue 70\n");
}

// A function's word result that does not fit the variable it is assigned to: the error is the
// assignment's, in the caller (line 5), not somewhere inside the function.
TEST_F(Interp, FunctionResultSizeMismatchIsReportedAtTheCall) {
  RunResult r = run(
      "program f;\n"
      "func bits(n, k: integer): word; begin bits := BIN(n, k) end;\n"
      "var c: word(3);\n"
      "begin\n"
      "  c := bits(5, 4)\n"
      "end.\n");
  ASSERT_TRUE(r.error);
  EXPECT_EQ(*r.error, "size mismatch: the function returns 4 bits for a variable of 3 bits");
  EXPECT_EQ(r.loc.line, 5u);
}

TEST_F(Interp, GlobalsUsedFromProcedures) {
  RunResult r = run(
      "program g;\n"
      "var total: integer; T: table(2, 2); V: slice(2);\n"
      "proc add(n: integer); begin total := total + n end;\n"
      "proc touch; begin ROW(1, T) := %01; V := COL(2, T) end;\n"
      "begin\n"
      "  total := 0; add(5); add(7); touch;\n"
      "  writeln(total, ' ', V); writeln(T)\n"
      "end.\n");
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(r.output, "12 10\n01\n00\n");
}

// ------------------------------------------------------------------ after an error

TEST_F(Interp, StaysUsableAfterARuntimeError) {
  Compiled c = compile(
      "program a;\n"
      "proc deep(n: integer; var s: slice);\n"
      "var w: word; t: table;\n"
      "begin\n"
      "  w := %1; SET(s);\n"
      "  if n = 0 then s(StrToInt(ParamStr(1))) := 1 else deep(n - 1, s)\n"
      "end;\n"
      "var x: slice(4);\n"
      "begin deep(20, x); writeln('done ', x) end.\n");
  ASSERT_TRUE(c.ok);
  RunResult bad = vm.run(c.module, {"9"});
  ASSERT_TRUE(bad.error);
  EXPECT_EQ(*bad.error, "index 9 is out of range 1..4");
  EXPECT_EQ(bad.loc.line, 6u);
  EXPECT_EQ(bad.loc.col, 42u);
  // The same module again, now without an error: every frame of the failed run was unwound.
  RunResult good = vm.run(c.module, {"2"});
  ASSERT_FALSE(good.error) << *good.error;
  EXPECT_EQ(good.output, "done 1111\n");
  // After a stack overflow too.
  EXPECT_TRUE(runOn(vm, "program e;\nproc r; begin r end;\nbegin r end.\n").error);
  // Another program (without globals of its own) with the same interpreter.
  RunResult other = runOn(vm, "program b;\nbegin\n  writeln(6 * 7)\nend.\n");
  ASSERT_FALSE(other.error) << *other.error;
  EXPECT_EQ(other.output, "42\n");
  RunResult again = vm.run(c.module, {"1"});
  ASSERT_FALSE(again.error) << *again.error;
  EXPECT_EQ(again.output, "done 1111\n");
}

// The device engine keeps its own copy of the module's code, made again for every run. The REPL
// rolls a failed input back and may then grow the module to the same sizes with other code; here
// the code is changed in place, sizes kept, and the next run must see it.
TEST_F(Interp, TheEngineTakesAModuleChangedInPlaceAfresh) {
  startest::Vm engineVm;
  engineVm.interp.enableDeviceEngine(true);
  ASSERT_TRUE(engineVm.interp.deviceEngineOn());
  Compiled c = compile(
      "program a;\nvar s: slice(8); k, j: integer;\n"
      "begin SET(s); for j := 1 to 300 do k := NUMB(s) + j; writeln(k) end.\n");
  ASSERT_TRUE(c.ok);
  RunResult first = engineVm.run(c.module);
  ASSERT_FALSE(first.error) << *first.error;
  EXPECT_EQ(first.output, "308\n");
  ASSERT_GT(engineVm.interp.engineStats().instructions, 0u);  // the loop ran in the engine
  // k := NUMB(s) + j becomes k := NUMB(s) - j: the first IADD of the main body (the second is
  // the loop's increment).
  std::vector<std::uint32_t>& code = c.module.functions[c.module.entry].code;
  bool changed = false;
  for (std::size_t pc = 0; pc < code.size() && !changed; pc += star::instrSize(static_cast<star::Op>(code[pc])))
    if (code[pc] == static_cast<std::uint32_t>(star::Op::IADD)) {
      code[pc] = static_cast<std::uint32_t>(star::Op::ISUB);
      changed = true;
    }
  ASSERT_TRUE(changed);
  RunResult second = engineVm.run(c.module);
  ASSERT_FALSE(second.error) << *second.error;
  EXPECT_EQ(second.output, "-292\n");
}

// One interpreter, two unrelated programs with globals of their own. Interpreter::run only
// allocates the globals beyond those it already has (the REPL's module grows), so between
// unrelated modules the caller hands the old globals back with releaseGlobals().
TEST_F(Interp, AnotherProgramWithItsOwnGlobals) {
  startest::Vm shared;
  RunResult a = runOn(shared, "program a;\nvar a: word(3); T: table(2, 2);\nbegin\n"
                              "  a := %101; ROW(1, T) := %01; writeln(a, ' ', T)\nend.\n");
  ASSERT_FALSE(a.error) << *a.error;
  EXPECT_EQ(a.output, "101 01\n00\n");
  shared.interp.releaseGlobals();
  RunResult b = runOn(shared, "program b;\nvar w: word; n: integer;\nbegin\n"
                              "  w := %1010; n := 3; writeln(w, ' ', n)\nend.\n");
  ASSERT_FALSE(b.error) << *b.error;
  EXPECT_EQ(b.output, "1010 3\n");
}

// Two programs compiled from one path, differing only in constants (same code and table sizes),
// run one after the other on the device engine, their modules living at one address (a Module
// variable assigned again, as a test or a tool reloading a file does): the second run is the
// second program's, on a fresh interpreter and on the same one.
TEST_F(Interp, TheEngineRunsASecondProgramFromTheSamePathAtTheSameAddress) {
  const std::string path = dir.file("same.star");
  auto compileAt = [&](const std::string& source) {
    dir.write("same.star", source);
    Compiled c = startest::compileFile(path, /*warnUnused=*/false);
    EXPECT_TRUE(c.ok) << c.diagnostics;
    return std::move(c.module);
  };
  // ERROR's string constant, an integer constant and an immediate, all run in the engine first.
  auto program = [](const std::string& text, const std::string& big, int small) {
    return "program p;\nvar s: slice(8); k, j: integer;\nbegin\n"
           "  SET(s); for j := 1 to 3 do k := NUMB(s) + j;\n"
           "  writeln(k + " + big + ", ' ', k + " + std::to_string(small) + ");\n"
           "  ERROR('" + text + "')\nend.\n";
  };
  const std::string a = program("first", "1000000000001", 3), b = program("other", "2000000000002", 4);
  auto expectA = [](const RunResult& r) {
    ASSERT_TRUE(r.error) << "no runtime error; output: " << r.output;
    EXPECT_EQ(*r.error, "first");
    EXPECT_EQ(r.output, "1000000000012 14\n");
  };
  auto expectB = [](const RunResult& r) {
    ASSERT_TRUE(r.error) << "no runtime error; output: " << r.output;
    EXPECT_EQ(*r.error, "other");
    EXPECT_EQ(r.output, "2000000000013 15\n");
  };
  auto engineVm = [](startest::Vm& v) {
    v.interp.enableDeviceEngine(true);
    ASSERT_TRUE(v.interp.deviceEngineOn());
  };

  // A fresh interpreter (and backend) for each program.
  {
    SCOPED_TRACE("a fresh interpreter for each program");
    Module m = compileAt(a);
    {
      startest::Vm first;
      engineVm(first);
      expectA(first.run(m));
      EXPECT_GT(first.interp.engineStats().instructions, 0u);  // the engine ran it
    }
    m = compileAt(b);
    startest::Vm second;
    engineVm(second);
    expectB(second.run(m));
  }
  // One interpreter, the module assigned again in place: A, B, A again.
  {
    SCOPED_TRACE("one interpreter, the module assigned again");
    startest::Vm same;
    engineVm(same);
    Module m = compileAt(a);
    expectA(same.run(m));
    m = compileAt(b);
    expectB(same.run(m));
    m = compileAt(a);
    expectA(same.run(m));
  }
  // One interpreter, the first module destroyed and another made in its place.
  {
    SCOPED_TRACE("one interpreter, another module in the first one's place");
    startest::Vm same;
    engineVm(same);
    auto m = std::make_unique<std::optional<Module>>();
    m->emplace(compileAt(a));
    expectA(same.run(**m));
    m->reset();
    m->emplace(compileAt(b));
    expectB(same.run(**m));
  }
}

// The same for what the interpreter proves about a parallel loop's body (on either engine): the
// second program's loop differs from the first's only in its operator.
TEST_F(Interp, ASecondProgramAtTheSameAddressHasItsOwnParallelLoops) {
  auto compileAt = [&](const std::string& op) {
    Compiled c = startest::compileSource(
        dir,
        "program q;\nvar T: table(4, 4); s, V, W: slice(4); i: integer;\nbegin\n"
        "  SET(s); ROW(1, T) := %1111; W(1) := 1; W(2) := 1;\n"
        "  forall i in s do begin V := COL(i, T); V := V " + op + " W; COL(i, T) := V end;\n"
        "  write(T)\nend.\n",
        "loop.star", /*warnUnused=*/false);
    EXPECT_TRUE(c.ok) << c.diagnostics;
    return std::move(c.module);
  };
  startest::Vm same;
  Module m = compileAt("or");
  RunResult r = same.run(m);
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(r.output, "1111\n1111\n0000\n0000");
  if (startest::testParallelLoops()) {
    EXPECT_GT(same.interp.parallelStats().parallel, 0u);  // not sequential
  }
  m = compileAt("xor");
  r = same.run(m);
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(r.output, "0000\n1111\n0000\n0000");
}

// ------------------------------------------------------------------ allocation

// The steady-state column loop of Listing 2 runs without touching the heap: the allocations of
// a whole run do not depend on how many times the loop body runs.
TEST_F(Interp, SteadyStateColumnLoopDoesNotAllocate) {
  Compiled c = compile(
      "program a;\n"
      "var P: table(64, 64); V, W: slice(P); i, r, n: integer;\n"
      "begin\n"
      "  n := StrToInt(ParamStr(1));\n"
      "  SET(W);\n"
      "  for r := 1 to n do\n"
      "  begin\n"
      "    i := r mod 64 + 1;\n"
      "    V := COL(i, P);\n"
      "    V := V or W;\n"
      "    COL(i, P) := V\n"
      "  end;\n"
      "  writeln(NUMB(COL(1, P)))\n"
      "end.\n");
  ASSERT_TRUE(c.ok);
  auto countedRun = [&](int iterations) {
    vm.interp.setArguments({std::to_string(iterations)});
    vm.out.str("");
    g_allocations = 0;
    g_counting = true;
    vm.interp.run(c.module, c.module.entry);
    g_counting = false;
    EXPECT_EQ(vm.out.str(), iterations >= 64 ? "64\n" : "0\n");  // column 1 is hit at r = 64
    return g_allocations.load();
  };
  countedRun(1);  // warm-up: global storage and the handle pool
  long small = countedRun(1000);
  long large = countedRun(10000);
  EXPECT_EQ(small, large) << "allocations grow with the iteration count";
  // A hand-over to the device engine allocates its staging and threads, once per run: more than
  // the host engine's few, but still independent of the iteration count (checked above).
  EXPECT_LT(large, startest::testDeviceEngine() ? 200 : 50);
}

}  // namespace
}  // namespace star
