// The device engine a backend may offer (Backend::deviceEngine()): it runs the interpreter's own
// state, handed over between instructions, on the device until it reaches an instruction it
// leaves to the host (vm/engine/EngineLayout.h says which and why). The VM packs its state into
// an EngineRun, the engine runs it and gives it back changed; the backend fills in and takes
// back the handles' shapes itself, since it owns them.
#pragma once

#include <cstdint>
#include <string>

#include "vm/engine/EngineRun.h"

namespace star {

// EngineProgramImage and EngineRun, the program and the state handed over: vm/engine/EngineRun.h.

// What a compiled tier did (DeviceEngine::compileStats): programs loaded, from the cache or
// compiled, and the time compiling and loading took.
struct CompileStats {
  std::uint64_t hits = 0, misses = 0;
  double seconds = 0;
};

class DeviceEngine {
 public:
  virtual ~DeviceEngine() = default;
  // The program the next runs execute (called again when the module changes).
  virtual void load(const EngineProgramImage& image) = 0;
  // Runs until the engine stops; `run` then holds the state, and header.stop says why.
  virtual void run(EngineRun& run) = 0;
  // How the last run was spread ("1 block x 256 threads"), and launches so far.
  virtual std::string shape() const = 0;
  virtual std::uint64_t launches() const = 0;
  // Zero for an engine that interprets.
  virtual CompileStats compileStats() const { return {}; }
  // A compiled tier: build each program on a thread of its own while the interpreter runs it,
  // and switch to compiled code at the first hand-over after the build (--engine=tiered); off,
  // load waits for the build (--engine=compiled). Nothing for an engine that interprets.
  virtual void compileInBackground(bool on) { (void)on; }
};

}  // namespace star
