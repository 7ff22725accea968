// The parts of `star test` (cli/test/): expectations in leading comments and their update, the
// unified diff, how it reports (name patterns, shown paths, colour, times, the summary line) and
// the command help table (cli/Help.h).
#include <gtest/gtest.h>

#include "cli/Help.h"
#include "cli/test/Expectations.h"
#include "cli/test/Report.h"
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

TEST(Expectations, UnitsAreToldFromPrograms) {
  EXPECT_TRUE(parseExpectations("{ helpers }\nunit helpers;\nend.").unit);
  EXPECT_TRUE(parseExpectations("// a unit\n  UNIT Helpers; end.").unit);
  EXPECT_TRUE(parseExpectations("(* x *) Unit u; end.").unit);
  EXPECT_FALSE(parseExpectations("{ unit u; }\nprogram P; begin end.").unit);
  EXPECT_FALSE(parseExpectations("units_p := 1").unit);
  EXPECT_FALSE(parseExpectations("unit1 x").unit);
  EXPECT_FALSE(parseExpectations("").unit);
  EXPECT_FALSE(parseExpectations("{ unterminated\nunit u;").unit);
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

TEST(Report, WordsThatNameNoFileArePatterns) {
  using star::test::isNamePattern;
  EXPECT_TRUE(isNamePattern("warshall", false));
  EXPECT_TRUE(isNamePattern("graphs_", false));
  EXPECT_FALSE(isNamePattern("warshall", true));        // a file or directory of that name
  EXPECT_FALSE(isNamePattern("missing.star", false));   // a program that is missing: it fails
  EXPECT_FALSE(isNamePattern("tests/missing", false));  // a path that is missing
  EXPECT_FALSE(isNamePattern("", false));
  EXPECT_TRUE(isNamePattern(".sta", false));
}

TEST(Report, FiltersAreSubstringsOfTheShownPath) {
  using star::test::matchesFilters;
  EXPECT_TRUE(matchesFilters("examples/warshall.star", {}));
  EXPECT_TRUE(matchesFilters("examples/warshall.star", {"warsh"}));
  EXPECT_TRUE(matchesFilters("examples/warshall.star", {"nope", "ples/w"}));
  EXPECT_FALSE(matchesFilters("examples/warshall.star", {"Warshall"}));  // case matters
  EXPECT_FALSE(matchesFilters("examples/floyd.star", {"warshall", "prim"}));
}

TEST(Report, PathsAreShownRelativeToTheStart) {
  using star::test::shownPath;
  const std::filesystem::path start = "/home/u/star";
  EXPECT_EQ(shownPath("examples/warshall.star", start), "examples/warshall.star");
  EXPECT_EQ(shownPath("./examples//warshall.star", start), "examples/warshall.star");
  EXPECT_EQ(shownPath("/home/u/star/examples/warshall.star", start), "examples/warshall.star");
  EXPECT_EQ(shownPath("../star/examples/a.star", start), "examples/a.star");
  // Outside the start: as given, normalised.
  EXPECT_EQ(shownPath("../units/a.star", start), "../units/a.star");
  EXPECT_EQ(shownPath("/srv/tests//a.star", start), "/srv/tests/a.star");
  EXPECT_EQ(shownPath("/home/u/starling/a.star", start), "/home/u/starling/a.star");
  // The start unknown (its directory removed): as given.
  EXPECT_EQ(shownPath("/home/u/star/a.star", {}), "/home/u/star/a.star");
}

TEST(Report, ColourFollowsTheChoiceTheTerminalAndNoColor) {
  using star::test::ColorChoice;
  using star::test::parseColorChoice;
  using star::test::useColor;
  EXPECT_EQ(parseColorChoice("auto"), ColorChoice::Auto);
  EXPECT_EQ(parseColorChoice("always"), ColorChoice::Always);
  EXPECT_EQ(parseColorChoice("never"), ColorChoice::Never);
  EXPECT_FALSE(parseColorChoice("yes"));
  EXPECT_TRUE(useColor(ColorChoice::Auto, true, nullptr, "xterm"));
  EXPECT_FALSE(useColor(ColorChoice::Auto, false, nullptr, "xterm"));  // a pipe, a file
  EXPECT_FALSE(useColor(ColorChoice::Auto, true, "1", "xterm"));       // NO_COLOR=1
  EXPECT_TRUE(useColor(ColorChoice::Auto, true, "", "xterm"));         // NO_COLOR= (empty)
  EXPECT_FALSE(useColor(ColorChoice::Auto, true, nullptr, "dumb"));
  EXPECT_TRUE(useColor(ColorChoice::Always, false, "1", nullptr));  // the command line wins
  EXPECT_FALSE(useColor(ColorChoice::Never, true, nullptr, "xterm"));
  star::test::Paint on{true}, off{false};
  EXPECT_EQ(on(star::test::Color::Green, "ok"), "\x1b[32mok\x1b[0m");
  EXPECT_EQ(on(star::test::Color::Red, "FAILED"), "\x1b[31mFAILED\x1b[0m");
  EXPECT_EQ(on(star::test::Color::Yellow, "warning"), "\x1b[33mwarning\x1b[0m");
  EXPECT_EQ(off(star::test::Color::Red, "FAILED"), "FAILED");
}

TEST(Report, TimesCommandsAndTheSummaryLine) {
  using star::test::Counts;
  using star::test::summaryLine;
  EXPECT_EQ(star::test::secondsText(0.123), "0.12 s");
  EXPECT_EQ(star::test::secondsText(12.0), "12.00 s");
  EXPECT_EQ(star::test::shellWord("a.star"), "a.star");
  EXPECT_EQ(star::test::shellWord("it's here"), "'it'\\''s here'");
  EXPECT_EQ(star::test::shellWord(""), "''");
  EXPECT_EQ(star::test::shellCommand("my dir", {"/bin/star", "run", "--backend=cpu", "p.star"}),
            "cd 'my dir' && /bin/star run --backend=cpu p.star");
  star::test::Paint off{false}, on{true};
  EXPECT_EQ(summaryLine(Counts{12, 0, 0, 0}, false, false, 1.4, off),
            "test result: ok. 12 passed; 0 failed; finished in 1.40 s");
  EXPECT_EQ(summaryLine(Counts{2, 1, 1, 3}, false, false, 0.5, off),
            "test result: FAILED. 2 passed; 1 failed; 1 warning; 3 filtered out; finished in "
            "0.50 s");
  // Warnings pass unless they are denied; no test at all is a failure.
  EXPECT_EQ(summaryLine(Counts{1, 0, 2, 0}, false, false, 0, off),
            "test result: ok. 1 passed; 0 failed; 2 warnings; finished in 0.00 s");
  EXPECT_EQ(summaryLine(Counts{1, 0, 2, 0}, true, false, 0, off),
            "test result: FAILED. 1 passed; 0 failed; 2 warnings (denied); finished in 0.00 s");
  EXPECT_FALSE(star::test::runSucceeded(Counts{1, 0, 2, 0}, true));
  EXPECT_TRUE(star::test::runSucceeded(Counts{1, 0, 2, 0}, false));
  EXPECT_FALSE(star::test::runSucceeded(Counts{0, 0, 0, 0}, false));
  EXPECT_EQ(summaryLine(Counts{0, 0, 0, 0}, false, true, 0, off),
            "test result: interrupted. 0 passed; 0 failed; finished in 0.00 s");
  EXPECT_EQ(summaryLine(Counts{1, 0, 1, 0}, false, false, 0, on),
            "test result: \x1b[32mok\x1b[0m. 1 passed; 0 failed; \x1b[33m1 warning\x1b[0m; "
            "finished in 0.00 s");
}

TEST(Help, EveryCommandHasUsageOptionsAndAnExample) {
  for (const char* c :
       {"run", "check", "dis", "compile", "repl", "test", "lsp", "opcodes", "version", "help"}) {
    std::string text = star::commandHelpText(c);
    EXPECT_EQ(text.rfind("usage: star", 0), 0u) << c;
    EXPECT_NE(text.find("\nexample:\n  star"), std::string::npos) << c;
  }
  EXPECT_NE(star::commandHelpText("test").find("  --update"), std::string::npos);
  for (const char* option : {"  --list", "  -q, --quiet", "  -v, --verbose",
                             "  --color=auto|always|never", "  --filter=PATTERN",
                             "  --deny-warnings"})
    EXPECT_NE(star::commandHelpText("test").find(option), std::string::npos) << option;
  EXPECT_EQ(star::commandHelpText("run").find("--quiet"), std::string::npos);
  // Both spellings of an option are suggested; a value is kept.
  EXPECT_EQ(star::suggestOption("--verbos"), "--verbose");
  EXPECT_EQ(star::suggestOption("--quite"), "--quiet");
  EXPECT_EQ(star::suggestOption("--colr=never"), "--color=never");
  EXPECT_EQ(star::suggestOption("--colour"), "--color=auto|always|never");
  EXPECT_EQ(star::suggestOption("-v"), "");
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
