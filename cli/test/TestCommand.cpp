// `star test [PATHS] [PATTERNS]`: runs the programs that carry expectations and compares
// (docs/CLI.md).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <string_view>
#include <system_error>

#include "cli/Commands.h"
#include "cli/test/ChildProcess.h"
#include "cli/test/Expectations.h"
#include "cli/test/Report.h"
#include "cli/test/UnifiedDiff.h"
#include "core/FileText.h"
#include "core/Printable.h"
#include "frontend/driver/StdlibLocation.h"
#include "vm/io/TableText.h"

namespace star {
namespace {

namespace fs = std::filesystem;
using test::Expectations;

// The largest program or expectation file read.
constexpr std::uint64_t kMaxExpectationBytes = std::uint64_t{64} << 20;
// How much of a program's stdout and of its stderr is kept. The environment variable
// STAR_TEST_OUTPUT_CAP (bytes) sets another cap, for the tests of `star test` itself.
constexpr std::uint64_t kDefaultOutputCap = std::uint64_t{64} << 20;

// One program to test and where its expectations are.
struct Case {
  std::string path;    // for the file system: the user's PATH, then the file below it
  std::string shown;   // for messages: relative to where `star test` started (test::shownPath)
  bool named = false;  // named on the command line (not found in a directory)
};

// The .star files under each PATH (directories recursively, hidden ones skipped), in order.
std::vector<Case> collect(const std::vector<std::string>& paths, const fs::path& start,
                          std::vector<std::string>& missing) {
  std::vector<Case> cases;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec),
          end;
      for (; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (it->is_directory(ec) && !name.empty() && name[0] == '.') {
          it.disable_recursion_pending();
          continue;
        }
        if (it->path().extension() == ".star" && it->is_regular_file(ec))
          found.push_back(it->path().string());
      }
      std::sort(found.begin(), found.end());
      for (std::string& f : found) {
        std::string path = fs::path(f).lexically_normal().string();
        cases.push_back({path, test::shownPath(path, start), false});
      }
    } else if (fs::exists(p, ec)) {
      cases.push_back({p, test::shownPath(p, start), true});
    } else {
      missing.push_back(p);
    }
  }
  return cases;
}

// What a file that is not a regular one is, for messages.
const char* fileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}

std::string notRegular(mode_t mode) {
  return std::string("is not a regular file (") + fileKind(mode) + ")";
}

