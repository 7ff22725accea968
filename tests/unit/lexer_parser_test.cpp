// The lexer and parser (frontend/Star.g4 through star::parseSource): keywords, comments, literals,
// operator precedence as AST shape, statement forms, syntax-error recovery and the nesting limit.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/ast/Ast.h"
#include "frontend/diag/Diagnostics.h"
#include "frontend/driver/LargeStack.h"
#include "frontend/parse/Parser.h"

namespace star {
namespace {

// One parse: the diagnostics text, the error count and the tree (null on syntax errors).
struct Parsed {
  SourceManager sources;
  std::ostringstream out;
  std::unique_ptr<Diagnostics> diags;
  std::unique_ptr<Program> program;
  std::string text() const { return out.str(); }
  int errors() const { return diags->errorCount(); }
};

std::unique_ptr<Parsed> parse(const std::string& source, ParseMode mode = ParseMode::Program) {
  auto p = std::make_unique<Parsed>();
  std::uint32_t file = p->sources.add("t.star", source);
  p->diags = std::make_unique<Diagnostics>(p->sources, p->out);
  p->program = parseSource(p->sources, file, mode, *p->diags);
  return p;
}

// An expression as a fully parenthesised prefix form, written independently of AstDump.
std::string sx(const Expr* e) {
  if (!e) return "<null>";
  switch (e->kind) {
    case ExprKind::IntLit: return std::to_string(static_cast<const IntLit*>(e)->value);
    case ExprKind::RealLit: return "real";
    case ExprKind::BoolLit: return static_cast<const BoolLit*>(e)->value ? "true" : "false";
    case ExprKind::StringLit: return "'" + static_cast<const StringLit*>(e)->value + "'";
    case ExprKind::BitsLit: return "%" + static_cast<const BitsLit*>(e)->bits;
    case ExprKind::Name: return static_cast<const NameExpr*>(e)->name;
    case ExprKind::Call: {
      auto* c = static_cast<const CallExpr*>(e);
      std::string s = c->name + "(";
      for (std::size_t i = 0; i < c->args.size(); ++i) s += (i ? ", " : "") + sx(c->args[i].get());
      return s + ")";
    }
    case ExprKind::Unary: {
      auto* u = static_cast<const UnaryExpr*>(e);
      const char* op = u->op == UnaryOp::Not ? "not" : u->op == UnaryOp::Neg ? "neg" : "pos";
      return std::string("(") + op + " " + sx(u->operand.get()) + ")";
    }
    case ExprKind::Binary: {
      auto* b = static_cast<const BinaryExpr*>(e);
      static const char* names[] = {"*", "/", "div", "mod", "and", "+", "-", "or",
                                    "xor", "=", "<>", "<", "<=", ">", ">="};
      return std::string("(") + names[static_cast<int>(b->op)] + " " + sx(b->lhs.get()) + " " +
             sx(b->rhs.get()) + ")";
    }
  }
  return "?";
}

// Parses `x := <expr>` inside a program and returns the shape of <expr>.
std::string exprShape(const std::string& expr) {
  auto p = parse("program t;\nbegin\n  x := " + expr + "\nend.\n");
  EXPECT_TRUE(p->program) << p->text();
  if (!p->program) return "<syntax error>";
  auto& body = p->program->body->body;
  EXPECT_EQ(body.size(), 1u);
  if (body.size() != 1 || body[0]->kind != StmtKind::Assign) return "<not an assignment>";
  return sx(static_cast<AssignStmt*>(body[0].get())->value.get());
}

const Stmt* onlyStmt(const Parsed& p) {
  EXPECT_TRUE(p.program) << p.text();
  if (!p.program) return nullptr;
  EXPECT_EQ(p.program->body->body.size(), 1u);
  return p.program->body->body.empty() ? nullptr : p.program->body->body[0].get();
}

// ------------------------------------------------------------------ keywords and structure

TEST(Parser, KeywordsAreCaseInsensitive) {
  auto p = parse(
      "PROGRAM Demo;\n"
      "VaR x: InTeGeR; b: BOOLEAN; s: sLiCe; w: WORD(3); T: Table(2, 3);\n"
      "CONST c = 1;\n"
      "PROCEDURE Pr(VAR a: integer); BEGIN a := 1 END;\n"
      "Function Fn: Integer; Begin Fn := 2 End;\n"
      "Proc Q; begin end;\n"
      "Func G: BOOLEAN; begin G := TRUE end;\n"
      "bEgIn\n"
      "  IF b THEN x := 1 ELSE x := 2;\n"
      "  WHILE NOT b DO BREAK;\n"
      "  FOR x := 1 TO 3 DO CONTINUE;\n"
      "  REPEAT x := x DIV 2 MOD 3 UNTIL FaLsE AnD b Or b XoR b;\n"
      "  EXIT\n"
      "EnD.\n");
  ASSERT_TRUE(p->program) << p->text();
  EXPECT_EQ(p->errors(), 0);
  EXPECT_EQ(p->program->name, "Demo");
  ASSERT_EQ(p->program->decls.vars.size(), 5u);
  EXPECT_EQ(p->program->decls.vars[0].spec->type, Type::Integer);
  EXPECT_EQ(p->program->decls.vars[1].spec->type, Type::Boolean);
  EXPECT_EQ(p->program->decls.vars[2].spec->type, Type::Slice);
  EXPECT_EQ(p->program->decls.vars[3].spec->type, Type::Word);
  EXPECT_EQ(p->program->decls.vars[4].spec->type, Type::Table);
  ASSERT_EQ(p->program->routines.size(), 4u);
  EXPECT_FALSE(p->program->routines[0]->isFunc);  // PROCEDURE
  EXPECT_TRUE(p->program->routines[0]->params[0].byRef);
  EXPECT_TRUE(p->program->routines[1]->isFunc);   // Function
  EXPECT_FALSE(p->program->routines[2]->isFunc);  // Proc
  EXPECT_TRUE(p->program->routines[3]->isFunc);   // Func
  auto& body = p->program->body->body;
  ASSERT_EQ(body.size(), 5u);
  EXPECT_EQ(body[0]->kind, StmtKind::If);
  EXPECT_EQ(body[1]->kind, StmtKind::While);
  EXPECT_EQ(static_cast<WhileStmt*>(body[1].get())->body->kind, StmtKind::Break);
  EXPECT_EQ(body[2]->kind, StmtKind::For);
  EXPECT_EQ(static_cast<ForStmt*>(body[2].get())->body->kind, StmtKind::Continue);
  EXPECT_EQ(body[3]->kind, StmtKind::Repeat);
  EXPECT_EQ(sx(static_cast<RepeatStmt*>(body[3].get())->cond.get()),
            "(xor (or (and false b) b) b)");
  EXPECT_EQ(body[4]->kind, StmtKind::Exit);
}

TEST(Parser, IdentifiersKeepTheirSpellingAndKeywordsAreNotIdentifiers) {
  auto p = parse("program t;\nbegin\n  MyVar_2 := _x\nend.\n");
  const Stmt* s = onlyStmt(*p);
  ASSERT_TRUE(s);
  auto* a = static_cast<const AssignStmt*>(s);
  EXPECT_EQ(sx(a->target.get()), "MyVar_2");
  EXPECT_EQ(sx(a->value.get()), "_x");
  // `Begin` is a keyword whatever its case, so it cannot name a variable.
  auto bad = parse("program t;\nvar Begin: integer;\nbegin\nend.\n");
  EXPECT_FALSE(bad->program);
  EXPECT_GE(bad->errors(), 1);
  EXPECT_NE(bad->text().find("t.star:2:5: error:"), std::string::npos) << bad->text();
}

TEST(Parser, AllFourCommentForms) {
  auto p = parse(
      "{ brace comment\n  over two lines }\n"
      "program (* paren *) t; // line comment\n"
      "/* C comment,\n   also multi-line */\n"
      "var { a } x /* b */ : (* c *) integer; // d\n"
      "begin\n"
      "  x := 1 { inside } + (* inside *) 2 /* inside */ // to the end of the line\n"
      "end.\n"
      "// a comment after the end, without a newline");
  ASSERT_TRUE(p->program) << p->text();
  EXPECT_EQ(p->program->name, "t");
  ASSERT_EQ(p->program->decls.vars.size(), 1u);
  EXPECT_EQ(p->program->decls.vars[0].name, "x");
  // Lines are counted through comments: `var` is on line 6, x at column 11.
  EXPECT_EQ(p->program->decls.vars[0].loc.line, 6u);
  EXPECT_EQ(p->program->decls.vars[0].loc.col, 11u);
  const Stmt* s = onlyStmt(*p);
  ASSERT_TRUE(s);
  EXPECT_EQ(sx(static_cast<const AssignStmt*>(s)->value.get()), "(+ 1 2)");
  EXPECT_EQ(s->loc.line, 8u);
}

TEST(Parser, CommentsDoNotNest) {
  // Inside a { } comment, (* and /* mean nothing; the first } ends it.
  auto p = parse("program t;\nbegin\n  x := 1 { (* /* } + 2\nend.\n");
  const Stmt* s = onlyStmt(*p);
  ASSERT_TRUE(s);
  EXPECT_EQ(sx(static_cast<const AssignStmt*>(s)->value.get()), "(+ 1 2)");
  // Likewise `{` inside (* *) and `//` inside /* */.
  auto q = parse("program t;\nbegin\n  x := 3 (* { *) * /* // */ 4\nend.\n");
  const Stmt* s2 = onlyStmt(*q);
  ASSERT_TRUE(s2);
  EXPECT_EQ(sx(static_cast<const AssignStmt*>(s2)->value.get()), "(* 3 4)");
}

TEST(Parser, UnterminatedBraceComment) {
  auto p = parse("program t;\nbegin\n  { never closed\nend.\n");
  EXPECT_FALSE(p->program);
  EXPECT_EQ(p->errors(), 1);
  EXPECT_EQ(p->text().rfind("t.star:3:3: error: unterminated comment\n", 0), 0u) << p->text();
}

// Parser.cpp means to report an unclosed (* as an unterminated comment, like an unclosed {.
TEST(Parser, UnterminatedParenComment) {
  auto p = parse("program t;\nbegin\n  (* never closed\nend.\n");
  EXPECT_FALSE(p->program);
  EXPECT_GE(p->errors(), 1);
  EXPECT_EQ(p->text().rfind("t.star:3:3: error: unterminated comment\n", 0), 0u) << p->text();
}

// ------------------------------------------------------------------ literals

TEST(Parser, WordLiterals) {
  EXPECT_EQ(exprShape("%1011"), "%1011");
  EXPECT_EQ(exprShape("%0"), "%0");
  EXPECT_EQ(exprShape("%1"), "%1");
  std::string long64(64, '1');
  long64[5] = '0';
  EXPECT_EQ(exprShape("%" + long64 + "0"), "%" + long64 + "0");
  EXPECT_EQ(exprShape("%10 or %01"), "(or %10 %01)");
  // The leading zeros are part of the word (its length), not an integer's.
  auto p = parse("program t;\nbegin\n  x := %0010\nend.\n");
  ASSERT_TRUE(p->program);
  auto* lit = static_cast<BitsLit*>(static_cast<AssignStmt*>(p->program->body->body[0].get())->value.get());
  EXPECT_EQ(lit->bits.size(), 4u);
  EXPECT_EQ(lit->loc.line, 3u);
  EXPECT_EQ(lit->loc.col, 8u);
}

TEST(Parser, PercentWithoutDigitsIsAnError) {
  auto p = parse("program t;\nbegin\n  w := %\nend.\n");
  EXPECT_FALSE(p->program);
  EXPECT_EQ(p->text().rfind("t.star:3:8: error: '%' must be followed by binary digits", 0), 0u)
      << p->text();
  // %102 is the word %10 followed by the integer 2: a syntax error at the 2.
  auto q = parse("program t;\nbegin\n  w := %102\nend.\n");
  EXPECT_FALSE(q->program);
  EXPECT_EQ(q->text().rfind("t.star:3:11: error: unexpected '2'", 0), 0u) << q->text();
}

TEST(Parser, StringLiteralsWithDoubledQuotes) {
  EXPECT_EQ(exprShape("'it''s'"), "'it's'");
  EXPECT_EQ(exprShape("''''"), "'''");
  EXPECT_EQ(exprShape("''"), "''");
  EXPECT_EQ(exprShape("'a''''b'"), "'a''b'");
  EXPECT_EQ(exprShape("'{not a comment}'"), "'{not a comment}'");
  EXPECT_EQ(exprShape("'x' + 'y'"), "(+ 'x' 'y')");
}

TEST(Parser, UnterminatedStringLiteral) {
  auto p = parse("program t;\nbegin\n  writeln('abc)\nend.\n");
  EXPECT_FALSE(p->program);
  EXPECT_EQ(p->text().rfind("t.star:3:11: error: unterminated string literal\n", 0), 0u)
      << p->text();
}

TEST(Parser, IntegerLiteralLimits) {
  EXPECT_EQ(exprShape("9223372036854775807"), "9223372036854775807");
  auto p = parse("program t;\nbegin\n  x := -9223372036854775808\nend.\n");
  const Stmt* s = onlyStmt(*p);
  ASSERT_TRUE(s);
  const Expr* v = static_cast<const AssignStmt*>(s)->value.get();
  // Folded into one literal: 9223372036854775808 alone does not fit in 64 bits.
  ASSERT_EQ(v->kind, ExprKind::IntLit);
  EXPECT_EQ(static_cast<const IntLit*>(v)->value, std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(v->loc.col, 8u);
  EXPECT_EQ(exprShape("-5"), "-5");
  EXPECT_EQ(exprShape("-0"), "0");
  EXPECT_EQ(exprShape("007"), "7");
}

TEST(Parser, IntegerLiteralOverflowIsAnError) {
  auto p = parse(
      "program t;\nbegin\n"
      "  x := 9223372036854775808;\n"
      "  x := -9223372036854775809;\n"
      "  x := 99999999999999999999999\n"
      "end.\n");
  EXPECT_EQ(p->errors(), 3) << p->text();
  const std::string t = p->text();
  EXPECT_NE(t.find("t.star:3:8: error: integer literal 9223372036854775808 does not fit in 64 bits"),
            std::string::npos) << t;
  EXPECT_NE(t.find("t.star:4:9: error: integer literal 9223372036854775809 does not fit in 64 bits"),
            std::string::npos) << t;
  EXPECT_NE(t.find("t.star:5:8: error: integer literal 99999999999999999999999 does not fit"),
            std::string::npos) << t;
}

TEST(Parser, RealLiterals) {
  auto p = parse("program t;\nbegin\n  x := 2.5e3\nend.\n");
  const Stmt* s = onlyStmt(*p);
  ASSERT_TRUE(s);
  const Expr* v = static_cast<const AssignStmt*>(s)->value.get();
  ASSERT_EQ(v->kind, ExprKind::RealLit);
  EXPECT_DOUBLE_EQ(static_cast<const RealLit*>(v)->value, 2500.0);
}

// ------------------------------------------------------------------ precedence

TEST(Parser, OperatorPrecedence) {
  EXPECT_EQ(exprShape("a + b * c"), "(+ a (* b c))");
  EXPECT_EQ(exprShape("a * b + c"), "(+ (* a b) c)");
  EXPECT_EQ(exprShape("not a and b"), "(and (not a) b)");
  EXPECT_EQ(exprShape("not (a and b)"), "(not (and a b))");
  EXPECT_EQ(exprShape("-x * y"), "(* (neg x) y)");
  EXPECT_EQ(exprShape("-2 * y"), "(* -2 y)");  // a negative literal, still binding tighter
  EXPECT_EQ(exprShape("+x - y"), "(- (pos x) y)");
  EXPECT_EQ(exprShape("a or b and c"), "(or a (and b c))");
  EXPECT_EQ(exprShape("a xor b and c"), "(xor a (and b c))");
  EXPECT_EQ(exprShape("a < b + 1"), "(< a (+ b 1))");
  EXPECT_EQ(exprShape("a + 1 = b * 2"), "(= (+ a 1) (* b 2))");
  EXPECT_EQ(exprShape("a <> b"), "(<> a b)");
  EXPECT_EQ(exprShape("a <= b"), "(<= a b)");
  EXPECT_EQ(exprShape("a >= b"), "(>= a b)");
  EXPECT_EQ(exprShape("a div b mod c / d"), "(/ (mod (div a b) c) d)");
  EXPECT_EQ(exprShape("(a + b) * c"), "(* (+ a b) c)");
}

TEST(Parser, BinaryOperatorsAreLeftAssociative) {
  EXPECT_EQ(exprShape("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(exprShape("a div b div c"), "(div (div a b) c)");
  EXPECT_EQ(exprShape("a or b or c"), "(or (or a b) c)");
  EXPECT_EQ(exprShape("a - (b - c)"), "(- a (- b c))");
}

TEST(Parser, CallsAndComponents) {
  EXPECT_EQ(exprShape("COL(i + 1, T)"), "COL((+ i 1), T)");
  EXPECT_EQ(exprShape("f()"), "f()");
  EXPECT_EQ(exprShape("Y(i) + f(g(1), 2)"), "(+ Y(i) f(g(1), 2))");
  EXPECT_EQ(exprShape("not SOME(X)"), "(not SOME(X))");
}

TEST(Parser, OperatorLocationIsTheOperatorToken) {
  auto p = parse("program t;\nbegin\n  x := a +\n    b\nend.\n");
  const Stmt* s = onlyStmt(*p);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->loc.line, 3u);  // an assignment is located at its ':='
  EXPECT_EQ(s->loc.col, 5u);
  const Expr* v = static_cast<const AssignStmt*>(s)->value.get();
  EXPECT_EQ(v->loc.line, 3u);
  EXPECT_EQ(v->loc.col, 10u);
  const Expr* rhs = static_cast<const BinaryExpr*>(v)->rhs.get();
  EXPECT_EQ(rhs->loc.line, 4u);
  EXPECT_EQ(rhs->loc.col, 5u);
}

// ------------------------------------------------------------------ statements

TEST(Parser, DanglingElseBindsToTheInnerIf) {
  auto p = parse("program t;\nbegin\n  if a then if b then x := 1 else x := 2\nend.\n");
  const Stmt* s = onlyStmt(*p);
  ASSERT_TRUE(s);
  ASSERT_EQ(s->kind, StmtKind::If);
  auto* outer = static_cast<const IfStmt*>(s);
  EXPECT_EQ(sx(outer->cond.get()), "a");
  EXPECT_EQ(outer->elseS, nullptr);
  ASSERT_TRUE(outer->thenS);
  ASSERT_EQ(outer->thenS->kind, StmtKind::If);
  auto* inner = static_cast<const IfStmt*>(outer->thenS.get());
  EXPECT_EQ(sx(inner->cond.get()), "b");
  ASSERT_TRUE(inner->thenS);
  ASSERT_TRUE(inner->elseS);
  EXPECT_EQ(sx(static_cast<AssignStmt*>(inner->elseS.get())->value.get()), "2");
}

TEST(Parser, EmptyStatementsAndTrailingSemicolons) {
  auto p = parse("program t;\nbegin ; ; end.\n");
  ASSERT_TRUE(p->program) << p->text();
  EXPECT_TRUE(p->program->body->body.empty());

  auto q = parse("program t;\nbegin\n  x := 1;\n  y := 2;\nend.\n");
  ASSERT_TRUE(q->program) << q->text();
  EXPECT_EQ(q->program->body->body.size(), 2u);

  auto r = parse("program t;\nbegin end.\n");
  ASSERT_TRUE(r->program) << r->text();
  EXPECT_TRUE(r->program->body->body.empty());

  // `if c then else s`: an empty then-branch; `while c do` with an empty body.
  auto s = parse("program t;\nbegin\n  if c then else x := 1;\n  while c do ;\n  repeat until c\nend.\n");
  ASSERT_TRUE(s->program) << s->text();
  auto& body = s->program->body->body;
  ASSERT_EQ(body.size(), 3u);
  auto* i = static_cast<IfStmt*>(body[0].get());
  EXPECT_EQ(i->thenS, nullptr);
  ASSERT_TRUE(i->elseS);
  EXPECT_EQ(i->elseS->kind, StmtKind::Assign);
  EXPECT_EQ(static_cast<WhileStmt*>(body[1].get())->body, nullptr);
  EXPECT_TRUE(static_cast<RepeatStmt*>(body[2].get())->body.empty());
}

TEST(Parser, ForToAndDownto) {
  auto p = parse(
      "program t;\nbegin\n  for i := 10 downto n - 1 do x := i;\n  for j := 1 to 3 do\nend.\n");
  ASSERT_TRUE(p->program) << p->text();
  auto& body = p->program->body->body;
  ASSERT_EQ(body.size(), 2u);
  auto* down = static_cast<ForStmt*>(body[0].get());
  EXPECT_EQ(down->var, "i");
  EXPECT_TRUE(down->down);
  EXPECT_EQ(sx(down->from.get()), "10");
  EXPECT_EQ(sx(down->to.get()), "(- n 1)");
  ASSERT_TRUE(down->body);
  EXPECT_EQ(down->body->kind, StmtKind::Assign);
  auto* up = static_cast<ForStmt*>(body[1].get());
  EXPECT_EQ(up->var, "j");
  EXPECT_FALSE(up->down);
  EXPECT_EQ(up->body, nullptr);
  EXPECT_EQ(up->varLoc.line, 4u);
  EXPECT_EQ(up->varLoc.col, 7u);
}

TEST(Parser, CallStatementsAndProcedureDeclarations) {
  auto p = parse(
      "program t;\n"
      "proc P(a, b: integer; var T: table; w: word);\nvar i: integer; const k = 2;\n"
      "begin end;\n"
      "func F(x: real): boolean;\nbegin F := x > 0 end;\n"
      "begin\n  P(1, 2, T, %1);\n  writeln;\n  writeln('a', 1)\nend.\n");
  ASSERT_TRUE(p->program) << p->text();
  ASSERT_EQ(p->program->routines.size(), 2u);
  const Routine& r = *p->program->routines[0];
  EXPECT_EQ(r.name, "P");
  ASSERT_EQ(r.params.size(), 4u);
  EXPECT_EQ(r.params[0].name, "a");
  EXPECT_FALSE(r.params[0].byRef);
  EXPECT_EQ(r.params[1].spec, r.params[0].spec);  // `a, b: integer` shares one spec
  EXPECT_TRUE(r.params[2].byRef);
  EXPECT_EQ(r.params[2].spec->type, Type::Table);
  EXPECT_FALSE(r.params[3].byRef);
  EXPECT_EQ(r.params[3].spec->type, Type::Word);
  EXPECT_EQ(r.decls.vars.size(), 1u);
  EXPECT_EQ(r.decls.consts.size(), 1u);
  const Routine& f = *p->program->routines[1];
  EXPECT_TRUE(f.isFunc);
  ASSERT_TRUE(f.result);
  EXPECT_EQ(f.result->type, Type::Boolean);
  auto& body = p->program->body->body;
  ASSERT_EQ(body.size(), 3u);
  EXPECT_EQ(sx(static_cast<CallStmt*>(body[0].get())->call.get()), "P(1, 2, T, %1)");
  EXPECT_EQ(static_cast<CallStmt*>(body[1].get())->call->kind, ExprKind::Name);
  EXPECT_EQ(sx(static_cast<CallStmt*>(body[2].get())->call.get()), "writeln('a', 1)");
}

// ------------------------------------------------------------------ parse modes

TEST(Parser, UnitMode) {
  auto p = parse("unit Lib;\nuses Other, More;\nvar x: integer;\nproc P; begin end;\nend.\n",
                 ParseMode::Unit);
  ASSERT_TRUE(p->program) << p->text();
  EXPECT_EQ(p->program->name, "Lib");
  EXPECT_EQ(p->program->body, nullptr);
  ASSERT_EQ(p->program->uses.size(), 2u);
  EXPECT_EQ(p->program->uses[0].first, "Other");
  EXPECT_EQ(p->program->uses[1].first, "More");
  EXPECT_EQ(p->program->routines.size(), 1u);
  // A unit has no main body; a program is not a unit.
  EXPECT_FALSE(parse("unit L;\nbegin end.\n", ParseMode::Unit)->program);
  EXPECT_FALSE(parse("program p;\nbegin end.\n", ParseMode::Unit)->program);
  EXPECT_FALSE(parse("unit L;\nend.\n", ParseMode::Program)->program);
}

TEST(Parser, ReplInputMode) {
  auto p = parse("var x: integer;\nx := 3;; writeln(x)\n", ParseMode::ReplInput);
  ASSERT_TRUE(p->program) << p->text();
  EXPECT_EQ(p->program->decls.vars.size(), 1u);
  ASSERT_TRUE(p->program->body);
  ASSERT_EQ(p->program->body->body.size(), 2u);
  EXPECT_EQ(p->program->body->body[0]->kind, StmtKind::Assign);
  EXPECT_EQ(p->program->body->body[1]->kind, StmtKind::Call);

  auto empty = parse("", ParseMode::ReplInput);
  ASSERT_TRUE(empty->program) << empty->text();
  EXPECT_TRUE(empty->program->body->body.empty());

  auto decl = parse("func sq(n: integer): integer; begin sq := n * n end;", ParseMode::ReplInput);
  ASSERT_TRUE(decl->program) << decl->text();
  EXPECT_EQ(decl->program->routines.size(), 1u);

  // A whole program is not REPL input.
  EXPECT_FALSE(parse("program p; begin end.", ParseMode::ReplInput)->program);
}

TEST(Parser, EmptyFileIsNotAProgram) {
  auto p = parse("");
  EXPECT_FALSE(p->program);
  EXPECT_EQ(p->errors(), 1);
  EXPECT_EQ(p->text().rfind("t.star:1:1: error: unexpected end of file", 0), 0u) << p->text();
}

// ------------------------------------------------------------------ errors

TEST(Parser, RecoveryReportsSeveralErrorsInStatements) {
  auto p = parse(
      "program p;\n"           // 1
      "var x: integer;\n"      // 2
      "proc a;\n"              // 3
      "begin\n"                // 4
      "  x := 1 +\n"           // 5: operand missing; the parser finds `end` instead
      "end;\n"                 // 6
      "proc b;\n"              // 7
      "begin\n"                // 8
      "  x := )\n"             // 9
      "end;\n"                 // 10
      "begin\n"                // 11
      "  x := 3 * ;\n"         // 12: the ';' is in column 12
      "  writeln(x\n"          // 13
      "end.\n");               // 14
  EXPECT_FALSE(p->program);
  EXPECT_EQ(p->errors(), 4) << p->text();
  std::istringstream lines(p->text());
  std::string line;
  std::vector<std::string> errors;
  while (std::getline(lines, line))
    if (line.rfind("t.star:", 0) == 0) errors.push_back(line);
  ASSERT_EQ(errors.size(), 4u) << p->text();
  EXPECT_EQ(errors[0], "t.star:6:1: error: unexpected 'end'");
  EXPECT_EQ(errors[1], "t.star:9:8: error: unexpected ')'");
  EXPECT_EQ(errors[2], "t.star:12:12: error: unexpected ';'");
  EXPECT_EQ(errors[3], "t.star:14:1: error: expected ')' before 'end'");
}

TEST(Parser, RecoveryReportsSeveralErrorsInDeclarations) {
  auto p = parse(
      "program p;\n"
      "var x integer;\n"
      "var y: ;\n"
      "const c 3;\n"
      "begin\n"
      "  x := 1\n"
      "end.\n");
  EXPECT_FALSE(p->program);
  EXPECT_EQ(p->errors(), 3) << p->text();
  const std::string t = p->text();
  EXPECT_NE(t.find("t.star:2:7: error: expected ':' before 'integer'\n"), std::string::npos) << t;
  EXPECT_NE(t.find("t.star:3:8: error: unexpected ';'"), std::string::npos) << t;
  EXPECT_NE(t.find("t.star:4:9: error: expected '=' before '3'\n"), std::string::npos) << t;
}

TEST(Parser, ErrorShowsTheLineAndACaret) {
  auto p = parse("program p;\nbegin\n\tx := ;\nend.\n");
  EXPECT_FALSE(p->program);
  // The caret line copies the tab so that it lines up under the offending ';' (column 7).
  EXPECT_EQ(p->text(), "t.star:3:7: error: unexpected ';'\n\tx := ;\n\t     ^\n");
}

TEST(Parser, BadCharacters) {
  auto p = parse("program p;\nbegin\n  x := 1 ? 2\nend.\n");
  EXPECT_FALSE(p->program);
  EXPECT_EQ(p->text().rfind("t.star:3:10: error: invalid character '?'", 0), 0u) << p->text();
  auto q = parse(std::string("program p;\nbegin\n  x := 1\x01\nend.\n"));
  EXPECT_FALSE(q->program);
  EXPECT_EQ(q->text().rfind("t.star:3:9: error: invalid character (byte 0x01)", 0), 0u)
      << q->text();
}

TEST(Parser, InvalidUtf8) {
  auto p = parse("program p;\nbegin\n  writeln('\xff')\nend.\n");
  EXPECT_FALSE(p->program);
  EXPECT_EQ(p->errors(), 1);
  EXPECT_EQ(p->text().rfind(
                "t.star:3:12: error: this is not a text file: invalid UTF-8 byte 0xff\n", 0),
            0u)
      << p->text();
  // Columns count characters: the two-byte e-acute before the bad byte is one column.
  auto q = parse("program p;\nbegin\n  writeln('\xc3\xa9\xc3')\nend.\n");
  EXPECT_EQ(q->text().rfind("t.star:3:13: error: this is not a text file: invalid UTF-8 byte 0xc3", 0),
            0u)
      << q->text();
  // An overlong encoding of '/', a UTF-16 surrogate, a code point above U+10FFFF.
  for (const char* bad : {"\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80"}) {
    auto r = parse(std::string("program p;\nbegin\n  writeln('") + bad + "')\nend.\n");
    EXPECT_FALSE(r->program);
    EXPECT_EQ(r->text().rfind("t.star:3:12: error: this is not a text file", 0), 0u) << r->text();
  }
  // Valid multi-byte UTF-8 in a string and in a comment is fine.
  auto ok = parse("program p; { \xe2\x86\x92 }\nbegin\n  writeln('\xc3\xa9\xf0\x9f\x98\x80')\nend.\n");
  EXPECT_TRUE(ok->program) << ok->text();
}

TEST(Parser, NestingDepthLimitIsAnErrorNotACrash) {
  constexpr int kDepth = 70000;
  const std::string prefix = "program p;\nvar x: integer;\nbegin\n  x := ";
  const std::string source =
      prefix + std::string(kDepth, '(') + "1" + std::string(kDepth, ')') + "\nend.\n";
  std::string diagnostics;
  bool gotProgram = true;
  int errors = -1;
  SourceLoc where{};
  runWithLargeStack([&] {
    auto p = parse(source);
    gotProgram = p->program != nullptr;
    errors = p->errors();
    diagnostics = p->text();
    std::size_t colon = diagnostics.find(':');
    std::size_t colon2 = diagnostics.find(':', colon + 1);
    std::size_t colon3 = diagnostics.find(':', colon2 + 1);
    if (colon3 != std::string::npos) {
      where.line = static_cast<std::uint32_t>(std::stoul(diagnostics.substr(colon + 1, colon2 - colon - 1)));
      where.col = static_cast<std::uint32_t>(std::stoul(diagnostics.substr(colon2 + 1, colon3 - colon2 - 1)));
    }
    return 0;
  });
  EXPECT_FALSE(gotProgram);
  EXPECT_EQ(errors, 1);
  EXPECT_NE(diagnostics.find("error: program nested too deeply (more than " +
                             std::to_string(kMaxParseDepth) + " levels of syntax)"),
            std::string::npos)
      << diagnostics.substr(0, 300);
  // Reported on line 4, at one of the parentheses (the one where the limit was crossed).
  EXPECT_EQ(where.line, 4u);
  const std::size_t firstParen = prefix.size() - prefix.rfind('\n') - 1 + 1;  // column of the 1st '('
  EXPECT_GE(where.col, firstParen);
  EXPECT_LT(where.col, firstParen + kDepth);
}

TEST(Parser, TenThousandNestedBlocksParse) {
  constexpr int kDepth = 10000;
  std::string source = "program p;\nbegin\n";
  for (int i = 0; i < kDepth; ++i) source += "begin ";
  source += "x := 1";
  for (int i = 0; i < kDepth; ++i) source += " end";
  source += "\nend.\n";
  bool ok = false;
  int depth = 0;
  std::string diagnostics;
  runWithLargeStack([&] {
    auto p = parse(source);
    diagnostics = p->text();
    ok = p->program != nullptr;
    if (!ok) return 1;
    const Stmt* s = p->program->body.get();
    // Walk down the chain of blocks to the assignment.
    while (s && s->kind == StmtKind::Block) {
      auto* b = static_cast<const BlockStmt*>(s);
      if (b->body.size() != 1) break;
      s = b->body[0].get();
      ++depth;
    }
    if (!s || s->kind != StmtKind::Assign) depth = -1;
    return 0;  // the tree is destroyed here, still on the large stack
  });
  EXPECT_TRUE(ok) << diagnostics.substr(0, 300);
  EXPECT_EQ(depth, kDepth + 1);  // the program's own begin..end, then the 10,000 nested blocks
}

TEST(Parser, TooManyErrorsStopsAtTheCap) {
  // Hundreds of bad characters: the count goes on, the output stops after the cap.
  std::string source = "program p;\nbegin\n";
  for (int i = 0; i < 300; ++i) source += "  x := ?;\n";
  source += "end.\n";
  auto p = parse(source);
  EXPECT_FALSE(p->program);
  EXPECT_GT(p->errors(), Diagnostics::kMaxErrors);
  const std::string t = p->text();
  std::size_t shown = 0;
  for (std::size_t at = t.find(": error: "); at != std::string::npos; at = t.find(": error: ", at + 1))
    ++shown;
  EXPECT_EQ(shown, static_cast<std::size_t>(Diagnostics::kMaxErrors));
  EXPECT_NE(t.find("too many errors; stopping\n"), std::string::npos);
}

}  // namespace
}  // namespace star
