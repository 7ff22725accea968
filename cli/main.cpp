// star: the Star language driver (docs/CLI.md).
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "cli/Commands.h"
#include "cli/Help.h"
#include "frontend/driver/StdlibLocation.h"
#include "core/MemoryLimit.h"
#include "frontend/driver/LargeStack.h"
#include "lsp/LspCommand.h"

namespace {

const char* kUsage =
    "usage: star <command> [options] FILE [ARGS...]\n"
    "\n"
    "commands:\n"
    "  run FILE [ARGS...]   compile (or load a .starc) and execute; ARGS reach ParamStr\n"
    "  check FILE           parse and check only; --dump-ast prints the syntax tree\n"
    "  dis FILE             print the bytecode with the source lines interleaved\n"
    "  compile FILE -o OUT  write a bytecode module (.starc)\n"
    "  repl                 interactive session (also: star with no arguments on a terminal)\n"
    "  opcodes              the instruction set, as docs/BYTECODE.md lists it\n"
    "  lsp                  language server on stdin/stdout, for editors (docs/CLI.md)\n"
    "  test [PATHS...]      run the programs that carry expectations and compare\n"
    "  help COMMAND         that command's options and an example (also: star COMMAND --help)\n"
    "  --version            version and backends\n"
    "\n"
    "options:\n"
    "  --backend=cpu|cuda|auto  where slice, word and table primitives run (default: auto,\n"
    "                           CUDA when a GPU is present)\n"
    "  --engine=host|device|auto  who interprets the bytecode: the host, or the device engine\n"
    "                           that runs whole procedures on the GPU (default: auto, the device\n"
    "                           engine on the CUDA backend; on the CPU backend `device` runs the\n"
    "                           engine's code on host threads, for testing)\n"
    "  --stats                  after the run, print each opcode's count and time (stderr)\n"
    "  --stdlib-path=DIR        also look for `uses` modules in DIR (repeatable; $STAR_PATH,\n"
    "                           colon-separated, adds directories too)\n"
    "  --no-native              run standard-library procedures as their Star bodies\n"
    "  --no-parallel-loops      run every loop sequentially (forall and the recognised idioms)\n"
    "  --explain-loops          (check) say for each loop whether it runs in parallel, and why not\n"
    "  --max-memory=SIZE        the memory a run may use (8G, 512M; default: 3/4 of the RAM,\n"
    "                           at most 9/10 of the GPU's memory on the CUDA backend)\n"
    "  --dump-ast               (check) print the syntax tree\n"
    "  -Wno-unused              do not warn about unused variables\n"
    "  --update                 (test) rewrite the expectations from what the programs do\n"
    "  --timeout=SECONDS        (test) stop each program after SECONDS (default 120)\n"
    "  --help, -h               (after a command) that command's options and an example\n";

int usageError(const std::string& message) {
  std::cerr << "star: error: " << message << "\n\n" << kUsage;
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  star::CommandLine cl;
  int i = 1;
  if (argc < 2) {
    // With no arguments: the REPL on a terminal, the usage otherwise.
    if (!isatty(STDIN_FILENO)) {
      std::cerr << kUsage;
      return 1;
    }
    cl.command = "repl";
  } else {
    std::string first = argv[1];
    // `star COMMAND --help` and `star help COMMAND`: that command's options and an example.
    if (argc > 2 && (std::string(argv[2]) == "--help" || std::string(argv[2]) == "-h"))
      return star::printCommandHelp(first);
    if (first == "help" && argc > 2) return star::printCommandHelp(argv[2]);
    if (first == "--version" || first == "version") return star::commandVersion();
    if (first == "opcodes") return star::commandOpcodes();
    if (first == "lsp") return star::commandLsp(argc - 2, argv + 2);
    if (first == "--help" || first == "-h" || first == "help") {
      std::cout << kUsage;
      return 0;
    }
    cl.command = first;
    i = 2;
  }
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (!cl.file.empty() && cl.command == "run") {
      cl.programArgs.push_back(a);  // everything after the program goes to the program
      continue;
    }
    if (a.rfind("--backend=", 0) == 0) cl.backend = a.substr(10);
    else if (a.rfind("--engine=", 0) == 0) {
      cl.engine = a.substr(9);
      if (cl.engine != "host" && cl.engine != "device" && cl.engine != "auto")
        return usageError("--engine takes host, device or auto, not '" + cl.engine + "'");
    }
    else if (a == "--stats") cl.stats = true;
    else if (a == "--dump-ast") cl.dumpAst = true;
    else if (a == "--no-native") cl.noNative = true;
    else if (a == "--no-parallel-loops") cl.noParallelLoops = true;
    else if (a == "--explain-loops") cl.explainLoops = true;
    else if (a.rfind("--max-memory=", 0) == 0) {
      cl.maxMemory = star::parseMemorySize(a.substr(13));
      if (cl.maxMemory == 0)
        return usageError("--max-memory takes a size such as 8G, 512M or 100000K, not '" + a.substr(13) + "'");
      star::setUserMemoryLimit(cl.maxMemory);
    }
    else if (a == "-Wno-unused") cl.warnUnused = false;
    else if (a.rfind("--stdlib-path=", 0) == 0) cl.stdlibPaths.push_back(a.substr(14));
    else if (a == "--help" || a == "-h") return star::printCommandHelp(cl.command);
    else if (a == "--update") cl.update = true;
    else if (a.rfind("--timeout=", 0) == 0) {
      if (!star::parseSeconds(a.substr(10), &cl.timeout))
        return usageError("--timeout takes a number of seconds (0: no limit), not '" + a.substr(10) + "'");
    }
    else if (cl.command == "test" && !(a.size() > 1 && a[0] == '-')) cl.paths.push_back(a);
    else if (a == "-o" && i + 1 < argc) cl.output = argv[++i];
    else if (a.size() > 1 && a[0] == '-' ) return usageError("unknown option '" + a + "'");
    else if (cl.file.empty()) cl.file = a;
    else return usageError("unexpected argument '" + a + "'");
  }
  cl.modulePath = star::unitSearchPath(cl.stdlibPaths);
  if (cl.command == "repl") return star::runWithLargeStack([&] { return star::commandRepl(cl); });
  if (cl.command == "test") return star::commandTest(cl);
  if (cl.command != "run" && cl.command != "check" && cl.command != "dis" && cl.command != "compile")
    return usageError("unknown command '" + cl.command + "'");
  if (cl.file.empty()) return usageError("no input file");
  return star::runWithLargeStack([&]() -> int {
    if (cl.command == "run") return star::commandRun(cl);
    if (cl.command == "check") return star::commandCheck(cl);
    if (cl.command == "dis") return star::commandDis(cl);
    return star::commandCompile(cl);
  });
}
