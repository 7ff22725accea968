#include "cli/Help.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <iostream>
#include <string_view>
#include <vector>

#include "core/Printable.h"
#include "core/Spelling.h"

namespace star {
namespace {

struct Option {
  std::string_view name, text;
};

// Every option once; commands list the ones they take.
constexpr Option kOptions[] = {
    {"--backend=cpu|cuda|auto",
     "where slice, word and table primitives run (default auto: CUDA when a GPU is present)"},
    {"--devices=N|all",
     "split every table's rows across N GPUs (all: every GPU of the machine; default 1); on the "
     "CPU backend, N blocks of host memory, for testing"},
    {"--engine=host|device|compiled|tiered|auto",
     "who runs the bytecode: the host, the device engine that runs whole procedures on the GPU "
     "(interpreting), or the device engine's compiled code (compiled: waits for the build; "
     "tiered: interprets until the build is ready, then switches; default auto)"},
    {"--emit=ir|cuda", "(dis) print the compiled tier's IR or its generated C++ instead of the bytecode"},
    {"--no-cache", "do not keep compiled code in the cache directory ($STAR_CACHE_DIR)"},
    {"--stats", "after the run, each opcode's count and time on stderr"},
    {"--time-report",
     "after the run, the wall time of each phase (compile, backend start, run, release) on stderr"},
    {"--no-native", "run standard-library procedures as their Star bodies"},
    {"--no-parallel-loops", "run every loop sequentially"},
    {"--stdlib-path=DIR",
     "also look for `uses` units in DIR (repeatable; $STAR_PATH adds directories too)"},
    {"--max-memory=SIZE", "the memory a run may use (8G, 512M; default: 3/4 of the RAM)"},
    {"-Wno-unused", "do not warn about unused variables"},
    {"-Wno-result", "do not warn about functions that never assign their result"},
    {"--dump-ast", "print the syntax tree"},
    {"--explain-loops", "say for each loop whether it runs in parallel, and why not"},
    {"-o OUT", "the module to write (default: FILE with .starc for .star)"},
    {"--update",
     "rewrite the expectations (NAME.expected, NAME.expected-err, TEST-OUTPUT, TEST-STATUS) from "
     "what the programs do"},
    {"--timeout=SECONDS", "stop each program after SECONDS (default 120; 0: no limit)"},
    {"--list", "print the paths of the tests that would run, one per line, and run nothing"},
    {"-q, --quiet",
     "print only what needs attention (failures, updates, warnings) and the summary"},
    {"-v, --verbose",
     "also print each test's command, and the whole stdout and stderr of a test that fails"},
    {"--color=auto|always|never",
     "colour ok, FAILED and warning (default auto: when stdout is a terminal and NO_COLOR is not "
     "set)"},
    {"--filter=PATTERN",
     "run only the tests whose path contains PATTERN (repeatable); a word of PATHS that names no "
     "file, has no '/' and does not end in .star is a PATTERN too"},
    {"--deny-warnings",
     "a program without expectations (a warning) makes the run fail, exit status 1"},
    {"--stdio", "talk on standard input and output (the only transport; language clients add it)"},
    {"--help", "this command's usage, options and an example, instead of running it"},
};

struct CommandHelp {
  std::string_view name, usage, text;
  std::vector<std::string_view> options;  // names as in kOptions, up to the first '=' or ' '
  std::string_view example;
};

const std::vector<CommandHelp>& commands() {
  static const std::vector<CommandHelp> all = {
      {"run",
       "star run [OPTIONS] FILE [ARGS...]",
       "Compile FILE (or load a .starc module) and execute it. ARGS become the program arguments\n"
       "(ParamCount, ParamStr): every word after FILE is one, even if it starts with '-'. FILE "
       "may\n"
       "be '-' for standard input. Exit status: 0, 1 for compile errors, 2 for run-time errors.",
       {"--backend", "--devices", "--engine", "--no-cache", "--stats", "--time-report", "--no-native", "--no-parallel-loops",
        "--stdlib-path", "--max-memory", "-Wno-unused", "-Wno-result"},
       "star run --backend=cpu examples/warshall.star examples/graphs/two_cycles8.txt"},
      {"check",
       "star check [OPTIONS] FILE",
       "Parse and check FILE without running it; messages are FILE:LINE:COL: error: MESSAGE.",
       {"--dump-ast", "--explain-loops", "--stdlib-path", "-Wno-unused", "-Wno-result"},
       "star check --explain-loops examples/warshall.star"},
      {"dis",
       "star dis [OPTIONS] FILE",
       "Print the bytecode of a .star or .starc file, with the source lines interleaved; with --emit, the "
       "compiled tier's intermediate representation (ir) or the C++ it generates (cuda).",
       {"--emit", "--stdlib-path", "-Wno-unused", "-Wno-result"},
       "star dis examples/warshall.star | less"},
      {"compile",
       "star compile [OPTIONS] FILE [-o OUT]",
       "Write the bytecode module of FILE, which `star run` and `star dis` read.",
       {"-o", "--stdlib-path", "-Wno-unused", "-Wno-result"},
       "star compile prog.star -o prog.starc && star run prog.starc a b"},
      {"repl",
       "star repl [OPTIONS]",
       "The interactive session: declarations, statements and expressions run as they are typed.\n"
       "`star` alone starts it on a terminal. Inside, :help lists the meta-commands and\n"
       ":help NAME explains a builtin.",
       {"--backend", "--devices", "--engine", "--stats", "--no-native", "--no-parallel-loops",
        "--stdlib-path", "--max-memory"},
       "star repl --backend=cpu < inputs.txt > results.txt"},
      {"test",
       "star test [OPTIONS] [PATHS...] [PATTERN...]",
       "Run every .star file under PATHS (files, or directories searched recursively; default .)\n"
       "that has expectations: NAME.expected (its stdout) or NAME.expected-err (its stderr) "
       "beside\n"
       "it, or TEST-ARGS:, TEST-STATUS:, TEST-ERROR: and TEST-OUTPUT: lines in its first "
       "comments;\n"
       "with a PATTERN, only those whose path contains it. Each runs in its own directory and\n"
       "prints `ok PATH (0.12 s)` or `FAILED PATH (...)` and a unified diff; a program without\n"
       "expectations gets a warning. Paths are relative to the current directory. The last line\n"
       "is `test result: ok. N passed; N failed; finished in T s`; the exit status is 1 when any\n"
       "failed.",
       {"--backend", "--devices", "--engine", "--no-native", "--no-parallel-loops", "--stdlib-path",
        "--max-memory", "--update", "--timeout", "--list", "-q", "-v", "--color", "--filter",
        "--deny-warnings"},
       "star test --backend=cpu examples/ warshall"},
      {"run-server",
       "star run-server",
       "For test drivers: read requests from stdin, one JSON object per line,\n"
       "{\"dir\": D, \"out\": FILE, \"err\": FILE, \"args\": [WORDS]}, run each program in "
       "this process\n"
       "as `star run WORDS` would in D (its outputs into the files), and answer each with\n"
       "{\"status\": N}. Saves the start of a process (on a GPU, CUDA's) per program.",
       {},
       "echo '{\"dir\": \"/tmp\", \"out\": \"/tmp/o\", \"err\": \"/tmp/e\", \"args\": [\"p.star\"]}' | star run-server"},
      {"lsp",
       "star lsp [--stdio] [--stdlib-path=DIR]... [-Wno-unused] [-Wno-result]",
       "A language server (Language Server Protocol) on standard input and output, for editors:\n"
       "diagnostics, hover, definitions, references, completion, symbols, semantic tokens.\n"
       "An editor starts it; docs/CLI.md shows how for VS Code, Neovim and Emacs.",
       {"--stdio", "--stdlib-path", "-Wno-unused", "-Wno-result"},
       "star lsp --stdlib-path=$HOME/star-units"},
      {"opcodes",
       "star opcodes",
       "Print the instruction set as the Markdown table of docs/BYTECODE.md.",
       {},
       "star opcodes > opcodes.md"},
      {"version",
       "star --version",
       "Print the version, the backends built in, and where the standard library was found.\n"
       "`star version` does the same.",
       {},
       "star --version"},
      {"help",
       "star help [COMMAND]",
       "Print the usage, or COMMAND's options and an example (also: star COMMAND --help).",
       {},
       "star help test"},
  };
  return all;
}

// Option texts start in this column and wrap before kWidth.
constexpr std::size_t kTextColumn = 30, kWidth = 100;

std::string wrapped(std::string_view text) {
  std::string out;
  std::size_t column = kTextColumn;
  while (!text.empty()) {
    std::size_t space = text.find(' ');
    std::string_view word = text.substr(0, space);
    if (column > kTextColumn && column + 1 + word.size() > kWidth) {
      out += "\n" + std::string(kTextColumn, ' ');
      column = kTextColumn;
    } else if (column > kTextColumn) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    text = space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
  }
  return out;
}

std::string_view optionKey(std::string_view name) {
  return name.substr(0, name.find_first_of("=, "));
}

// The keys of every spelling of an option: "-q, --quiet" has "-q" and "--quiet".
std::vector<std::string> optionKeys(std::string_view name) {
  std::vector<std::string> keys;
  for (;;) {
    keys.emplace_back(optionKey(name));
    const std::size_t comma = name.find(", ");
    if (comma == std::string_view::npos) return keys;
    name = name.substr(comma + 2);
  }
}

}  // namespace

bool isCommand(const std::string& word) {
  if (word == "--version" || word == "--help" || word == "-h") return true;
  for (const CommandHelp& c : commands())
    if (c.name == word) return true;
  return false;
}

std::vector<std::string> helpCommands() {
  std::vector<std::string> names;
  for (const CommandHelp& c : commands()) names.emplace_back(c.name);
  return names;
}

std::string suggestCommand(const std::string& word) {
  std::string best = closestWord(word, helpCommands(), /*ignoreDashes=*/true);
  return best == word ? "" : best;
}

std::string suggestOption(const std::string& word) {
  const std::size_t equals = word.find('=');
  const std::string key = word.substr(0, equals);
  std::vector<std::string> keys;
  for (const Option& o : kOptions)
    for (std::string& k : optionKeys(o.name)) keys.push_back(std::move(k));
  std::string best = closestWord(key, keys, /*ignoreDashes=*/true);
  if (best.empty()) return "";
  // The value as given; an option that takes one and was given none shows its forms.
  std::string_view name;
  for (const Option& o : kOptions)
    for (const std::string& k : optionKeys(o.name))
      if (k == best) name = o.name;
  if (name.size() > best.size() && name.compare(0, best.size(), best) == 0 &&
      name[best.size()] == '=')
    best += equals == std::string::npos ? std::string(name.substr(best.size()))
                                        : word.substr(equals);
  return best == word ? "" : best;
}

int unknownCommandError(const std::string& word) {
  const std::string suggestion = suggestCommand(word);
  std::cerr << "star: error: unknown command '" << printable(word) << "'"
            << (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?") << "\n"
            << "star: note: 'star help' lists the commands\n";
  return 1;
}

std::string commandHelpText(const std::string& command) {
  const std::string name = command == "--version" ? std::string("version") : command;
  for (const CommandHelp& c : commands()) {
    if (c.name != name) continue;
    std::string out = "usage: " + std::string(c.usage) + "\n\n" + std::string(c.text) + "\n";
    if (!c.options.empty()) {
      out += "\noptions:\n";
      for (std::string_view want : c.options)
        for (const Option& o : kOptions)
          if (optionKey(o.name) == want) {
            std::string line = "  " + std::string(o.name);
            line += line.size() < kTextColumn ? std::string(kTextColumn - line.size(), ' ')
                                              : "\n" + std::string(kTextColumn, ' ');
            out += line + wrapped(o.text) + "\n";
          }
    }
    out += "\nexample:\n  " + std::string(c.example) + "\n";
    return out;
  }
  return "";
}

int printCommandHelp(const std::string& command) {
  std::string text = commandHelpText(command);
  if (text.empty()) return unknownCommandError(command);
  std::cout << text;
  return 0;
}

bool parseSeconds(const std::string& text, double* seconds) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0)
    return false;
  *seconds = v;
  return true;
}

}  // namespace star
