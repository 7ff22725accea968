// star run-server: runs programs, one after another, in this process, each exactly as `star run`
// would, for test drivers that run thousands of small programs (tests/gen/difftest.py). On a GPU
// a process pays about 0.35 s to start CUDA and tear it down; a server pays it once. One request
// per line on stdin, a JSON object:
//   {"dir": D, "out": FILE, "err": FILE, "args": [the words after `star run`]}
// The program runs in directory D with its stdout and stderr written to the two files; the reply,
// one line on stdout, is {"status": N} (N: what `star run` would exit with) or {"error": TEXT}
// for a malformed request (cli/RunServerRequest.h: a line over 1 MiB, nested too deeply, a
// program to be read from the server's own standard input, output to its standard output). The
// server ends at the end of its input. State that a process would start afresh is reset between
// programs (the memory limit, the interrupt flag); a program that crashes ends the server, as it
// would end `star run`.
// While a program runs, its standard input is /dev/null: the server's carries the requests.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/Commands.h"
#include "cli/Options.h"
#include "cli/RunServerRequest.h"
#include "core/Interrupt.h"
#include "core/MemoryLimit.h"
#include "frontend/driver/LargeStack.h"

namespace star {
namespace {

// Redirects std::cout and std::cerr to two files for one program, and back.
class Redirect {
 public:
  Redirect(const std::string& out, const std::string& err)
      : out_(out, std::ios::binary | std::ios::trunc), err_(err, std::ios::binary | std::ios::trunc),
        oldOut_(std::cout.rdbuf(out_.rdbuf())), oldErr_(std::cerr.rdbuf(err_.rdbuf())) {}
  ~Redirect() {
    std::cout.flush();
    std::cerr.flush();
    std::cout.rdbuf(oldOut_);
    std::cerr.rdbuf(oldErr_);
  }
  bool ok() const { return out_.is_open() && err_.is_open(); }

 private:
  std::ofstream out_, err_;
  std::streambuf* oldOut_;
  std::streambuf* oldErr_;
};

// Standard input is /dev/null while it lives, and then the server's again: a data file named
// "-" or /dev/stdin (LOADNUM(T, '-', ...)) must not read the requests that follow.
class StdinAside {
 public:
  StdinAside() : saved_(fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)) {
    if (saved_ < 0) return;
    const int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null >= 0) {
      aside_ = dup2(null, STDIN_FILENO) == STDIN_FILENO;
      close(null);
    }
  }
  ~StdinAside() {
    if (aside_) dup2(saved_, STDIN_FILENO);
    if (saved_ >= 0) close(saved_);
    std::clearerr(stdin);  // the end of /dev/null, seen by a program, is not the server's
  }
  StdinAside(const StdinAside&) = delete;
  StdinAside& operator=(const StdinAside&) = delete;
  bool ok() const { return aside_; }

 private:
  int saved_;
  bool aside_ = false;
};

nlohmann::json status(int n) { return {{"status", n}}; }

// One program, in the request's directory and with its outputs redirected.
nlohmann::json runRequest(const runserver::RunRequest& request) {
  if (chdir(request.dir.c_str()) != 0) return {{"error", "cannot enter " + request.dir}};
  // Before the files are opened (and truncated), with relative paths in the directory.
  if (runserver::namesStandardOutput(request.out) || runserver::namesStandardOutput(request.err))
    return {{"error", runserver::kStandardOutputRefused}};
  // Nor over the server's own requests (its standard input, by any name), nor into a FIFO, whose
  // open waits for a reader that may never come (the answer line would never be written).
  if (runserver::namesStandardInput(request.out) || runserver::namesStandardInput(request.err))
    return {{"error", runserver::kRequestsRefused}};
  if (runserver::namesFifo(request.out) || runserver::namesFifo(request.err))
    return {{"error", runserver::kFifoRefused}};
  Redirect redirect(request.out, request.err);
  if (!redirect.ok()) return {{"error", "cannot write the output files"}};
  resetMemoryLimit();
  gInterruptRequested = false;
  CommandLine cl;
  cl.command = "run";
  if (auto done = parseOptions(cl, request.args)) return status(*done);
  if (cl.file.empty()) return status(usageError("no input file", cl.command));
  // Checked here, where fd 0 is still the request stream and a relative path is in the directory.
  if (runserver::namesStandardInput(cl.file)) return {{"error", runserver::kStandardInputRefused}};
  StdinAside aside;
  if (!aside.ok()) return {{"error", "cannot set standard input aside for the program"}};
  return status(runWithLargeStack([&] { return commandRun(cl); }));
}

// The request stream, read in chunks by the bounded line reader (std::getline would keep a line
// of any length), with read(2): no stdio buffer holds requests that a program could take.
std::size_t readRequests(char* into, std::size_t size) {
  for (;;) {
    const ssize_t n = read(STDIN_FILENO, into, size);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno != EINTR) return 0;  // a failed input ends like one that ends
  }
}

}  // namespace

int commandRunServer() {
  runserver::RequestLineReader lines(readRequests);
  runserver::serveRequests(lines, std::cout, runRequest);
  return 0;
}

}  // namespace star
