// star: the Star language driver (docs/CLI.md).
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#ifndef STAR_VERSION
#define STAR_VERSION "0.0.0"
#endif

#include "cli/Commands.h"
#include "cli/Help.h"
#include "cli/ManPage.h"
#include "cli/Options.h"
#include "cli/ProcessExit.h"
#include "core/DetachedExit.h"
#include "core/MemoryLimit.h"
#include "frontend/driver/LargeStack.h"
#include "frontend/driver/StdlibLocation.h"
#include "lsp/LspCommand.h"

namespace {

// `star FILE [ARGS...]` runs FILE, as `star run FILE [ARGS...]` does: a first word that is no
// command and names a program (a .star or .starc file, even one that is missing, for its error;
// '-' for standard input; any other existing file, whose error says why it cannot run it: "is a
// directory").
bool namesProgram(const std::string& word) {
  if (word == "-") return true;
  if (word.empty() || word[0] == '-' || star::isCommand(word)) return false;
  auto endsWith = [&](std::string_view tail) {
    return word.size() > tail.size() &&
           word.compare(word.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (endsWith(".star") || endsWith(".starc")) return true;
  std::error_code ec;
  return std::filesystem::exists(word, ec);
}

int dispatch(int argc, char** argv) {
  star::CommandLine cl;
  int i = 1;
  if (argc < 2) {
    // With no arguments: the REPL on a terminal; otherwise the program on standard input
    // (`echo '...' | star`), as `star run -` reads it.
    if (isatty(STDIN_FILENO)) {
      cl.command = "repl";
    } else {
      cl.command = "run";
      cl.file = "-";
    }
  } else if (namesProgram(argv[1])) {
    cl.command = "run";  // the words from FILE on, as after `star run`
  } else {
    std::string first = argv[1];
    // `star COMMAND --help` and `star help COMMAND`: that command's options and an example.
    if (argc > 2 && (std::string(argv[2]) == "--help" || std::string(argv[2]) == "-h"))
      return star::printCommandHelp(first);
    if (first == "help" && argc > 2 && std::string(argv[2]) == "--man") {
      std::cout << star::manPage(STAR_VERSION);
      return 0;
    }
    if (first == "help" && argc > 2) return star::printCommandHelp(argv[2]);
    if (first == "--version" || first == "version") return star::commandVersion();
    if (first == "opcodes") return star::commandOpcodes();
    if (first == "lsp") return star::commandLsp(argc - 2, argv + 2);
    if (first == "run-server") return star::commandRunServer();
    if (first == "--help" || first == "-h" || first == "help") {
      std::cout << star::usageText();
      return 0;
    }
    // What remains of the help table: run, check, dis, compile, repl and test.
    if (!star::isCommand(first)) return star::unknownCommandError(first);
    cl.command = first;
    i = 2;
  }
  if (auto status = star::parseOptions(cl, std::vector<std::string>(argv + i, argv + argc)))
    return *status;
  if (cl.command == "repl") return star::runWithLargeStack([&] { return star::commandRepl(cl); });
  if (cl.command == "test") return star::commandTest(cl);
  if (cl.file.empty()) return star::usageError("no input file", cl.command);
  return star::runWithLargeStack([&]() -> int {
    if (cl.command == "run") return star::commandRun(cl);
    if (cl.command == "check") return star::commandCheck(cl);
    if (cl.command == "dis") return star::commandDis(cl);
    return star::commandCompile(cl);
  });
}

// Output that never reached its file (a full disk, an I/O error) fails the command, whatever it
// was: a listing, a help text or a program's output. (A closed pipe ends the process by SIGPIPE.)
// A command that failed already said why; its lost output changes nothing. The reason is known
// only when this last flush fails (errno is long stale when the stream failed earlier).
int finishOutput(int status) {
  const bool failedBefore = !std::cout;
  errno = 0;
  std::cout.flush();
  if (std::cout || status != 0) return status;
  const int reason = failedBefore ? 0 : errno;
  std::cerr << "star: error: cannot write the standard output"
            << (reason ? std::string(": ") + std::strerror(reason) : "") << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  const int status = finishOutput(dispatch(argc, argv));
  const star::Ending ending = star::requestedEnding();  // cli/ProcessExit.h
  if (ending != star::Ending::Normal) {                 // a run that used the GPU
    std::cerr.flush();
    if (ending == star::Ending::ReleaseInHelper) star::exitLeavingReleaseToHelper(status);
    std::fflush(nullptr);
    std::_Exit(status);
  }
  return status;
}
