// The checker (frontend/sema/Checker.h): its diagnostics, exact to the line and column, constant
// folding into declared shapes, unused-variable warnings and the REPL's redefinition rules.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/ast/Ast.h"
#include "frontend/diag/Diagnostics.h"
#include "frontend/parse/Parser.h"
#include "frontend/sema/Checker.h"

namespace star {
namespace {

struct Checked {
  SourceManager sources;
  std::ostringstream out;
  std::unique_ptr<Diagnostics> diags;
  std::vector<std::unique_ptr<Program>> inputs;  // REPL inputs stay alive: symbols live in them
  std::unique_ptr<Checker> checker;
  bool ok = false;

  std::string text() const { return out.str(); }
  int errors() const { return diags->errorCount(); }
  int warnings() const { return diags->warningCount(); }
  // True when `line` is one whole line of the diagnostics output.
  bool has(const std::string& line) const { return ("\n" + text()).find("\n" + line + "\n") != std::string::npos; }
  bool mentions(const std::string& fragment) const { return text().find(fragment) != std::string::npos; }
  const Program& program() const { return *inputs.back(); }

  // Parses and checks one more input with the same checker (REPL) or the one program.
  bool add(const std::string& source, ParseMode mode) {
    std::uint32_t file = sources.add("t.star", source);
    auto p = parseSource(sources, file, mode, *diags);
    if (!p) {
      ADD_FAILURE() << "syntax error in test input:\n" << text();
      return false;
    }
    inputs.push_back(std::move(p));
    ok = checker->checkProgram(*inputs.back());
    return ok;
  }
};

std::unique_ptr<Checked> makeChecker(Checker::Options options = {}) {
  auto c = std::make_unique<Checked>();
  c->diags = std::make_unique<Diagnostics>(c->sources, c->out);
  c->checker = std::make_unique<Checker>(*c->diags, options);
  return c;
}

std::unique_ptr<Checked> check(const std::string& source, Checker::Options options = {}) {
  auto c = makeChecker(options);
  c->add(source, ParseMode::Program);
  return c;
}

Checker::Options quiet() {
  Checker::Options o;
  o.warnUnused = false;
  return o;
}

// ------------------------------------------------------------------ names

TEST(Checker, UnknownNameSuggestsTheClosestName) {
  auto c = check(
      "program t;\n"
      "var count: integer;\n"
      "proc Compute; begin end;\n"
      "begin\n"
      "  cont := 1;\n"        // 5: one letter missing from 'count'
      "  writln(count);\n"    // 6: a builtin, one letter off, answered in the case typed
      "  Compte;\n"           // 7: a procedure
      "  count := zzqqxx\n"   // 8: nothing close
      "end.\n",
      quiet());
  EXPECT_FALSE(c->ok);
  EXPECT_EQ(c->errors(), 4) << c->text();
  EXPECT_TRUE(c->has("t.star:5:3: error: unknown name 'cont'; did you mean 'count'?")) << c->text();
  EXPECT_TRUE(c->has("t.star:6:3: error: unknown name 'writln'; did you mean 'writeln'?")) << c->text();
  EXPECT_TRUE(c->has("t.star:7:3: error: unknown name 'Compte'; did you mean 'Compute'?")) << c->text();
  EXPECT_TRUE(c->has("t.star:8:12: error: unknown name 'zzqqxx'")) << c->text();
}

TEST(Checker, NamesAreCaseInsensitive) {
  auto c = check(
      "program t;\nvar Count: integer;\nproc DoIt; begin COUNT := 2 end;\n"
      "begin\n  count := 1; doit; DOIT; writeln(cOuNt); WriteLn(ROWS(x)) \nend.\n",
      quiet());
  // Only `x` is unknown.
  EXPECT_EQ(c->errors(), 1) << c->text();
  EXPECT_TRUE(c->mentions("error: unknown name 'x'")) << c->text();
}

TEST(Checker, DuplicateDeclarations) {
  auto c = check(
      "program t;\n"
      "var a: integer;\n"
      "    A: word;\n"                         // 3: same name, other case
      "    x: integer;\n"
      "proc x; begin end;\n"                   // 5: a procedure named like a variable
      "proc p(n: integer; N: word);\n"         // 6: duplicate parameter
      "var i: integer; i: boolean;\n"          // 7: duplicate local
      "begin end;\n"
      "proc p; begin end;\n"                   // 9: duplicate procedure
      "begin\nend.\n",
      quiet());
  EXPECT_FALSE(c->ok);
  EXPECT_TRUE(c->has("t.star:3:5: error: duplicate declaration of 'A'")) << c->text();
  EXPECT_TRUE(c->has("t.star:2:5: note: previous declaration is here")) << c->text();
  EXPECT_TRUE(c->has("t.star:5:6: error: 'x' is already declared as a variable or constant"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:6:20: error: duplicate parameter 'N'")) << c->text();
  EXPECT_TRUE(c->has("t.star:7:17: error: duplicate declaration of 'i'")) << c->text();
  EXPECT_TRUE(c->has("t.star:9:6: error: duplicate declaration of 'p'")) << c->text();
  EXPECT_EQ(c->errors(), 5) << c->text();
}

TEST(Checker, LocalsMayShadowGlobals) {
  auto c = check(
      "program t;\nvar n: word;\n"
      "proc p(n: integer); var x: integer; begin x := n + 1; writeln(x) end;\n"
      "begin n := %1; writeln(n); p(3) end.\n");
  EXPECT_TRUE(c->ok) << c->text();
  EXPECT_EQ(c->text(), "");
}

// ------------------------------------------------------------------ calls

TEST(Checker, WrongArity) {
  auto c = check(
      "program t;\n"
      "var s: slice; y: integer;\n"
      "proc p(a, b: integer); begin end;\n"
      "func f(x: integer): integer; begin f := x end;\n"
      "begin\n"
      "  p(1);\n"            // 6
      "  p(1, 2, 3);\n"      // 7
      "  y := f;\n"          // 8: f needs its argument
      "  SET(s, s);\n"       // 9
      "  s := COL(1)\n"      // 10
      "end.\n",
      quiet());
  EXPECT_FALSE(c->ok);
  EXPECT_TRUE(c->has("t.star:6:3: error: 'p' takes 2 arguments, but 1 was given")) << c->text();
  EXPECT_TRUE(c->has("t.star:7:3: error: 'p' takes 2 arguments, but 3 were given")) << c->text();
  EXPECT_TRUE(c->has("t.star:8:8: error: 'f' takes 1 argument")) << c->text();
  EXPECT_TRUE(c->has(
      "t.star:9:3: error: wrong number of arguments to SET: expected SET(var Y: slice or word)"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:10:8: error: wrong number of arguments to COL: expected COL(i: "
                     "integer; T: table): slice"))
      << c->text();
  EXPECT_EQ(c->errors(), 5) << c->text();
}

TEST(Checker, VarArgumentMustBeAVariable) {
  auto c = check(
      "program t;\n"
      "const k = 1;\n"
      "var x: integer; r: real;\n"
      "proc inc(var a: integer); begin a := a + 1 end;\n"
      "proc g(var v: real); begin v := 0.5 end;\n"
      "begin\n"
      "  inc(x + 1);\n"      // 7: located at the '+'
      "  inc(k);\n"          // 8: a constant
      "  g(x);\n"            // 9: var parameters take exactly their type
      "  SET(%101);\n"       // 10
      "  inc(x); g(r)\n"     // 11: fine
      "end.\n",
      quiet());
  EXPECT_FALSE(c->ok);
  EXPECT_TRUE(c->has(
      "t.star:7:9: error: argument 1 of 'inc' (a) must be a variable (it is passed by reference)"))
      << c->text();
  EXPECT_TRUE(c->has(
      "t.star:8:7: error: argument 1 of 'inc' (a) must be a variable (it is passed by reference)"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:9:5: error: argument 1 of 'g' (v) must be a real, not an integer"))
      << c->text();
  EXPECT_TRUE(c->has(
      "t.star:10:7: error: the argument of SET must be a variable (it is passed by reference)"))
      << c->text();
  EXPECT_EQ(c->errors(), 4) << c->text();
}

TEST(Checker, ValueArgumentsConvertIntegerToReal) {
  auto c = check(
      "program t;\nproc g(v: real); begin writeln(v) end;\n"
      "proc h(n: integer); begin writeln(n) end;\n"
      "begin g(1); h(2.5) end.\n");
  EXPECT_EQ(c->errors(), 1) << c->text();
  // A real does not convert to an integer parameter (the other way round is fine).
  EXPECT_TRUE(c->mentions("t.star:4:15: error: argument 1 of 'h' (n) must be a")) << c->text();
  EXPECT_TRUE(c->mentions("integer, not a real\n")) << c->text();
}

// ------------------------------------------------------------------ types and sizes

TEST(Checker, SliceAndWordDoNotMix) {
  auto c = check(
      "program t;\n"
      "var s: slice; w: word;\n"
      "begin\n"
      "  s := w;\n"           // 4
      "  w := s;\n"           // 5
      "  s := s and w;\n"     // 6
      "  w := w + w;\n"       // 7
      "  if s then;\n"        // 8
      "  s := CONVERT(w); w := CONVERT(s)\n"
      "end.\n",
      quiet());
  EXPECT_FALSE(c->ok);
  EXPECT_TRUE(c->has("t.star:4:8: error: cannot assign a word to 's' of type slice (use CONVERT "
                     "to turn a word into a slice)"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:5:8: error: cannot assign a slice to 'w' of type word (use CONVERT "
                     "to turn a slice into a word)"))
      << c->text();
  EXPECT_TRUE(c->has(
      "t.star:6:10: error: operator 'and' cannot combine a slice and a word; use CONVERT first"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:7:10: error: operator '+' is not defined on words; use ADD(v, w) / "
                     "SUBT(v, w) for binary arithmetic"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:8:6: error: the condition of 'if' must be boolean, not slice (use "
                     "SOME(...) to test for a 1)"))
      << c->text();
  EXPECT_EQ(c->errors(), 5) << c->text();
}

TEST(Checker, StaticSizeMismatch) {
  auto c = check(
      "program t;\n"
      "var a: word(3); b: word(4); c: word; T: table(2, 3); U: table(3, 3);\n"
      "    e: boolean;\n"
      "begin\n"
      "  a := %10110;\n"        // 5
      "  a := a and b;\n"       // 6
      "  T := U;\n"             // 7
      "  ROW(1, T) := %11;\n"   // 8
      "  b := ROW(1, T);\n"     // 9
      "  e := EQ(a, b);\n"      // 10
      "  c := %10110; c := %1; a := ROW(2, T); a := BIN(5, 3)\n"  // 11: all fine
      "end.\n",
      quiet());
  EXPECT_FALSE(c->ok);
  EXPECT_TRUE(c->has("t.star:5:8: error: size mismatch: cannot assign a word of size 5 to 'a' of size 3"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:6:10: error: size mismatch: the left word has 3 bits but the other "
                     "operand has 4"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:7:8: error: size mismatch: cannot assign a table of size 3 x 3 to "
                     "'T' of size 2 x 3"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:8:16: error: size mismatch: the row has 3 bits but the other operand has 2"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:9:8: error: size mismatch: cannot assign a word of size 3 to 'b' of size 4"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:10:14: error: size mismatch: the first word has 3 bits but the other "
                     "operand has 4"))
      << c->text();
  EXPECT_EQ(c->errors(), 6) << c->text();
}

TEST(Checker, ConstantIndexOutOfRange) {
  auto c = check(
      "program t;\n"
      "const k = 2 * 3;\n"
      "var T: table(4, 5); s: slice; w: word; y: slice(8); v: word(6); z: slice; i: integer;\n"
      "begin\n"
      "  s := COL(6, T);\n"        // 5
      "  w := ROW(0, T);\n"        // 6
      "  y(9) := 1;\n"             // 7
      "  i := y(0);\n"             // 8
      "  i := z(0);\n"             // 9
      "  w := TRIM(2, 7, v);\n"    // 10
      "  w := TRIM(4, 2, v);\n"    // 11
      "  REP(0, 1, %11, v);\n"     // 12
      "  REP(1, 3, %11, v);\n"     // 13
      "  s := COL(k, T);\n"        // 14: a folded constant index
      "  y(1) := 2;\n"             // 15
      "  s := COL(5, T); w := ROW(4, T); y(8) := 1; w := TRIM(1, 6, v); REP(5, 6, %11, v);\n"
      "  i := z(1000); w := ROW(i, T)\n"  // 17: unknown length / index: checked at run time
      "end.\n",
      quiet());
  EXPECT_FALSE(c->ok);
  EXPECT_TRUE(c->has("t.star:5:12: error: column 6 is out of range 1..5")) << c->text();
  EXPECT_TRUE(c->has("t.star:6:12: error: row 0 is out of range 1..4")) << c->text();
  EXPECT_TRUE(c->has("t.star:7:5: error: index 9 is out of range 1..8")) << c->text();
  EXPECT_TRUE(c->has("t.star:8:10: error: index 0 is out of range 1..8")) << c->text();
  EXPECT_TRUE(c->has("t.star:9:10: error: index 0 is out of range (indices start at 1)")) << c->text();
  EXPECT_TRUE(c->has("t.star:10:16: error: TRIM end 7 is out of range 1..6")) << c->text();
  EXPECT_TRUE(c->has("t.star:11:13: error: TRIM start 4 is after its end 2")) << c->text();
  EXPECT_TRUE(c->has("t.star:12:7: error: REP start 0 is out of range 1..6")) << c->text();
  EXPECT_TRUE(c->has("t.star:13:13: error: size mismatch: REP(1, 3, ...) replaces 3 bits but the "
                     "word has 2"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:14:12: error: column 6 is out of range 1..5")) << c->text();
  EXPECT_TRUE(c->has("t.star:15:11: error: a component of slice 'y' is 0 or 1, not 2")) << c->text();
  EXPECT_EQ(c->errors(), 11) << c->text();
}

TEST(Checker, ConstantFoldingGivesDeclaredShapes) {
  auto c = check(
      "program t;\n"
      "const n = 2 * 3 + 1;\n"
      "      m = (n - 1) div 4;\n"     // 6 div 4 = 1
      "      neg = -n mod 4;\n"        // (-7) mod 4 = -3: the sign of the dividend
      "      pat = %101;\n"
      "      flag = not true;\n"
      "var s: slice(n);\n"
      "    T: table(n, m + 2);\n"
      "    r: word(T);\n"              // a row of T: its column count
      "    cl: slice(T);\n"            // a column of T: its row count
      "begin\n"
      "  s := COL(1, T); r := ROW(1, T); cl := s; writeln(s, r, cl, flag)\n"
      "end.\n");
  ASSERT_TRUE(c->ok) << c->text();
  const Checker& ck = *c->checker;
  ASSERT_TRUE(ck.findGlobal("n"));
  EXPECT_EQ(ck.findGlobal("n")->kind, SymbolKind::Const);
  EXPECT_EQ(ck.findGlobal("n")->intValue, 7);
  EXPECT_EQ(ck.findGlobal("m")->intValue, 1);
  EXPECT_EQ(ck.findGlobal("neg")->intValue, -3);
  EXPECT_EQ(ck.findGlobal("pat")->stringValue, "101");
  EXPECT_EQ(ck.findGlobal("pat")->shape.length, 3);
  EXPECT_EQ(ck.findGlobal("flag")->type, Type::Boolean);
  EXPECT_EQ(ck.findGlobal("flag")->intValue, 0);
  EXPECT_EQ(ck.findGlobal("s")->shape.length, 7);
  EXPECT_TRUE(ck.findGlobal("s")->sized);
  EXPECT_EQ(ck.findGlobal("T")->shape.rows, 7);
  EXPECT_EQ(ck.findGlobal("T")->shape.cols, 3);
  EXPECT_EQ(ck.findGlobal("r")->shape.length, 3);
  EXPECT_EQ(ck.findGlobal("cl")->shape.length, 7);
  // The same shape is on the VarDecl's symbol.
  EXPECT_EQ(c->program().decls.vars[0].symbol, ck.findGlobal("s"));
}

TEST(Checker, ConstantErrors) {
  auto c = check(
      "program t;\n"
      "const c = ParamCount;\n"                       // 2: not a compile-time value
      "      big = 9223372036854775807 + 1;\n"        // 3: overflows (located at the '+')
      "      n = 2 - 3;\n"
      "var s: slice(n);\n"                            // 5: negative
      "    w: word('abc');\n"                         // 6
      "begin\n  c := 1\nend.\n",                      // 8: assigning a constant
      quiet());
  EXPECT_FALSE(c->ok);
  EXPECT_TRUE(c->has("t.star:2:11: error: the value of constant 'c' must be computable at compile time"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:3:33: error: the value of constant 'big' must be computable at compile time"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:5:14: error: the length of a slice must not be negative (it is -1)"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:6:13: error: the length of a word must be an integer, not string"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:8:3: error: cannot assign to constant 'c'")) << c->text();
  EXPECT_EQ(c->errors(), 5) << c->text();
}

TEST(Checker, ConstantDivisionByZero) {
  auto c = check("program t;\nvar i: integer;\nbegin\n  i := 7 div (3 - 3); i := i mod 0\nend.\n",
                 quiet());
  EXPECT_FALSE(c->ok);
  EXPECT_TRUE(c->has("t.star:4:17: error: division by zero")) << c->text();  // at (3 - 3)'s '-'
  EXPECT_TRUE(c->has("t.star:4:34: error: division by zero")) << c->text();
}

// ------------------------------------------------------------------ warnings

TEST(Checker, UnusedVariableWarnings) {
  const std::string source =
      "program t;\n"
      "const unusedConst = 3;\n"
      "var used, unused, written: integer;\n"
      "proc p(param: integer);\n"
      "var loc: word; loc2: integer;\n"
      "begin loc2 := 1 end;\n"
      "begin\n"
      "  written := 1;\n"
      "  used := 2;\n"
      "  writeln(used);\n"
      "  p(1)\n"
      "end.\n";
  auto c = check(source);
  EXPECT_TRUE(c->ok) << c->text();  // warnings are not errors
  EXPECT_EQ(c->errors(), 0);
  EXPECT_EQ(c->warnings(), 4) << c->text();
  EXPECT_TRUE(c->has("t.star:3:11: warning: variable 'unused' is declared but never used")) << c->text();
  EXPECT_TRUE(c->has("t.star:3:19: warning: variable 'written' is assigned but never used")) << c->text();
  EXPECT_TRUE(c->has("t.star:5:5: warning: variable 'loc' is declared but never used")) << c->text();
  EXPECT_TRUE(c->has("t.star:5:16: warning: variable 'loc2' is assigned but never used")) << c->text();
  EXPECT_FALSE(c->mentions("'used'"));
  EXPECT_FALSE(c->mentions("param"));
  EXPECT_FALSE(c->mentions("unusedConst"));

  auto q = check(source, quiet());
  EXPECT_TRUE(q->ok);
  EXPECT_EQ(q->warnings(), 0);
  EXPECT_EQ(q->text(), "");
}

TEST(Checker, ReadingThroughACallOrForCountsAsUse) {
  auto c = check(
      "program t;\nvar i, x: integer; w: word;\n"
      "proc inc(var a: integer); begin a := a + 1 end;\n"
      "begin\n  for i := 1 to 3 do ; inc(x); SET(w)\nend.\n");
  EXPECT_TRUE(c->ok) << c->text();
  EXPECT_EQ(c->warnings(), 0) << c->text();
}

// ------------------------------------------------------------------ statements

TEST(Checker, BreakAndContinueOutsideALoop) {
  auto c = check(
      "program t;\n"
      "var i: integer;\n"
      "proc p; begin break end;\n"                 // 3
      "begin\n"
      "  continue;\n"                              // 5
      "  while i < 3 do begin i := i + 1; if i = 2 then break else continue end;\n"
      "  repeat break until true;\n"
      "  for i := 1 to 2 do begin continue; break end;\n"
      "  if i = 1 then break\n"                    // 9
      "end.\n",
      quiet());
  EXPECT_FALSE(c->ok);
  EXPECT_EQ(c->errors(), 3) << c->text();
  EXPECT_TRUE(c->has("t.star:3:15: error: 'break' outside a loop")) << c->text();
  EXPECT_TRUE(c->has("t.star:5:3: error: 'continue' outside a loop")) << c->text();
  EXPECT_TRUE(c->has("t.star:9:17: error: 'break' outside a loop")) << c->text();
}

TEST(Checker, FunctionResultAssignment) {
  auto c = check(
      "program t;\n"
      "var y: integer;\n"
      "func f(x: integer): integer; begin f := x * 2 end;\n"
      "func g: boolean; begin g := 'abc' end;\n"             // 4
      "proc p; begin p := 1 end;\n"                          // 5
      "begin\n"
      "  f := 3;\n"                                          // 7
      "  SET := 1;\n"                                        // 8
      "  y := f(2)\n"
      "end.\n",
      quiet());
  EXPECT_FALSE(c->ok);
  EXPECT_TRUE(c->has("t.star:4:29: error: cannot assign a string to 'g' of type boolean")) << c->text();
  const std::string notHere =
      ": it is a procedure or function (a function's result is assigned only inside its body)";
  EXPECT_TRUE(c->has("t.star:5:15: error: cannot assign to 'p'" + notHere)) << c->text();
  EXPECT_TRUE(c->has("t.star:7:3: error: cannot assign to 'f'" + notHere)) << c->text();
  EXPECT_TRUE(c->has("t.star:8:3: error: cannot assign to builtin 'SET'")) << c->text();
  EXPECT_EQ(c->errors(), 4) << c->text();
}

TEST(Checker, FunctionResultTypeRules) {
  auto c = check(
      "program t;\n"
      "func f: table; begin end;\n"        // 2: tables are not returned
      "func g: word(3); begin end;\n"      // 3: result types are unsized
      "proc p(s: slice(3)); begin end;\n"  // 4: so are parameter types
      "begin end.\n",
      quiet());
  EXPECT_FALSE(c->ok);
  EXPECT_TRUE(c->has("t.star:2:9: error: a function cannot return a table; use a var parameter"))
      << c->text();
  EXPECT_TRUE(c->has("t.star:3:9: error: a function's result type is unsized")) << c->text();
  EXPECT_TRUE(c->has("t.star:4:11: error: parameter types are unsized: write just 'slice'")) << c->text();
  EXPECT_EQ(c->errors(), 3) << c->text();
}

TEST(Checker, RecursionAndCallsBeforeDeclaration) {
  auto c = check(
      "program t;\n"
      "func fact(n: integer): integer;\n"
      "begin if n <= 1 then fact := 1 else fact := n * fact(n - 1) end;\n"
      "proc a(n: integer); begin if n > 0 then b(n - 1) end;\n"  // b is declared below
      "proc b(n: integer); begin if n > 0 then a(n - 1) end;\n"
      "func zero: integer; begin zero := 0 end;\n"
      "begin\n  writeln(fact(5)); a(3); writeln(zero + later(1))\nend.\n"
      "\n");
  // `later` does not exist; everything else resolves, including b before its declaration.
  EXPECT_EQ(c->errors(), 1) << c->text();
  EXPECT_TRUE(c->mentions("error: unknown name 'later'")) << c->text();

  auto ok = check(
      "program t;\n"
      "func fact(n: integer): integer;\n"
      "begin if n <= 1 then fact := 1 else fact := n * fact(n - 1) end;\n"
      "proc a(n: integer); begin if n > 0 then b(n - 1) end;\n"
      "proc b(n: integer); begin if n > 0 then a(n - 1) end;\n"
      "begin\n  writeln(fact(5)); a(3)\nend.\n");
  EXPECT_TRUE(ok->ok) << ok->text();
  EXPECT_EQ(ok->text(), "");
  ASSERT_TRUE(ok->checker->findRoutine("B"));
  EXPECT_TRUE(ok->checker->findRoutine("b")->used);
}

TEST(Checker, AnnotatesResolvedCalls) {
  auto c = check(
      "program t;\nvar y: slice(4); i: integer;\nfunc f(x: integer): integer; begin f := x end;\n"
      "begin\n  i := f(1) + NUMB(y) + y(2)\nend.\n");
  ASSERT_TRUE(c->ok) << c->text();
  auto* assign = static_cast<AssignStmt*>(c->program().body->body[0].get());
  auto* sum = static_cast<BinaryExpr*>(assign->value.get());
  auto* left = static_cast<BinaryExpr*>(sum->lhs.get());
  auto* call = static_cast<CallExpr*>(left->lhs.get());
  auto* numb = static_cast<CallExpr*>(left->rhs.get());
  auto* comp = static_cast<CallExpr*>(sum->rhs.get());
  EXPECT_EQ(call->target, CallTarget::Routine);
  EXPECT_EQ(call->routine, c->checker->findRoutine("f"));
  EXPECT_EQ(numb->target, CallTarget::Builtin);
  EXPECT_EQ(comp->target, CallTarget::Component);
  EXPECT_EQ(comp->symbol, c->checker->findGlobal("y"));
  EXPECT_EQ(sum->type, Type::Integer);
}

// ------------------------------------------------------------------ REPL

TEST(Checker, ReplRedefinition) {
  Checker::Options opts = quiet();
  opts.allowRedefinition = true;
  auto c = makeChecker(opts);
  ASSERT_TRUE(c->add("var x: integer; x := 1;", ParseMode::ReplInput)) << c->text();
  EXPECT_EQ(c->checker->findGlobal("x")->type, Type::Integer);

  ASSERT_TRUE(c->add("var x: word(4); x := %1010;", ParseMode::ReplInput)) << c->text();
  ASSERT_TRUE(c->checker->findGlobal("X"));
  EXPECT_EQ(c->checker->findGlobal("x")->type, Type::Word);
  EXPECT_EQ(c->checker->findGlobal("x")->shape.length, 4);

  ASSERT_TRUE(c->add("proc x; begin writeln(1) end;", ParseMode::ReplInput)) << c->text();
  EXPECT_TRUE(c->checker->findRoutine("x"));
  EXPECT_FALSE(c->checker->findGlobal("x"));

  ASSERT_TRUE(c->add("var x: boolean; x := true", ParseMode::ReplInput)) << c->text();
  EXPECT_FALSE(c->checker->findRoutine("x"));
  EXPECT_EQ(c->checker->findGlobal("x")->type, Type::Boolean);

  ASSERT_TRUE(c->add("func sq(n: integer): integer; begin sq := n * n end; writeln(sq(3))",
                     ParseMode::ReplInput))
      << c->text();
  ASSERT_TRUE(c->add("func sq(n, m: integer): integer; begin sq := n * m end; writeln(sq(2, 3))",
                     ParseMode::ReplInput))
      << c->text();
  EXPECT_EQ(c->checker->findRoutine("sq")->params.size(), 2u);
  // The old one-argument form is gone.
  EXPECT_FALSE(c->add("writeln(sq(3))", ParseMode::ReplInput));
  EXPECT_TRUE(c->mentions("error: 'sq' takes 2 arguments, but 1 was given")) << c->text();

  // Earlier inputs' declarations stay visible to later ones.
  EXPECT_TRUE(c->add("x := not x; writeln(x)", ParseMode::ReplInput)) << c->text();
  std::vector<std::string> names;
  for (const Symbol* s : c->checker->globals()) names.push_back(s->name);
  EXPECT_EQ(names, std::vector<std::string>{"x"});
}

TEST(Checker, WithoutReplModeRedefinitionIsAnError) {
  auto c = makeChecker(quiet());
  ASSERT_TRUE(c->add("var x: integer;", ParseMode::ReplInput));
  EXPECT_FALSE(c->add("var x: word;", ParseMode::ReplInput));
  EXPECT_TRUE(c->has("t.star:1:5: error: duplicate declaration of 'x'")) << c->text();
  EXPECT_EQ(c->checker->findGlobal("x")->type, Type::Integer);
}

}  // namespace
}  // namespace star
