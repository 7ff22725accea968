// `star test [PATHS]`: runs the programs that carry expectations and compares (docs/CLI.md).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <system_error>

#include "cli/Commands.h"
#include "frontend/driver/StdlibLocation.h"
#include "cli/test/ChildProcess.h"
#include "cli/test/Expectations.h"
#include "cli/test/UnifiedDiff.h"
#include "core/FileText.h"
#include "core/Printable.h"
#include "vm/io/TableText.h"

namespace star {
namespace {

namespace fs = std::filesystem;
using test::Expectations;

// The largest program or expectation file read.
constexpr std::uint64_t kMaxExpectationBytes = std::uint64_t{64} << 20;

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

std::optional<std::string> readIfThere(const std::string& path, std::string& error) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::nullopt;
  auto text = readBoundedFile(path, kMaxExpectationBytes, error);
  if (!text) error = fileErrorMessage(path, error);
  return text;
}

std::string indented(const std::string& text) {
  std::string out;
  for (const std::string& line : test::splitLines(text).lines) out += "  | " + line + "\n";
  return out;
}

class Runner {
 public:
  explicit Runner(const CommandLine& cl) : cl_(cl), self_(executablePath()) {}

  // Returns whether the case counts as passed; prints its report. Skipped: not a test.
  enum class Outcome { Passed, Failed, Skipped };
  Outcome run(const Case& c);

 private:
  std::vector<std::string> command(const std::string& file, const Expectations& e) const;
  void fail(const Case& c, const std::string& report) {
    std::cout << "FAIL: " << printable(c.path) << "\n" << report;
    std::cout.flush();
  }

  const CommandLine& cl_;
  std::string self_;
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
  auto source = readBoundedFile(c.path, kMaxExpectationBytes, error);
  if (!source) {
    fail(c, "  " + fileErrorMessage(c.path, error) + "\n");
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
    fail(c, "  " + readError + "\n");
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
  test::ChildResult r = test::runChild(command(file.filename().string(), e), dir, cl_.timeout);
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
      report += "  stderr does not contain '" + text + "'; it was:\n" + indented(r.err);
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

}  // namespace

int commandTest(const CommandLine& cl) {
  std::vector<std::string> paths = cl.paths;
  if (paths.empty()) paths.push_back(".");
  std::vector<std::string> missing;
  std::vector<Case> cases = collect(paths, missing);
  Runner runner(cl);
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
    switch (runner.run(c)) {
      case Runner::Outcome::Passed:
        ++passed;
        break;
      case Runner::Outcome::Failed:
        ++failed;
        break;
      case Runner::Outcome::Skipped:
        break;
    }
    std::cout.flush();
  }
  if (passed + failed == 0) std::cout << "no tests found (no .star files with expectations)\n";
  std::cout << passed << " passed, " << failed << " failed\n";
  std::cout.flush();
  return failed || passed == 0 ? 1 : 0;
}

}  // namespace star
