// What `star test` expects of a program (docs/CLI.md, "star test"): files beside it,
// NAME.expected (its stdout) and NAME.expected-err (its stderr), and TEST- lines in the comments
// before its first token:
//
//   TEST-ARGS: a b c      the program arguments, separated by blanks
//   TEST-STATUS: N        the exit status (default: 0, or non-zero when an error is expected)
//   TEST-ERROR: TEXT      stderr contains TEXT (repeatable: each must appear)
//   TEST-OUTPUT:          the rest of the comment is the expected stdout, its lines indented as
//                         far as TEST-OUTPUT (that much indentation is removed)
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace star::test {

// Where TEST-OUTPUT's lines are in the source, for --update.
struct OutputBlock {
  std::size_t firstLine = 0;  // the first source line (0-based) after TEST-OUTPUT:
  std::size_t endLine = 0;    // one past the last source line of the output
  std::size_t indent = 0;     // columns removed from each line
  std::string prefix;         // what starts each line of a `//` comment ("" in a block comment)
  std::string closer;         // a block comment's end ("}", "*)", "*/") that was on the last
                              // output line, to put back on a line of its own; "" otherwise
};

struct Expectations {
  std::vector<std::string> args;
  std::optional<int> status;
  std::vector<std::string> errors;    // TEST-ERROR texts
  std::optional<std::string> output;  // TEST-OUTPUT
  std::optional<OutputBlock> outputBlock;
  std::optional<std::size_t> statusLine;  // the source line of TEST-STATUS (for --update)
  std::vector<std::string> problems;      // malformed TEST- lines: "LINE: message"
  bool unit = false;  // the first token is `unit` (any case): a unit, not a program to run

  bool any() const { return !args.empty() || status || !errors.empty() || output; }
};

// The TEST- lines of a program's leading comments.
Expectations parseExpectations(const std::string& source);

// The source with the TEST-OUTPUT block replaced by `output` (and TEST-STATUS by `status`, when
// the source has that line and status is given).
std::string updateExpectations(const std::string& source, const Expectations& e,
                               const std::string& output, std::optional<int> status);

}  // namespace star::test
