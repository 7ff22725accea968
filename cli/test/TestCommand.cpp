// `star test [PATHS]`: runs the programs that carry expectations and compares (docs/CLI.md).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <system_error>

#include "cli/Commands.h"
#include "cli/test/ChildProcess.h"
#include "cli/test/Expectations.h"
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
  std::string path;    // as shown: the user's PATH, then the file below it
  bool named = false;  // named on the command line (not found in a directory)
};

// The .star files under each PATH (directories recursively, hidden ones skipped), in order.
std::vector<Case> collect(const std::vector<std::string>& paths,
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
      for (std::string& f : found)
        cases.push_back({fs::path(f).lexically_normal().string(), false});
    } else if (fs::exists(p, ec)) {
      cases.push_back({p, true});
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

// An expectation file: nullopt when there is none; a message added to `errors` when it cannot
// be read.
std::optional<std::string> readIfThere(const std::string& path, std::string& errors) {
  std::error_code ec;
  // The name itself, not what it points to: a dangling or looping link is an expectation that
  // cannot be read (an error), not a program without one.
  if (!fs::exists(fs::symlink_status(path, ec))) return std::nullopt;
  std::string error;
  auto text = readRegularFile(path, error);
  if (!text) errors += "  " + fileErrorMessage(printable(path), error) + "\n";
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

class Runner {
 public:
  Runner(const CommandLine& cl, std::uint64_t outputCap)
      : cl_(cl), self_(executablePath()), outputCap_(outputCap) {}

  // Returns whether the case counts as passed; prints its report. Skipped: not a test.
  // Interrupted: a StopSignals signal came while it ran (nothing is printed).
  enum class Outcome { Passed, Failed, Skipped, Interrupted };
  Outcome run(const Case& c);

 private:
  std::vector<std::string> command(const std::string& file, const Expectations& e) const;
  void fail(const Case& c, const std::string& report) {
    std::cout << "FAIL: " << printable(c.path) << "\n" << report;
    std::cout.flush();
  }

  const CommandLine& cl_;
  std::string self_;
  std::uint64_t outputCap_;
};

std::vector<std::string> Runner::command(const std::string& file, const Expectations& e) const {
  std::vector<std::string> argv = {self_, "run", "--backend=" + cl_.backend,
                                   "--engine=" + cl_.engine};
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

Runner::Outcome Runner::run(const Case& c) {
  std::string error;
  auto source = readRegularFile(c.path, error);
  if (!source) {
    fail(c, "  " + fileErrorMessage(printable(c.path), error) + "\n");
    return Outcome::Failed;
  }
  Expectations e = test::parseExpectations(*source);
  fs::path file(c.path);
  std::string stem = (file.parent_path() / file.stem()).string();
  std::string outPath = stem + ".expected", errPath = stem + ".expected-err";
  std::string readError;
  std::optional<std::string> expectedOut = readIfThere(outPath, readError);
  std::optional<std::string> expectedErr = readIfThere(errPath, readError);
  if (!readError.empty()) {
    fail(c, readError);
    return Outcome::Failed;
  }
  if (!e.any() && e.problems.empty() && !expectedOut && !expectedErr) {
    if (!c.named) return Outcome::Skipped;
    fail(c, "  no expectations: no " + fs::path(outPath).filename().string() + " or " +
                fs::path(errPath).filename().string() +
                " beside it, and no TEST- lines in its first comments\n");
    return Outcome::Failed;
  }
  if (!e.problems.empty()) {
    std::string report;
    for (const std::string& p : e.problems) report += "  " + printable(c.path) + ":" + p + "\n";
    fail(c, report);
    return Outcome::Failed;
  }
  if (expectedOut && e.output) {
    fail(c, "  both " + fs::path(outPath).filename().string() +
                " and a TEST-OUTPUT block: keep one\n");
    return Outcome::Failed;
  }

  std::string dir = file.has_parent_path() ? file.parent_path().string() : ".";
  test::ChildResult r =
      test::runChild(command(file.filename().string(), e), dir, cl_.timeout, outputCap_);
  if (r.interrupted || test::StopSignals::received()) return Outcome::Interrupted;
  if (!r.failure.empty()) {
    fail(c, "  " + r.failure + "\n");
    return Outcome::Failed;
  }

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
    if (!expectedErr && !r.err.empty()) report += "  stderr:\n" + indented(r.err);
  }
  if (outWrong)
    report += test::unifiedDiff(*wantOut, r.out, expectedOut ? outPath : c.path + " (TEST-OUTPUT)",
                                "stdout");
  if (errWrong) report += test::unifiedDiff(*expectedErr, r.err, errPath, "stderr");
  for (const std::string& text : e.errors)
    if (r.err.find(text) == std::string::npos) {
      report += "  stderr does not contain '" + text + "'; it was:\n" + indented(r.err) +
                cutNote("stderr", r.err, r.errBytes);
      fixable = false;
    }
  if (report.empty()) {
    std::cout << "PASS: " << printable(c.path) << "\n";
    return Outcome::Passed;
  }
  if (!cl_.update || !fixable) {
    fail(c, report);
    return Outcome::Failed;
  }
  try {
    if (outWrong && expectedOut) writeWholeFile(outPath, r.out);
    if (errWrong) writeWholeFile(errPath, r.err);
    if ((outWrong && e.output) || (statusWrong && e.statusLine))
      writeWholeFile(c.path, test::updateExpectations(
                                 *source, e, e.output ? (outWrong ? r.out : *e.output) : "",
                                 statusWrong ? std::optional<int>(r.status) : std::nullopt));
  } catch (const std::exception& ex) {
    fail(c, report + "  cannot update: " + ex.what() + "\n");
    return Outcome::Failed;
  }
  std::cout << "UPDATED: " << printable(c.path) << "\n";
  return Outcome::Passed;
}

// The message and exit status after a StopSignals signal: 128 + the signal, as a shell reports a
// process that signal ended.
int interrupted(int signal, int passed, int failed) {
  std::cout << passed << " passed, " << failed << " failed\n";
  std::cout.flush();
  std::cerr << "star: error: " << (signal == SIGINT ? "interrupted (Ctrl-C)" : "terminated")
            << ": the running program was killed and the remaining tests were not run\n";
  return 128 + signal;
}

}  // namespace

int commandTest(const CommandLine& cl) {
  std::vector<std::string> paths = cl.paths;
  if (paths.empty()) paths.push_back(".");
  const std::optional<std::uint64_t> cap = outputCap();
  if (!cap) {
    std::cerr << "star: error: STAR_TEST_OUTPUT_CAP must be a positive number of bytes\n";
    return 1;
  }
  test::StopSignals stop;  // Ctrl-C kills the running program and ends the run
  std::vector<std::string> missing;
  std::vector<Case> cases = collect(paths, missing);
  Runner runner(cl, *cap);
  int passed = 0, failed = 0;
  for (const std::string& m : missing) {
    std::cout << "FAIL: " << printable(m) << "\n  no such file or directory\n";
    ++failed;
  }
  if (executablePath().empty()) {
    std::cerr << "star: error: cannot find the star executable (/proc/self/exe) to run the tests\n";
    return 1;
  }
  for (const Case& c : cases) {
    if (test::StopSignals::received()) break;
    switch (runner.run(c)) {
      case Runner::Outcome::Passed:
        ++passed;
        break;
      case Runner::Outcome::Failed:
        ++failed;
        break;
      case Runner::Outcome::Skipped:
        break;
      case Runner::Outcome::Interrupted:
        std::cout << "INTERRUPTED: " << printable(c.path) << "\n";
        break;
    }
    std::cout.flush();
  }
  if (int signal = test::StopSignals::received()) return interrupted(signal, passed, failed);
  if (passed + failed == 0) std::cout << "no tests found (no .star files with expectations)\n";
  std::cout << passed << " passed, " << failed << " failed\n";
  std::cout.flush();
  return failed || passed == 0 ? 1 : 0;
}

}  // namespace star
