// star run-server: runs programs, one after another, in this process, each exactly as `star run`
// would, for test drivers that run thousands of small programs (tests/gen/difftest.py). On a GPU
// a process pays about 0.35 s to start CUDA and tear it down; a server pays it once. One request
// per line on stdin, a JSON object:
//   {"dir": D, "out": FILE, "err": FILE, "args": [the words after `star run`]}
// The program runs in directory D with its stdout and stderr written to the two files; the reply,
// one line on stdout, is {"status": N} (N: what `star run` would exit with) or {"error": TEXT}
// for a malformed request. The server ends at the end of its input. State that a process would
// start afresh is reset between programs (the memory limit, the interrupt flag); a program that
// crashes ends the server, as it would end `star run`.
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/Commands.h"
#include "cli/Options.h"
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

int runOne(const std::vector<std::string>& args) {
  resetMemoryLimit();
  gInterruptRequested = false;
  CommandLine cl;
  cl.command = "run";
  if (auto status = parseOptions(cl, args)) return *status;
  if (cl.file.empty()) return usageError("no input file");
  return runWithLargeStack([&] { return commandRun(cl); });
}

nlohmann::json serve(const std::string& line) {
  const nlohmann::json request = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!request.is_object() || !request.contains("dir") || !request["dir"].is_string() ||
      !request.contains("out") || !request["out"].is_string() || !request.contains("err") ||
      !request["err"].is_string() || !request.contains("args") || !request["args"].is_array())
    return {{"error", "a request is {\"dir\": D, \"out\": FILE, \"err\": FILE, \"args\": [...]}"}};
  std::vector<std::string> args;
  for (const auto& a : request["args"]) {
    if (!a.is_string()) return {{"error", "every argument is a string"}};
    args.push_back(a.get<std::string>());
  }
  if (chdir(request["dir"].get<std::string>().c_str()) != 0)
    return {{"error", "cannot enter " + request["dir"].get<std::string>()}};
  Redirect redirect(request["out"].get<std::string>(), request["err"].get<std::string>());
  if (!redirect.ok()) return {{"error", "cannot write the output files"}};
  return {{"status", runOne(args)}};
}

}  // namespace

int commandRunServer() {
  std::string line;
  while (std::getline(std::cin, line)) {
    const nlohmann::json reply = serve(line);
    std::cout << reply.dump() << "\n";
    std::cout.flush();
  }
  return 0;
}

}  // namespace star
