#include "cli/BackendChoice.h"

#include <iostream>

#include "core/MemoryLimit.h"
#include "vm/interp/Interpreter.h"
#include "runtime-cpu/CpuBackend.h"
#ifdef STAR_HAVE_CUDA
#include "runtime-cuda/CudaBackend.h"
#endif

namespace star {
namespace {

bool knownBackend(const std::string& requested, std::string* error) {
  if (requested == "auto" || requested == "cuda" || requested == "cpu") return true;
  *error = "unknown backend '" + requested + "' (expected cpu, cuda or auto)";
  return false;
}

}  // namespace

bool cudaBackendBuilt() {
#ifdef STAR_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

std::unique_ptr<Backend> chooseBackend(const std::string& requested, std::string* error) {
  auto backend = makeBackend(requested, error);
  if (backend) chooseMemoryLimit(backend->deviceMemory());
  return backend;
}

std::unique_ptr<Backend> chooseBackendFor(const std::string& requested, bool needed,
                                          std::string* error) {
  if (needed) return chooseBackend(requested, error);
  if (!knownBackend(requested, error)) return nullptr;
  chooseMemoryLimit(0);
  return makeCpuBackend();
}

std::unique_ptr<Backend> makeBackend(const std::string& requested, std::string* error) {
  if (requested == "cpu") return makeCpuBackend();
  if (!knownBackend(requested, error)) return nullptr;
#ifdef STAR_HAVE_CUDA
  std::string why;
  if (cudaBackendAvailable(&why)) {
    try {
      return makeCudaBackend();
    } catch (const BackendError& e) {
      why = e.what();
    }
  }
  if (requested == "cuda") {
    *error = "the CUDA backend is not available: " + why;
    return nullptr;
  }
#else
  if (requested == "cuda") {
    *error = "the CUDA backend is not available: this star was built without CUDA (nvcc not found)";
    return nullptr;
  }
#endif
  return makeCpuBackend();
}

bool isEngineName(const std::string& name) {
  for (const char* e : kEngineNames)
    if (name == e) return true;
  return false;
}

std::string engineNamesText(const std::string& prefix) {
  std::string s;
  const std::size_t n = std::size(kEngineNames);
  for (std::size_t i = 0; i < n; ++i)
    s += (i == 0 ? "" : i + 1 == n ? " or " : ", ") + prefix + kEngineNames[i];
  return s;
}

void chooseEngine(Interpreter& vm, const std::string& requested, bool useCache) {
  if (requested == "compiled" || requested == "tiered") {
    if (vm.enableCompiledEngine(useCache, requested == "tiered")) return;
    static bool said = false;
    if (!said) std::cerr << "star: the " << vm.backend().name() << " backend has no compiled code yet; the device engine interprets\n";
    said = true;
  }
  vm.enableDeviceEngine(useDeviceEngine(requested, vm.backend()));
}

bool useDeviceEngine(const std::string& requested, const Backend& backend) {
  if (requested == "device" || requested == "compiled" || requested == "tiered") return true;
  return requested == "auto" && backend.name() == "cuda";
}

}  // namespace star
