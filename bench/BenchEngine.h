// The engine a benchmark times, by name (the star command's --engine, cli/BackendChoice.cpp, is
// not a library the benchmarks link): "host", the VM's own loop over the backend's primitives;
// "device", the device engine interpreting; "compiled", compiled code (built once, then from the
// disk cache).
#pragma once

#include <string>

#include "vm/interp/Interpreter.h"

namespace star::bench {

inline void enableEngine(Interpreter& vm, const std::string& engine) {
  if (engine == "compiled")
    vm.enableCompiledEngine(true);
  else
    vm.enableDeviceEngine(engine == "device");
}

// Whether a run on `engine` that has ended ran the engine asked for: compiled code that could not
// be built (star said why) leaves the engine interpreting, which is not a compiled figure.
inline bool ranAsAsked(const Interpreter& vm, const std::string& engine) {
  const CompileStats& built = vm.engineStats().compiled;
  return engine != "compiled" || built.hits + built.misses > 0;
}

}  // namespace star::bench
