// How `star test` reports (docs/CLI.md, "star test"): which words of its command line are name
// patterns, which tests they select, the paths as shown (relative to where `star test` started),
// times, colour, the shell command of a test (-v) and the summary line. Header-only, so that
// tests/unit/star_test_parts_test.cpp checks it without a library of its own.
#pragma once

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace star::test {

// --color=auto|always|never.
enum class ColorChoice { Auto, Always, Never };

inline std::optional<ColorChoice> parseColorChoice(std::string_view text) {
  if (text == "auto") return ColorChoice::Auto;
  if (text == "always") return ColorChoice::Always;
  if (text == "never") return ColorChoice::Never;
  return std::nullopt;
}

// Whether to colour: `always` and `never` say so (the command line overrides NO_COLOR, as
// https://no-color.org asks); `auto` colours a terminal, unless NO_COLOR is set to a non-empty
// value or TERM is "dumb". `noColor` and `term` are the variables' values (nullptr: unset).
inline bool useColor(ColorChoice choice, bool stdoutIsTerminal, const char* noColor,
                     const char* term) {
  if (choice != ColorChoice::Auto) return choice == ColorChoice::Always;
  if (noColor && *noColor) return false;
  if (term && std::string_view(term) == "dumb") return false;
  return stdoutIsTerminal;
}

enum class Color { Green, Red, Yellow };

// Text in a colour, or as it is when colour is off.
struct Paint {
  bool on = false;
  std::string operator()(Color color, std::string_view text) const {
    if (!on) return std::string(text);
    const char* code = color == Color::Green ? "\x1b[32m"
                       : color == Color::Red ? "\x1b[31m"
                                             : "\x1b[33m";
    return code + std::string(text) + "\x1b[0m";
  }
};

// A word after `star test` that is not an option is a PATH when a file or directory of that
// name exists, or when it contains '/' or ends in ".star" (a path that is missing: it fails);
// any other word is a NAME-PATTERN.
inline bool isNamePattern(const std::string& word, bool exists) {
  if (exists || word.empty()) return false;
  if (word.find('/') != std::string::npos) return false;
  return !(word.size() >= 5 && word.compare(word.size() - 5, 5, ".star") == 0);
}

// A test is selected when there are no patterns or its path as shown contains one of them
// (case-sensitive substrings, as `cargo test NAME` filters).
inline bool matchesFilters(const std::string& shown, const std::vector<std::string>& patterns) {
  if (patterns.empty()) return true;
  for (const std::string& p : patterns)
    if (shown.find(p) != std::string::npos) return true;
  return false;
}

// A path as `star test` prints it: relative to `start` (the directory it was started in) when
// the file is there or below it, however it was named; otherwise as it was given, normalised
// (`../units/a.star`, `/srv/tests/a.star`). `start` is absolute (empty: unknown, paths as given).
inline std::string shownPath(const std::string& path, const std::filesystem::path& start) {
  namespace fs = std::filesystem;
  const fs::path given = fs::path(path).lexically_normal();
  if (start.empty()) return given.string();
  const fs::path absolute = given.is_absolute() ? given : (start / given).lexically_normal();
  const fs::path relative = absolute.lexically_relative(start);
  if (!relative.empty() && *relative.begin() != ".." && relative != ".") return relative.string();
  return given.string();
}

// "0.12 s".
inline std::string secondsText(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f s", seconds < 0 ? 0.0 : seconds);
  return text;
}

// A word as a POSIX shell reads it back: as it is when it holds only safe characters, else in
// single quotes.
inline std::string shellWord(const std::string& word) {
  bool safe = !word.empty();
  for (unsigned char c : word)
    if (!(std::isalnum(c) ||
          std::string_view("_-./=+:,@%^").find(static_cast<char>(c)) != std::string_view::npos))
      safe = false;
  if (safe) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// `cd DIR && ARGV...`: what a test runs, to paste into a shell (-v).
inline std::string shellCommand(const std::string& dir, const std::vector<std::string>& argv) {
  std::string out = "cd " + shellWord(dir) + " &&";
  for (const std::string& a : argv) out += " " + shellWord(a);
  return out;
}

// What a run counted.
struct Counts {
  int passed = 0, failed = 0, warnings = 0, filteredOut = 0;
};

// Whether the run succeeded: every test passed and one at least ran, and no warning when they
// are denied.
inline bool runSucceeded(const Counts& c, bool denyWarnings) {
  return c.failed == 0 && c.passed > 0 && !(denyWarnings && c.warnings > 0);
}

// "test result: ok. 3 passed; 0 failed; 1 warning; 2 filtered out; finished in 0.42 s" (the
// warnings and filtered out only when there are some); `interrupted` says so instead of ok.
inline std::string summaryLine(const Counts& c, bool denyWarnings, bool interrupted, double seconds,
                               const Paint& paint) {
  std::string result = interrupted                     ? paint(Color::Red, "interrupted")
                       : runSucceeded(c, denyWarnings) ? paint(Color::Green, "ok")
                                                       : paint(Color::Red, "FAILED");
  std::string line = "test result: " + result + ". " + std::to_string(c.passed) + " passed; " +
                     std::to_string(c.failed) + " failed";
  if (c.warnings > 0)
    line += "; " +
            paint(Color::Yellow,
                  std::to_string(c.warnings) + (c.warnings == 1 ? " warning" : " warnings")) +
            (denyWarnings ? " (denied)" : "");
  if (c.filteredOut > 0) line += "; " + std::to_string(c.filteredOut) + " filtered out";
  return line + "; finished in " + secondsText(seconds);
}

}  // namespace star::test
