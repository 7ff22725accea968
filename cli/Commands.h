// The `star` subcommands. Each returns the process exit status: 0 success, 1 compile-time or
// usage errors, 2 runtime errors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace star {

struct CommandLine {
  std::string command;             // run, check, dis, compile, repl, test
  std::string file;
  std::string output;              // compile -o
  std::string backend = "auto";
  std::string devices = "1";       // --devices=N|all (cli/BackendChoice.h)
  std::string engine = "auto";     // --engine: one of kEngineNames (cli/BackendChoice.h)
  bool noCache = false;
  std::string emit;                // dis --emit=ir|cuda: the compiled tier's IR or C++            // --no-cache: compiled code is not kept on disk
  std::vector<std::string> modulePath;
  std::vector<std::string> programArgs;
  bool stats = false;
  bool timeReport = false;         // run --time-report
  bool dumpAst = false;
  bool warnUnused = true;
  bool warnResult = true;          // -Wno-result turns it off
  bool noNative = false;
  bool noParallelLoops = false;  // --no-parallel-loops
  bool explainLoops = false;     // check --explain-loops
  std::uint64_t maxMemory = 0;  // --max-memory; 0: the default
  std::vector<std::string> stdlibPaths;  // --stdlib-path, as given, in order
  // star test
  std::vector<std::string> paths;  // the files and directories to test
  bool update = false;             // --update: rewrite the expectations
  double timeout = 120;            // --timeout=SECONDS for each program; 0: none
  bool list = false;               // --list: print the tests, run nothing
  int verbosity = 0;               // -q: -1 (failures and the summary), -v: 1 (commands, output)
  std::string color = "auto";      // --color=auto|always|never
  std::vector<std::string> filters;  // --filter=PATTERN (repeatable), besides positional ones
  bool denyWarnings = false;       // --deny-warnings: a program without expectations fails the run
};

int commandRun(const CommandLine& cl);
int commandCheck(const CommandLine& cl);
int commandDis(const CommandLine& cl);
int commandCompile(const CommandLine& cl);
int commandRepl(const CommandLine& cl);
int commandVersion();
// star run-server: programs from stdin, each run as `star run` would, in this process (cli/RunServer.cpp).
int commandRunServer();
// star test [PATHS]: the programs with expectations, run and compared (cli/test/).
int commandTest(const CommandLine& cl);
// The instruction set as the Markdown table of docs/BYTECODE.md (generated from Opcodes.def).
int commandOpcodes();

}  // namespace star
