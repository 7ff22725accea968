// Helpers shared by the front-end and VM unit tests: a temporary directory, compiling a Star
// source text through star::Compilation, and running it on the backend that $STAR_TEST_BACKEND
// names ("cpu", the default, or "cuda").
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "frontend/driver/Compilation.h"
#include "runtime-cpu/CpuBackend.h"
#ifdef STAR_TEST_HAVE_CUDA
#include "runtime-cuda/CudaBackend.h"
#endif
#include "vm/interp/Interpreter.h"

namespace startest {

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it at destruction.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string templ = std::string(base && *base ? base : "/tmp") + "/star-unit-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) throw std::runtime_error("mkdtemp failed");
    path_ = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // Writes `text` (byte for byte) to `name` in the directory; returns the full path.
  std::string write(const std::string& name, const std::string& text) const {
    std::string p = file(name);
    std::ofstream out(p, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + p);
    return p;
  }

 private:
  std::string path_;
};

// The source tree (stdlib/, examples/): $STAR_SOURCE_DIR when set, for tests carried to another
// machine (scripts/device-tests.sh), else the tree they were built from.
inline std::string sourceDir() {
  const char* env = std::getenv("STAR_SOURCE_DIR");
  return env && *env ? env : STAR_SOURCE_DIR;
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The result of compiling one program: the diagnostics text and, when it compiled, the module.
struct Compiled {
  bool ok = false;
  std::string diagnostics;
  std::string path;
  star::Module module;
};

inline Compiled compileFile(const std::string& path, bool warnUnused = true,
                            std::vector<std::string> modulePath = {}) {
  Compiled c;
  c.path = path;
  std::ostringstream diags;
  star::CompileOptions options;
  options.warnUnused = warnUnused;
  options.modulePath = std::move(modulePath);
  star::Compilation comp(diags, options);
  c.ok = comp.compileFile(path);
  c.diagnostics = diags.str();
  if (c.ok) c.module = comp.takeModule();
  return c;
}

inline Compiled compileSource(const TempDir& dir, const std::string& source,
                              const std::string& name = "prog.star", bool warnUnused = true) {
  return compileFile(dir.write(name, source), warnUnused);
}

// As compileSource, with the source tree's stdlib/ (sourceDir()) on the unit search path.
inline Compiled compileWithStdlib(const TempDir& dir, const std::string& source,
                                  const std::string& name = "prog.star", bool warnUnused = false) {
  return compileFile(dir.write(name, source), warnUnused, {sourceDir() + "/stdlib"});
}

// Output of a run and the runtime error it ended with, if any.
struct RunResult {
  std::string output;
  std::optional<std::string> error;  // RuntimeError::what()
  star::SourceLoc loc;               // RuntimeError::loc
  std::vector<star::CallSite> callers{};  // RuntimeError::callers
  std::uint64_t moreCallers = 0;          // RuntimeError::moreCallers
};

inline RunResult runModule(star::Interpreter& vm, std::ostringstream& out, const star::Module& m,
                           std::vector<std::string> args = {}) {
  RunResult r;
  out.str("");
  out.clear();
  vm.setArguments(std::move(args));
  try {
    vm.run(m, m.entry);
  } catch (const star::RuntimeError& e) {
    r.error = e.what();
    r.loc = e.loc;
    r.callers = e.callers;
    r.moreCallers = e.moreCallers;
  }
  r.output = out.str();
  return r;
}

// The backend $STAR_TEST_BACKEND names: "cpu" (also when unset) or "cuda". One that is asked for
// and cannot be had throws (the test fails with the reason); it never falls back to the CPU, so a
// run on the GPU cannot pass on the CPU unnoticed.
inline std::unique_ptr<star::Backend> makeTestBackend() {
  const char* env = std::getenv("STAR_TEST_BACKEND");
  const std::string name = env && *env ? env : "cpu";
  if (name == "cpu") return star::makeCpuBackend();
  if (name == "cuda") {
#ifdef STAR_TEST_HAVE_CUDA
    return star::makeCudaBackend();  // throws BackendError without a usable GPU
#else
    throw std::runtime_error("STAR_TEST_BACKEND=cuda, but this test was built without CUDA");
#endif
  }
  throw std::runtime_error("STAR_TEST_BACKEND=" + name + ": unknown backend (cpu or cuda)");
}

// Whether parallel loops run in parallel: $STAR_TEST_PARALLEL_LOOPS=0 turns them off (ctest runs
// the oracle tests both ways: the results must not differ).
inline bool testParallelLoops() {
  const char* env = std::getenv("STAR_TEST_PARALLEL_LOOPS");
  return !(env && std::string(env) == "0");
}

// Whether the interpreter hands its work to the backend's device engine: $STAR_TEST_ENGINE=device,
// or compiled (its compiled tier; ctest runs the oracle tests both ways too: the results must not
// differ from the host engine's).
inline std::string testEngine() {
  const char* env = std::getenv("STAR_TEST_ENGINE");
  return env ? env : "";
}
inline bool testDeviceEngine() { return testEngine() == "device" || testEngine() == "compiled"; }

// The test backend and an interpreter writing to a string stream.
struct Vm {
  std::unique_ptr<star::Backend> backend = makeTestBackend();
  std::ostringstream out;
  star::Interpreter interp{*backend, out};
  Vm() {
    interp.enableParallelLoops(testParallelLoops());
    if (testEngine() == "compiled") {
      if (!interp.enableCompiledEngine(true))
        throw std::runtime_error("STAR_TEST_ENGINE=compiled, but the backend has no compiled tier");
    } else {
      interp.enableDeviceEngine(testDeviceEngine());
    }
    if (testDeviceEngine() && !interp.deviceEngineOn())
      throw std::runtime_error("STAR_TEST_ENGINE=" + testEngine() + ", but the backend has no device engine");
  }

  RunResult run(const star::Module& m, std::vector<std::string> args = {}) {
    return runModule(interp, out, m, std::move(args));
  }
};

}  // namespace startest
