#include "cli/Commands.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <tuple>
#include <cstring>
#include <filesystem>
#include <optional>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/BackendChoice.h"
#include "vm/compile/CompiledIr.h"
#include "vm/compile/EmitCpp.h"
#include "cli/InterruptSignal.h"
#include "cli/PhaseTimes.h"
#include "cli/ProcessExit.h"
#include "cli/RuntimeErrorText.h"
#include "frontend/driver/StdlibLocation.h"
#include "core/FileText.h"
#include "core/Printable.h"
#include "frontend/driver/Compilation.h"
#include "vm/bytecode/BackendUse.h"
#include "vm/bytecode/Disassembler.h"
#include "vm/bytecode/ModuleFile.h"
#include "vm/bytecode/Verifier.h"
#include "vm/interp/Interpreter.h"
#include "vm/io/TableText.h"

#ifndef STAR_VERSION
#define STAR_VERSION "0.0.0"
#endif

namespace star {
namespace {

CompileOptions compileOptions(const CommandLine& cl) {
  CompileOptions o;
  o.modulePath = cl.modulePath;
  o.warnUnused = cl.warnUnused;
  o.warnResult = cl.warnResult;
  return o;
}

bool isModuleText(const std::string& bytes) { return bytes.rfind("STARC", 0) == 0; }

// The program file, read once (a pipe or standard input, `-`, cannot be read twice); its name in
// messages ("<stdin>" for `-`).
struct InputFile {
  std::string name;
  std::string bytes;
};
std::optional<InputFile> readInput(const std::string& path) {
  std::string error;
  auto bytes = readBoundedFile(path, kMaxSourceBytes, error);
  std::string name = path == "-" ? "<stdin>" : path;
  if (!bytes) {
    std::cerr << printable(name) << ": error: " << printable(fileErrorMessage(name, error)) << "\n";
    return std::nullopt;
  }
  return InputFile{name, std::move(*bytes)};
}

// A module's source file, for the lines of its messages and listings; "" when it is not a regular
// file of at most 64 MB, or cannot be read.
std::string readSourceForMessages(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return "";
  std::string error;
  return readBoundedFile(path, std::uint64_t{64} << 20, error).value_or("");
}

// A module from a .starc file or by compiling a .star file; also keeps the sources for messages.
struct LoadedProgram {
  Module module;
  SourceManager sources;
  bool ok = false;
};

void loadProgram(const CommandLine& cl, LoadedProgram& out) {
  auto input = readInput(cl.file);
  if (!input) return;
  if (isModuleText(input->bytes)) {
    try {
      out.module = deserializeModule(input->bytes);
    } catch (const std::exception& e) {
      std::cerr << printable(input->name) << ": error: " << e.what() << "\n";
      return;
    }
    // Source lines for messages and listings, where the sources are still there: regular files
    // only, of a sane size (a module may name /dev/zero or a FIFO).
    for (auto& f : out.module.files) out.sources.add(f, readSourceForMessages(f));
    out.ok = true;
    return;
  }
  Compilation c(std::cerr, compileOptions(cl));
  if (!c.compileText(input->name, std::move(input->bytes))) return;
  for (std::size_t f = 0; f < c.sources().size(); ++f)
    out.sources.add(c.sources().path(static_cast<std::uint32_t>(f)),
                    c.sources().text(static_cast<std::uint32_t>(f)));
  out.module = c.takeModule();
  out.ok = true;
}

}  // namespace

// --explain-loops: each loop, in source order, and how it runs.
void explainLoops(const Compilation& c) {
  std::vector<LoopReport> loops = c.loopReports();
  std::stable_sort(loops.begin(), loops.end(), [](const LoopReport& a, const LoopReport& b) {
    return std::tie(a.loc.file, a.loc.line, a.loc.col) < std::tie(b.loc.file, b.loc.line, b.loc.col);
  });
  for (const LoopReport& l : loops) {
    std::cout << printable(c.sources().path(l.loc.file)) << ":" << l.loc.line << ":" << l.loc.col << ": "
              << l.kind << ": ";
    if (l.form != ParallelForm::None) std::cout << "parallel (" << parallelFormName(l.form) << ")\n";
    else std::cout << "sequential: " << l.whyNot << "\n";
  }
}

int commandCheck(const CommandLine& cl) {
  Compilation c(std::cerr, compileOptions(cl));
  if (!cl.dumpAst) {
    auto input = readInput(cl.file);
    bool ok = input && c.checkText(input->name, std::move(input->bytes));
    if (ok && cl.explainLoops) explainLoops(c);
    return ok ? 0 : 1;
  }
  if (!c.parse(cl.file)) return 1;
  dumpAst(*c.program(), std::cout);
  return c.check() ? 0 : 1;
}

int commandDis(const CommandLine& cl) {
  LoadedProgram p;
  loadProgram(cl, p);
  if (!p.ok) return 1;
  if (!cl.emit.empty()) {
    // The compiled tier's view of the module: its IR, or the C++ generated from it.
    std::vector<compile::FunctionCode> functions;
    for (const Function& f : p.module.functions) functions.push_back({f.name, f.code, f.numRegs});
    const std::vector<compile::IrFunction> ir = compile::buildIr(functions, p.module.entry);
    std::cout << (cl.emit == "ir" ? compile::printIr(ir) : compile::emitCpp(ir, cl.stats));
    return 0;
  }
  disassemble(p.module, std::cout, [&](std::uint32_t file, std::uint32_t line) {
    return file < p.sources.size() ? p.sources.line(file, line) : std::string();
  });
  return 0;
}

int commandCompile(const CommandLine& cl) {
  auto input = readInput(cl.file);
  if (!input) return 1;
  std::string out = cl.output;
  if (out.empty()) {
    out = cl.file == "-" ? "stdin" : cl.file;
    if (out.size() > 5 && out.substr(out.size() - 5) == ".star") out.resize(out.size() - 5);
    out += ".starc";
  }
  std::error_code ec;
  // A FIFO would make the open wait for a reader that may never come.
  if (std::filesystem::is_fifo(out, ec)) {
    std::cerr << printable(out) << ": error: the module cannot be written to a FIFO; name a file\n";
    return 1;
  }
  if (cl.file != "-" && std::filesystem::equivalent(cl.file, out, ec)) {
    std::cerr << printable(out) << ": error: the module would overwrite the program's source\n";
    return 1;
  }
  Compilation c(std::cerr, compileOptions(cl));
  if (!c.compileText(input->name, std::move(input->bytes))) return 1;
  // Nor over the source of a unit the program uses (known only once it is compiled).
  for (std::uint32_t f = 0; f < c.sources().size(); ++f) {
    if (!std::filesystem::equivalent(c.sources().path(f), out, ec)) continue;
    std::cerr << printable(out) << ": error: the module would overwrite the source of a unit the program uses\n";
    return 1;
  }
  // Never a module that `star run` would refuse to load.
  try {
    verifyModule(c.module());
  } catch (const std::exception& e) {
    std::cerr << printable(cl.file) << ": error: the compiled module would not load: " << e.what() << "\n";
    return 1;
  }
  std::string bytes = serializeModule(c.module());
  std::ofstream f(out, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  f.close();  // the data reach the file (or fail: a full disk) only when flushed
  if (!f) {
    std::cerr << printable(out) << ": error: cannot write the module: " << std::strerror(errno) << "\n";
    return 1;
  }
  return 0;
}

int commandRun(const CommandLine& cl) {
  PhaseTimes times(cl.timeReport);
  LoadedProgram p;
  loadProgram(cl, p);
  times.mark("compile (read, parse, check, generate; or load and verify a module)");
  if (!p.ok) return 1;
  std::string error;
  // A program that cannot use a backend starts no GPU (vm/bytecode/BackendUse.h).
  const bool needed = usesBackend(p.module) || (cl.engine != "host" && cl.engine != "auto");
  auto backend = chooseBackendFor(cl.backend, needed, &error, cl.devices);
  times.mark(needed ? "backend start (" + (backend ? backend->name() : std::string("failed")) + ")"
                    : "backend start (none needed: the program has no slice, word or table)");
  if (!backend) {
    std::cerr << "star: error: " << error << "\n";
    return 1;
  }
  int status = 0;
  {
    Interpreter vm(*backend, std::cout);
    vm.setArguments(cl.programArgs);
    vm.enableStats(cl.stats);
    vm.enableNatives(!cl.noNative);
    vm.enableParallelLoops(!cl.noParallelLoops);
    chooseEngine(vm, cl.engine, !cl.noCache);
    // Ctrl-C: the first stops the program at its next loop back-edge, call or blocking read with
    // "interrupted" (and its location); a second one ends the process at once.
    InterruptCatcher interrupts(InterruptCatcher::Second::Kills);
    try {
      vm.run(p.module, p.module.entry);
    } catch (const RuntimeError& e) {
      std::cout.flush();
      std::cerr << formatRuntimeError(p.sources, e);
      status = 2;
    }
    std::cout.flush();
    if (cl.stats) {
      vm.stats().print(std::cerr, backend->name(), backend->device());
      std::cerr << "native procedure calls: " << vm.nativeCalls() << "\n";
      const auto& ps = vm.parallelStats();
      std::cerr << "parallel loops: " << ps.parallel << " run in parallel (" << ps.iterations
                << " iterations), " << ps.sequential << " sequentially\n";
      if (vm.deviceEngineOn()) vm.engineStats().print(std::cerr);
    }
    // The compiled tier's builds (or loads from the cache) happen inside the run.
    const CompileStats built = vm.engineStats().compiled;
    if (built.hits + built.misses > 0)
      times.markSplit("compiled code (" + std::to_string(built.misses) + " built, " +
                          std::to_string(built.hits) + " from the cache)",
                      built.seconds * 1000, "run");
    else
      times.mark("run");
  }
  const bool gpu = backend->name() == "cuda";
  backend.reset();
  times.mark("release (values, backend)");
  times.print(std::cerr);
  if (mayEndWithoutTeardown(gpu, std::getenv("CUDA_INJECTION64_PATH"), std::getenv("STAR_FULL_EXIT")))
    endWithoutTeardown(gpusShareable());
  return status;
}

int commandOpcodes() {
  std::cout << "| # | name | operands | access | semantics |\n|---|---|---|---|---|\n";
  for (std::uint32_t op = 0; op < kOpCount; ++op)
    std::cout << "| " << op << " | `" << kOpInfo[op].name << "` | `" << kOpInfo[op].shape << "` | `"
              << kOpInfo[op].access << "` | " << kOpInfo[op].doc << " |\n";
  return 0;
}

int commandVersion() {
  std::cout << "star " << STAR_VERSION << "\n";
  std::cout << "backends: cpu";
  if (cudaBackendBuilt()) {
    std::string error;
    auto b = chooseBackend("cuda", &error);
    const int gpus = b ? gpuCount() : 0;
    std::cout << ", cuda (" << (b ? b->device() : "unavailable: " + error)
              << (gpus > 1 ? "; " + std::to_string(gpus) + " GPUs: --devices=" + std::to_string(gpus) : "")
              << ")";
  } else {
    std::cout << " (built without CUDA)";
  }
  std::cout << "\n";
  StdlibLocation stdlib = findStdlib();
  if (!stdlib.dir.empty())
    std::cout << "stdlib: " << stdlib.dir << "\n";
  else
    std::cout << "stdlib: not found (looked in " << (stdlib.looked.empty() ? "?" : stdlib.looked)
              << "; --stdlib-path or STAR_PATH name unit directories)\n";
  return 0;
}

}  // namespace star