// A file `star test` reads itself (a program, an expectation), or nullopt with `error` (in
// readBoundedFile's words). Only a regular file: a FIFO blocks in open() or read() until a
// writer comes, before any --timeout applies, and a device may never end. It is opened without
// blocking and checked again on the descriptor, so nothing is read from anything else.
std::optional<std::string> readRegularFile(const std::string& path, std::string& error) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    error = notRegular(st.st_mode);
    return std::nullopt;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    error = std::string("cannot read: ") + std::strerror(errno);
    return std::nullopt;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (::fstat(fd, &st) != 0) {
    error = std::string("cannot read: ") + std::strerror(errno);
    return std::nullopt;
  }
  if (!S_ISREG(st.st_mode)) {
    error = notRegular(st.st_mode);
    return std::nullopt;
  }
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) return text;
    if (n < 0 && errno == EINTR && !test::StopSignals::received()) continue;
    if (n < 0) {
      error = std::string("cannot read: ") + std::strerror(errno);
      return std::nullopt;
    }
    if (text.size() + static_cast<std::uint64_t>(n) > kMaxExpectationBytes) {
      error = "is larger than " + describeBytes(kMaxExpectationBytes);
      return std::nullopt;
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

// An expectation file: nullopt when there is none; a message (naming it as `shown`) added to
// `errors` when it cannot be read.
std::optional<std::string> readIfThere(const std::string& path, const std::string& shown,
                                       std::string& errors) {
  std::error_code ec;
  // The name itself, not what it points to: a dangling or looping link is an expectation that
  // cannot be read (an error), not a program without one.
  if (!fs::exists(fs::symlink_status(path, ec))) return std::nullopt;
  std::string error;
  auto text = readRegularFile(path, error);
  if (!text) errors += "  " + fileErrorMessage(printable(shown), error) + "\n";
  return text;
}

// The cap on each captured output: kDefaultOutputCap, or STAR_TEST_OUTPUT_CAP; nullopt when
// that is not a positive number.
std::optional<std::uint64_t> outputCap() {
  const char* text = std::getenv("STAR_TEST_OUTPUT_CAP");
  if (!text || !*text) return kDefaultOutputCap;
  std::uint64_t cap = 0;
  const char* end = text + std::strlen(text);
  auto [stop, ec] = std::from_chars(text, end, cap);
  if (ec != std::errc() || stop != end || cap == 0) return std::nullopt;
  return cap;
}

// "stdout was cut ..." when the program wrote more to a stream than star test keeps: what was
// kept could equal an expectation that the whole output does not.
std::string cutNote(const char* stream, const std::string& kept, std::uint64_t written) {
  if (written <= kept.size()) return "";
  return std::string("  ") + stream + " was cut at " + std::to_string(kept.size()) +
         " bytes (the program wrote " + std::to_string(written) +
         "): it cannot be compared in full\n";
}

std::string indented(const std::string& text) {
  std::string out;
  for (const std::string& line : test::splitLines(text).lines) out += "  | " + line + "\n";
  return out;
}

// A case read: whether it is a test, and what it expects.
struct Prepared {
  enum class Kind {
    Test,            // runs
    Broken,          // fails without running: `report` says why
    Unit,            // a unit without expectations, found in a directory: not a test, no word
    NoExpectations,  // a program without expectations, found in a directory: a warning
  };
  Kind kind = Kind::Broken;
  std::string report;
  std::string source;
  Expectations e;
  std::string outPath, errPath;    // NAME.expected, NAME.expected-err
  std::string outShown, errShown;  // the same, as messages name them
  std::optional<std::string> expectedOut, expectedErr;
};

// What one case gave.
struct Result {
  enum class Outcome { Passed, Updated, Failed, Warned, Skipped, Interrupted };
  Outcome outcome = Outcome::Failed;
  std::string report;   // what differs (Failed), what to add (Warned)
  std::string command;  // the shell command that ran it (-v); "" when it did not run
  bool ran = false;     // it ran to an end: out and err are what it wrote
  std::string out, err;
};

class Runner {
 public:
  Runner(const CommandLine& cl, std::uint64_t outputCap)
      : cl_(cl), self_(executablePath()), outputCap_(outputCap) {}

  // Reads the program and its expectation files.
  Prepared prepare(const Case& c) const;
  // Runs a prepared case (Skipped for a unit, Warned for a program without expectations).
  // Interrupted: a StopSignals signal came while it ran.
  Result run(const Case& c, const Prepared& p) const;

 private:
  std::vector<std::string> command(const std::string& file, const Expectations& e) const;

  const CommandLine& cl_;
  std::string self_;
  std::uint64_t outputCap_;
};

std::vector<std::string> Runner::command(const std::string& file, const Expectations& e) const {
  std::vector<std::string> argv = {self_, "run", "--backend=" + cl_.backend,
                                   "--engine=" + cl_.engine};
  if (cl_.devices != "1") argv.push_back("--devices=" + cl_.devices);
  if (cl_.noNative) argv.push_back("--no-native");
  if (cl_.noParallelLoops) argv.push_back("--no-parallel-loops");
  if (!cl_.warnUnused) argv.push_back("-Wno-unused");
  if (cl_.maxMemory) argv.push_back("--max-memory=" + std::to_string(cl_.maxMemory));
  for (const std::string& d : cl_.stdlibPaths) {
    std::error_code ec;
    argv.push_back("--stdlib-path=" + fs::absolute(d, ec).string());
  }
  argv.push_back(file);
  argv.insert(argv.end(), e.args.begin(), e.args.end());
  return argv;
}

Prepared Runner::prepare(const Case& c) const {
  Prepared p;
  std::string error;
  auto source = readRegularFile(c.path, error);
  if (!source) {
    p.report = "  " + fileErrorMessage(printable(c.shown), error) + "\n";
    return p;
  }
  p.source = std::move(*source);
  p.e = test::parseExpectations(p.source);
  const Expectations& e = p.e;
  fs::path file(c.path), shown(c.shown);
  std::string stem = (file.parent_path() / file.stem()).string();
  p.outPath = stem + ".expected";
  p.errPath = stem + ".expected-err";
  p.outShown = fs::path(shown).replace_extension(".expected").string();
  p.errShown = fs::path(shown).replace_extension(".expected-err").string();
  const std::string outName = fs::path(p.outPath).filename().string();
  const std::string errName = fs::path(p.errPath).filename().string();
  std::string readError;
  p.expectedOut = readIfThere(p.outPath, p.outShown, readError);
  p.expectedErr = readIfThere(p.errPath, p.errShown, readError);
  if (!readError.empty()) {
    p.report = readError;
    return p;
  }
  if (!e.any() && e.problems.empty() && !p.expectedOut && !p.expectedErr) {
    if (!c.named) {
      p.kind = e.unit ? Prepared::Kind::Unit : Prepared::Kind::NoExpectations;
      p.report = "  to test it, add " + outName + " (its stdout), " + errName +
                 " (its stderr) or TEST- lines in its first comment (star help test);\n"
                 "  to record what it prints now: touch " +
                 test::shellWord(p.outShown) + " && star test --update " +
                 test::shellWord(c.shown) + "\n";
      return p;
    }
    p.report = "  no expectations: no " + outName + " or " + errName +
               " beside it, and no TEST- lines in its first comments\n";
    return p;
  }
  if (!e.problems.empty()) {
    for (const std::string& problem : e.problems)
      p.report += "  " + printable(c.shown) + ":" + problem + "\n";
    return p;
  }
  if (p.expectedOut && e.output) {
    p.report = "  both " + outName + " and a TEST-OUTPUT block: keep one\n";
    return p;
  }
  p.kind = Prepared::Kind::Test;
  return p;
}

Result Runner::run(const Case& c, const Prepared& p) const {
  Result result;
  switch (p.kind) {
    case Prepared::Kind::Test:
      break;
    case Prepared::Kind::Broken:
      result.report = p.report;
      return result;
    case Prepared::Kind::Unit:
      result.outcome = Result::Outcome::Skipped;
      return result;
    case Prepared::Kind::NoExpectations:
      result.outcome = Result::Outcome::Warned;
      result.report = p.report;
      return result;
  }
  const Expectations& e = p.e;
  const std::optional<std::string>& expectedOut = p.expectedOut;
  const std::optional<std::string>& expectedErr = p.expectedErr;
  fs::path file(c.path);
  std::string dir = file.has_parent_path() ? file.parent_path().string() : ".";
  const std::vector<std::string> argv = command(file.filename().string(), e);
  const fs::path shownDir = fs::path(c.shown).parent_path();
  result.command = test::shellCommand(shownDir.empty() ? "." : shownDir.string(), argv);
  test::ChildResult r = test::runChild(argv, dir, cl_.timeout, outputCap_);
  if (r.interrupted || test::StopSignals::received()) {
    result.outcome = Result::Outcome::Interrupted;
    return result;
  }
  if (!r.failure.empty()) {
    result.report = "  " + r.failure + "\n";
    return result;
  }
  result.ran = true;
  result.out = r.out;
  result.err = r.err;

  // What differs, and what --update can rewrite.
  std::string report;
  bool fixable = true;
  std::optional<std::string> wantOut = expectedOut ? expectedOut : e.output;
  // The status: TEST-STATUS; else non-zero with TEST-ERROR; else 0, unless NAME.expected-err
  // holds the whole stderr (a warning or an error: the stderr tells which).
  bool errorExpected = !e.errors.empty();
  bool statusWrong = e.status        ? r.status != *e.status
                     : errorExpected ? r.status == 0
                     : !expectedErr  ? r.status != 0
                                     : false;
  bool outWrong = wantOut && *wantOut != r.out;
  bool errWrong = expectedErr && *expectedErr != r.err;
  // An output longer than the cap fails whatever its kept part is (and --update never writes a
  // cut output as the expectation).
  const std::string outCut = wantOut ? cutNote("stdout", r.out, r.outBytes) : "";
  const std::string errCut = expectedErr ? cutNote("stderr", r.err, r.errBytes) : "";
  report += outCut + errCut;
  if (!outCut.empty() || !errCut.empty()) fixable = false;
  if (r.timedOut) {
    report += "  timed out after " + std::to_string(static_cast<int>(cl_.timeout)) + " s\n";
    fixable = false;
  } else if (statusWrong) {
    report += "  exit status " + std::to_string(r.status) + ", expected " +
              (e.status        ? std::to_string(*e.status)
               : errorExpected ? "non-zero"
                               : "0") +
              "\n";
    if (!e.statusLine) fixable = false;
    // -v shows the whole stderr after the report.
    if (!expectedErr && !r.err.empty() && cl_.verbosity <= 0)
      report += "  stderr:\n" + indented(r.err);
  }
  if (outWrong)
    report += test::unifiedDiff(*wantOut, r.out,
                                expectedOut ? p.outShown : c.shown + " (TEST-OUTPUT)", "stdout");
  if (errWrong) report += test::unifiedDiff(*expectedErr, r.err, p.errShown, "stderr");
  for (const std::string& text : e.errors)
    if (r.err.find(text) == std::string::npos) {
      report += "  stderr does not contain '" + text + "'; it was:\n" + indented(r.err) +
                cutNote("stderr", r.err, r.errBytes);
      fixable = false;
    }
  if (report.empty()) {
    result.outcome = Result::Outcome::Passed;
    return result;
  }
  result.report = report;
  if (!cl_.update || !fixable) return result;
  try {
    if (outWrong && expectedOut) writeWholeFile(p.outPath, r.out);
    if (errWrong) writeWholeFile(p.errPath, r.err);
    if ((outWrong && e.output) || (statusWrong && e.statusLine))
      writeWholeFile(c.path, test::updateExpectations(
                                 p.source, e, e.output ? (outWrong ? r.out : *e.output) : "",
                                 statusWrong ? std::optional<int>(r.status) : std::nullopt));
  } catch (const std::exception& ex) {
    result.report = report + "  cannot update: " + ex.what() + "\n";
    return result;
  }
  result.outcome = Result::Outcome::Updated;
  result.report.clear();
  return result;
}

// Prints what `star test` finds, in the words, colours and detail that -q, -v and --color ask
// for.
class Reporter {
 public:
  Reporter(int verbosity, bool color) : verbosity_(verbosity), paint_{color} {}

  const test::Paint& paint() const { return paint_; }

  // A status word, padded to a column, and the rest of the line.
  void head(test::Color color, std::string_view word, const std::string& rest) const {
    const std::size_t pad = word.size() < 8 ? 8 - word.size() : 1;
    std::cout << paint_(color, word) << std::string(pad, ' ') << rest << "\n";
  }

  void missing(const std::string& shown) const {
    head(test::Color::Red, "FAILED", printable(shown));
    std::cout << "  no such file or directory\n";
  }

  void result(const Case& c, const Result& r, double seconds) const {
    const std::string timed = printable(c.shown) + " (" + test::secondsText(seconds) + ")";
    using Outcome = Result::Outcome;
    switch (r.outcome) {
      case Outcome::Skipped:
        return;
      case Outcome::Passed:
        if (verbosity_ < 0) return;
        head(test::Color::Green, "ok", timed);
        break;
      case Outcome::Updated:
        head(test::Color::Green, "updated", timed);
        break;
      case Outcome::Failed:
        head(test::Color::Red, "FAILED", timed);
        break;
      case Outcome::Warned:
        head(test::Color::Yellow, "warning", printable(c.shown) + ": no expectations, not tested");
        break;
      case Outcome::Interrupted:
        head(test::Color::Red, "INTERRUPTED", timed);
        break;
    }
    if (verbosity_ > 0 && !r.command.empty()) std::cout << "  $ " << printable(r.command) << "\n";
    std::cout << r.report;
    if (verbosity_ > 0 && r.outcome == Outcome::Failed && r.ran) {
      std::cout << "  stdout:" << (r.out.empty() ? " (empty)\n" : "\n") << indented(r.out);
      std::cout << "  stderr:" << (r.err.empty() ? " (empty)\n" : "\n") << indented(r.err);
    }
    std::cout.flush();
  }

 private:
  int verbosity_;
  test::Paint paint_;
};

// The words of the command line after `star test`: PATHS, and NAME-PATTERNs (with --filter's).
void splitPathsAndPatterns(const CommandLine& cl, std::vector<std::string>& paths,
                           std::vector<std::string>& patterns) {
  patterns = cl.filters;
  for (const std::string& word : cl.paths) {
    std::error_code ec;
    // A dangling link is a path too (that fails): the name exists.
    const bool exists = !word.empty() && fs::exists(fs::symlink_status(word, ec));
    (test::isNamePattern(word, exists) ? patterns : paths).push_back(word);
  }
  if (paths.empty()) paths.push_back(".");
}

std::string quotedList(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i)
    out += (i == 0                  ? ""
            : i + 1 == words.size() ? " or "
                                    : ", ") +
           ("'" + printable(words[i]) + "'");
  return out;
}

}  // namespace

