// Line diffs in the unified format of `diff -u`, for `star test`'s failure reports.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace star::test {

// The text's lines without their '\n'; a last line without '\n' is a line too, marked by
// `noFinalNewline` (so that "a" and "a\n" differ, as diff says: "\ No newline at end of file").
struct Lines {
  std::vector<std::string> lines;
  bool noFinalNewline = false;
};
Lines splitLines(const std::string& text);

// The unified diff of `expected` and `actual` ("" when they are equal): the two header lines
// (`--- EXPECTEDNAME`, `+++ ACTUALNAME`), then hunks with `context` lines around each change,
// `@@ -l,s +l,s @@`. Long diffs stop after `maxLines` lines with "... N more lines of diff".
// Texts that differ in more than a few thousand lines are shown as one replacement.
std::string unifiedDiff(const std::string& expected, const std::string& actual,
                        const std::string& expectedName, const std::string& actualName,
                        std::size_t context = 3, std::size_t maxLines = 400);

}  // namespace star::test
