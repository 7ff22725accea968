#include "cli/Options.h"

#include "core/Printable.h"

#include <iostream>

#include "cli/BackendChoice.h"
#include "cli/Help.h"
#include "core/MemoryLimit.h"
#include "frontend/driver/StdlibLocation.h"

namespace star {
namespace {

const char* kUsage =
    "usage: star <command> [options] FILE [ARGS...]\n"
    "       star FILE [ARGS...]     the same as star run FILE [ARGS...]\n"
    "       star < FILE             run the program on standard input (when not a terminal)\n"
    "\n"
    "commands:\n"
    "  run FILE [ARGS...]   compile (or load a .starc) and execute; ARGS reach ParamStr\n"
    "  check FILE           parse and check only; --dump-ast prints the syntax tree\n"
    "  dis FILE             print the bytecode with the source lines interleaved; --emit=ir or\n"
    "                       --emit=cuda prints the compiled tier's IR or generated C++ instead\n"
    "  compile FILE -o OUT  write a bytecode module (.starc)\n"
    "  repl                 interactive session (also: star with no arguments on a terminal)\n"
    "  opcodes              the instruction set, as docs/BYTECODE.md lists it\n"
    "  run-server           run programs sent as JSON lines on stdin, in one process (tools)\n"
    "  lsp                  language server on stdin/stdout, for editors (docs/CLI.md)\n"
    "  test [PATHS...] [PATTERN...]\n"
  "                       run the programs that carry expectations and compare (only those\n"
  "                       whose path contains a PATTERN, when there is one)\n"
    "  help COMMAND         that command's options and an example (also: star COMMAND --help)\n"
    "  --version            version and backends\n"
    "\n"
    "options:\n"
    "  --backend=cpu|cuda|auto  where slice, word and table primitives run (default: auto,\n"
    "                           CUDA when a GPU is present)\n"
    "  --devices=N|all          split tables by rows across N GPUs (all: every GPU; default 1)\n"
    "  --engine=host|device|compiled|tiered|auto  who runs the bytecode: the host, the device\n"
    "                           engine that runs whole procedures on the GPU, interpreting\n"
    "                           (device) or compiled (compiled: waits for the build; tiered:\n"
    "                           interprets until the build is ready); default auto, the device\n"
    "                           engine on the CUDA backend; on the CPU backend the engine runs\n"
    "                           on host threads, for testing\n"
    "  --no-cache               compiled code is not kept in the cache ($STAR_CACHE_DIR)\n"
    "  --stats                  after the run, print each opcode's count and time (stderr)\n"
    "  --time-report            (run) the wall time of each phase: compile, backend start, run\n"
    "  --stdlib-path=DIR        also look for `uses` modules in DIR (repeatable; $STAR_PATH,\n"
    "                           colon-separated, adds directories too)\n"
    "  --no-native              run standard-library procedures as their Star bodies\n"
    "  --no-parallel-loops      run every loop sequentially (forall and the recognised idioms)\n"
    "  --explain-loops          (check) say for each loop whether it runs in parallel, and why not\n"
    "  --max-memory=SIZE        the memory a run may use (8G, 512M; default: 3/4 of the RAM,\n"
    "                           at most 9/10 of the GPU's memory on the CUDA backend)\n"
    "  --dump-ast               (check) print the syntax tree\n"
    "  -Wno-unused              do not warn about unused variables\n"
    "  -Wno-result              do not warn about functions that never assign their result\n"
    "  --update                 (test) rewrite the expectations from what the programs do\n"
    "  --timeout=SECONDS        (test) stop each program after SECONDS (default 120)\n"
  "  --list, -q, -v, --color=auto|always|never, --filter=PATTERN, --deny-warnings\n"
  "                           (test) see star help test\n"
    "  --help, -h               (after a command) that command's options and an example\n";

}  // namespace

const char* usageText() { return kUsage; }

int usageError(const std::string& message, const std::string& command) {
  // The message quotes the command line: its control bytes are shown escaped.
  std::cerr << "star: error: " << printable(message) << "\n";
  if (isCommand(command))
    std::cerr << "star: note: 'star help " << command << "' shows its usage and options\n";
  else
    std::cerr << "star: note: 'star help' lists the commands\n";
  return 1;
}

std::optional<int> parseOptions(CommandLine& cl, const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!cl.file.empty() && cl.command == "run") {
      cl.programArgs.push_back(a);  // everything after the program goes to the program
      continue;
    }
    if (a.rfind("--backend=", 0) == 0) cl.backend = a.substr(10);
    else if (a.rfind("--devices=", 0) == 0) {
      cl.devices = a.substr(10);
      if (!parseDevices(cl.devices))
        return usageError("--devices takes a number of GPUs from 1 to 16, or all, not '" +
                              cl.devices + "'",
                          cl.command);
    }
    else if (a.rfind("--engine=", 0) == 0) {
      cl.engine = a.substr(9);
      if (!isEngineName(cl.engine))
        return usageError("--engine takes " + engineNamesText() + ", not '" + cl.engine + "'", cl.command);
    }
    else if (a == "--no-cache") cl.noCache = true;
    else if (a.rfind("--emit=", 0) == 0) {
      cl.emit = a.substr(7);
      if (cl.emit != "ir" && cl.emit != "cuda")
        return usageError("--emit takes ir or cuda, not '" + cl.emit + "'", cl.command);
    }
    else if (a == "--stats") cl.stats = true;
    else if (a == "--time-report") cl.timeReport = true;
    else if (a == "--dump-ast") cl.dumpAst = true;
    else if (a == "--no-native") cl.noNative = true;
    else if (a == "--no-parallel-loops") cl.noParallelLoops = true;
    else if (a == "--explain-loops") cl.explainLoops = true;
    else if (a.rfind("--max-memory=", 0) == 0) {
      cl.maxMemory = parseMemorySize(a.substr(13));
      if (cl.maxMemory == 0)
        return usageError("--max-memory takes a size such as 8G, 512M or 100000K, not '" + a.substr(13) + "'",
                          cl.command);
      // Below this not even an empty program's stack and tables fit: say so, rather than fail
      // the run with a "stack overflow" that blames the program.
      if (cl.maxMemory < kMinUserMemoryLimit)
        return usageError("--max-memory must be at least 1M, not '" + a.substr(13) + "'", cl.command);
      setUserMemoryLimit(cl.maxMemory);
    }
    else if (a == "-Wno-unused") cl.warnUnused = false;
    else if (a == "-Wno-result") cl.warnResult = false;
    else if (a.rfind("--stdlib-path=", 0) == 0) cl.stdlibPaths.push_back(a.substr(14));
    else if (a == "--help" || a == "-h") return printCommandHelp(cl.command);
    else if (a == "--update") cl.update = true;
    else if (a.rfind("--timeout=", 0) == 0) {
      if (!parseSeconds(a.substr(10), &cl.timeout))
        return usageError("--timeout takes a number of seconds (0: no limit), not '" + a.substr(10) + "'",
                          cl.command);
    }
    else if (cl.command == "test" && a == "--list") cl.list = true;
    else if (cl.command == "test" && (a == "-q" || a == "--quiet" || a == "-v" || a == "--verbose")) {
      const int want = a == "-q" || a == "--quiet" ? -1 : 1;
      if (cl.verbosity == -want)
        return usageError("-q (--quiet) and -v (--verbose) cannot be used together", cl.command);
      cl.verbosity = want;
    }
    else if (cl.command == "test" && a.rfind("--color=", 0) == 0) {
      cl.color = a.substr(8);
      if (cl.color != "auto" && cl.color != "always" && cl.color != "never")
        return usageError("--color takes auto, always or never, not '" + cl.color + "'", cl.command);
    }
    else if (cl.command == "test" && a.rfind("--filter=", 0) == 0) {
      if (a.size() == 9) return usageError("--filter takes a pattern, not ''", cl.command);
      cl.filters.push_back(a.substr(9));
    }
    else if (cl.command == "test" && a == "--deny-warnings") cl.denyWarnings = true;
    else if (cl.command == "test" && !(a.size() > 1 && a[0] == '-')) cl.paths.push_back(a);
    else if (a == "-o" && i + 1 < args.size()) {
      cl.output = args[++i];
      if (cl.output.empty()) return usageError("-o takes a file name, not ''", cl.command);
    }
    else if (a.size() > 1 && a[0] == '-') {
      const std::string suggestion = suggestOption(a);
      return usageError("unknown option '" + a + "'" +
                            (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?"),
                        cl.command);
    }
    else if (cl.file.empty()) cl.file = a;
    else return usageError("unexpected argument '" + a + "'", cl.command);
  }
  cl.modulePath = unitSearchPath(cl.stdlibPaths);
  return std::nullopt;
}

}  // namespace star