int commandTest(const CommandLine& cl) {
  const auto began = std::chrono::steady_clock::now();
  const auto secondsSince = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  std::vector<std::string> paths, patterns;
  splitPathsAndPatterns(cl, paths, patterns);
  const std::optional<std::uint64_t> cap = outputCap();
  if (!cap) {
    std::cerr << "star: error: STAR_TEST_OUTPUT_CAP must be a positive number of bytes\n";
    return 1;
  }
  const std::optional<test::ColorChoice> choice = test::parseColorChoice(cl.color);
  const bool color = test::useColor(choice.value_or(test::ColorChoice::Auto), ::isatty(1) == 1,
                                    std::getenv("NO_COLOR"), std::getenv("TERM"));
  Reporter reporter(cl.verbosity, color);
  std::error_code ec;
  const fs::path start = fs::current_path(ec);  // empty when it cannot be known: paths as given
  std::vector<std::string> missing;
  std::vector<Case> cases = collect(paths, start, missing);
  Runner runner(cl, *cap);

  if (cl.list) {
    // The tests that would run, and nothing else on stdout; nothing runs.
    for (const std::string& m : missing)
      std::cerr << "star: error: " << printable(test::shownPath(m, start))
                << ": no such file or directory\n";
    for (const Case& c : cases) {
      if (!test::matchesFilters(c.shown, patterns)) continue;
      const Prepared::Kind kind = runner.prepare(c).kind;
      if (kind == Prepared::Kind::Test || kind == Prepared::Kind::Broken)
        std::cout << printable(c.shown) << "\n";
    }
    std::cout.flush();
    return missing.empty() ? 0 : 1;
  }

  test::StopSignals stop;  // Ctrl-C kills the running program and ends the run
  test::Counts counts;
  for (const std::string& m : missing) {
    reporter.missing(test::shownPath(m, start));
    ++counts.failed;
  }
  if (executablePath().empty()) {
    std::cerr << "star: error: cannot find the star executable (/proc/self/exe) to run the tests\n";
    return 1;
  }
  for (const Case& c : cases) {
    if (test::StopSignals::received()) break;
    const auto t = std::chrono::steady_clock::now();
    const Prepared prepared = runner.prepare(c);
    if (!test::matchesFilters(c.shown, patterns)) {
      if (prepared.kind == Prepared::Kind::Test || prepared.kind == Prepared::Kind::Broken)
        ++counts.filteredOut;
      continue;
    }
    const Result r = runner.run(c, prepared);
    switch (r.outcome) {
      case Result::Outcome::Passed:
      case Result::Outcome::Updated:
        ++counts.passed;
        break;
      case Result::Outcome::Failed:
        ++counts.failed;
        break;
      case Result::Outcome::Warned:
        ++counts.warnings;
        break;
      case Result::Outcome::Skipped:
      case Result::Outcome::Interrupted:
        break;
    }
    reporter.result(c, r, secondsSince(t));
  }
  if (int signal = test::StopSignals::received()) {
    // The counts so far, and the exit status of a process that signal ended (128 + it).
    std::cout << test::summaryLine(counts, cl.denyWarnings, true, secondsSince(began),
                                   reporter.paint())
              << "\n";
    std::cout.flush();
    std::cerr << "star: error: " << (signal == SIGINT ? "interrupted (Ctrl-C)" : "terminated")
              << ": the running program was killed and the remaining tests were not run\n";
    return 128 + signal;
  }
  if (counts.passed + counts.failed == 0) {
    if (patterns.empty())
      std::cout << "no tests found (no .star files with expectations)\n";
    else
      std::cout << "no tests found (no test's path contains " << quotedList(patterns) << ")\n";
  }
  std::cout << test::summaryLine(counts, cl.denyWarnings, false, secondsSince(began),
                                 reporter.paint())
            << "\n";
  std::cout.flush();
  return test::runSucceeded(counts, cl.denyWarnings) ? 0 : 1;
}

}  // namespace star
