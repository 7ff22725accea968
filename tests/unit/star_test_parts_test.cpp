// The parts of `star test` (cli/test/): expectations in leading comments and their update, the
// unified diff, and the command help table (cli/Help.h).
#include <gtest/gtest.h>

#include "cli/Help.h"
#include "cli/test/Expectations.h"
#include "cli/test/UnifiedDiff.h"

namespace {

using star::test::parseExpectations;
using star::test::unifiedDiff;
using star::test::updateExpectations;

TEST(Expectations, BlockCommentWithEveryKind) {
  auto e = parseExpectations(
      "{ A program.\n"
      "  TEST-ARGS: graphs/a.txt  7\n"
      "  TEST-STATUS: 2\n"
      "  TEST-ERROR: division by zero\n"
      "  TEST-OUTPUT:\n"
      "  first\n"
      "    indented\n"
      "\n"
      "  last\n"
      "}\n"
      "program P;\n"
      "{ TEST-ARGS: not read: after the first token }\n"
      "begin end.\n");
  EXPECT_TRUE(e.problems.empty());
  EXPECT_EQ(e.args, (std::vector<std::string>{"graphs/a.txt", "7"}));
  EXPECT_EQ(e.status, 2);
  EXPECT_EQ(e.errors, (std::vector<std::string>{"division by zero"}));
  ASSERT_TRUE(e.output);
  EXPECT_EQ(*e.output, "first\n  indented\n\nlast\n");
}

TEST(Expectations, LineCommentsAndOtherOpeners) {
  auto e = parseExpectations(
      "// TEST-OUTPUT:\n"
      "//   0111\n"
      "//   0011\n"
      "program P; begin end.\n");
  ASSERT_TRUE(e.output);
  EXPECT_EQ(*e.output, "  0111\n  0011\n");  // indented past TEST-OUTPUT's column: kept
  auto p = parseExpectations("(* TEST-STATUS: 1 *)\n/* TEST-ERROR: oops */ program P; begin end.");
  EXPECT_EQ(p.status, 1);
  EXPECT_EQ(p.errors, (std::vector<std::string>{"oops"}));
  auto closing = parseExpectations("{ TEST-OUTPUT:\n  a\n  b }\nprogram P; begin end.");
  ASSERT_TRUE(closing.output);
  EXPECT_EQ(*closing.output, "a\nb\n");
}

TEST(Expectations, MistakesAreReportedWithTheirLine) {
  auto e = parseExpectations(
      "{ TEST-STATUS: two\n"
      "  TEST-OUTPUTS:\n"
      "  TEST-ERROR:\n"
      "  TEST-ARGS\n"
      "  TEST-OUTPUT: inline }\n"
      "program P; begin end.");
  ASSERT_EQ(e.problems.size(), 5u);
  EXPECT_EQ(e.problems[0], "1: TEST-STATUS needs a number 0..255, not 'two'");
  EXPECT_EQ(e.problems[1],
            "2: unknown 'TEST-OUTPUTS' (TEST-ARGS, TEST-STATUS, TEST-ERROR or TEST-OUTPUT)");
  EXPECT_EQ(e.problems[2], "3: TEST-ERROR needs the text stderr contains");
  EXPECT_EQ(e.problems[3], "4: 'TEST-ARGS' needs a ':'");
  EXPECT_EQ(e.problems[4],
            "5: the expected output goes on the lines after TEST-OUTPUT:, before the comment ends");
  EXPECT_FALSE(parseExpectations("program P; begin end.").any());
  EXPECT_FALSE(parseExpectations("{ unterminated TEST-STATUS: 1").any());
  EXPECT_FALSE(parseExpectations("").any());
}

TEST(Expectations, UpdateRewritesTheOutputAndStatus) {
  std::string src =
      "{ TEST-STATUS: 0\n"
      "  TEST-OUTPUT:\n"
      "  old\n"
      "}\n"
      "program P; begin end.\n";
  auto e = parseExpectations(src);
  std::string updated = updateExpectations(src, e, "new 1\n\nnew 2\n", 2);
  EXPECT_EQ(updated,
            "{ TEST-STATUS: 2\n"
            "  TEST-OUTPUT:\n"
            "  new 1\n"
            "\n"
            "  new 2\n"
            "}\n"
            "program P; begin end.\n");
  auto again = parseExpectations(updated);
  EXPECT_EQ(*again.output, "new 1\n\nnew 2\n");
  EXPECT_EQ(again.status, 2);
  // A closer on the last output line moves to a line of its own; `//` lines keep their `//`.
  std::string closing = "{ TEST-OUTPUT:\n  a\n  b } program P; begin end.\n";
  std::string u = updateExpectations(closing, parseExpectations(closing), "x\n", std::nullopt);
  EXPECT_EQ(u, "{ TEST-OUTPUT:\n  x\n} program P; begin end.\n");
  std::string slashes = "// TEST-OUTPUT:\n// a\nprogram P; begin end.";
  EXPECT_EQ(updateExpectations(slashes, parseExpectations(slashes), "b\nc\n", std::nullopt),
            "// TEST-OUTPUT:\n// b\n// c\nprogram P; begin end.");
}

TEST(UnifiedDiff, HunksAsDiffWritesThem) {
  EXPECT_EQ(unifiedDiff("same\n", "same\n", "a", "b"), "");
  EXPECT_EQ(unifiedDiff("1\n2\n3\n", "1\nTWO\n3\n", "want", "got"),
            "--- want\n+++ got\n@@ -1,3 +1,3 @@\n 1\n-2\n+TWO\n 3\n");
  // Changes far apart: two hunks with three lines of context.
  std::string a, b;
  for (int i = 1; i <= 20; ++i) {
    a += std::to_string(i) + "\n";
    b += (i == 2 ? "x" : i == 18 ? "y" : std::to_string(i)) + "\n";
  }
  EXPECT_EQ(unifiedDiff(a, b, "a", "b"),
            "--- a\n+++ b\n"
            "@@ -1,5 +1,5 @@\n 1\n-2\n+x\n 3\n 4\n 5\n"
            "@@ -15,6 +15,6 @@\n 15\n 16\n 17\n-18\n+y\n 19\n 20\n");
  EXPECT_EQ(unifiedDiff("", "new\n", "a", "b"), "--- a\n+++ b\n@@ -0,0 +1 @@\n+new\n");
  EXPECT_EQ(unifiedDiff("x\n", "x", "a", "b"),
            "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+x\n\\ No newline at end of file\n");
}

TEST(UnifiedDiff, LongDiffsAreCut) {
  std::string a, b;
  for (int i = 0; i < 1000; ++i) {
    a += "a" + std::to_string(i) + "\n";
    b += "b" + std::to_string(i) + "\n";
  }
  std::string d = unifiedDiff(a, b, "a", "b", 3, 10);
  EXPECT_NE(d.find("... 1991 more lines of diff\n"), std::string::npos) << d;
}

TEST(Help, EveryCommandHasUsageOptionsAndAnExample) {
  for (const char* c :
       {"run", "check", "dis", "compile", "repl", "test", "lsp", "opcodes", "version", "help"}) {
    std::string text = star::commandHelpText(c);
    EXPECT_EQ(text.rfind("usage: star", 0), 0u) << c;
    EXPECT_NE(text.find("\nexample:\n  star"), std::string::npos) << c;
  }
  EXPECT_NE(star::commandHelpText("test").find("  --update"), std::string::npos);
  EXPECT_NE(star::commandHelpText("run").find("  --backend=cpu|cuda|auto"), std::string::npos);
  EXPECT_EQ(star::commandHelpText("--version"), star::commandHelpText("version"));
  EXPECT_EQ(star::commandHelpText("frobnicate"), "");
  double s = 0;
  EXPECT_TRUE(star::parseSeconds("2.5", &s));
  EXPECT_EQ(s, 2.5);
  EXPECT_FALSE(star::parseSeconds("-1", &s));
  EXPECT_FALSE(star::parseSeconds("1s", &s));
  EXPECT_FALSE(star::parseSeconds("inf", &s));
}

}  // namespace
