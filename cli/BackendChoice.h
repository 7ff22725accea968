// Which backend runs a program: CUDA where a GPU is present (and the CUDA backend was built),
// the CPU backend otherwise; `--backend=cpu|cuda` overrides.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "vm/backend/Backend.h"

namespace star {

class Interpreter;

// requested: "auto", "cpu" or "cuda"; devices: --devices, "1", "N" or "all" (rows split across N
// GPUs, runtime-sharded/; on the CPU backend N shards of host memory). Returns null and sets
// *error when it cannot be honoured (an unknown name, more GPUs than the machine has).
// Also sets the memory limit for the backend's devices (core/MemoryLimit.h).
std::unique_ptr<Backend> chooseBackend(const std::string& requested, std::string* error,
                                       const std::string& devices = "1");
// For a program that cannot use a backend (vm/bytecode/BackendUse.h) and does not ask for the
// device engine: the CPU backend, which starts nothing, in place of `requested` (still checked
// for a valid name), so that no GPU is started for it. Otherwise chooseBackend.
std::unique_ptr<Backend> chooseBackendFor(const std::string& requested, bool needed,
                                          std::string* error, const std::string& devices = "1");
// The same without touching the memory limit.
std::unique_ptr<Backend> makeBackend(const std::string& requested, std::string* error,
                                     const std::string& devices = "1");
// --devices: N (1..16), or 0 for "all"; nullopt when malformed.
std::optional<int> parseDevices(const std::string& text);
bool cudaBackendBuilt();
// The GPUs this process sees (0 without CUDA, a driver or a device).
int gpuCount();
// Whether they all let several processes hold a context at once (the default compute mode).
bool gpusShareable();
// The engines --engine and the REPL's :engine take (one list for the options, their checks and
// completion): host, device (interpreting), compiled (waits for the build), tiered (interprets
// while the build runs, then compiled code), auto (the device engine on the CUDA backend, the
// host elsewhere).
inline constexpr const char* kEngineNames[] = {"host", "device", "compiled", "tiered", "auto"};
bool isEngineName(const std::string& name);
// "host, device, compiled, tiered or auto", each name after `prefix` (":engine ").
std::string engineNamesText(const std::string& prefix = "");
// Whether `--engine=requested` (host, device, auto) runs on the backend's device engine: auto
// means the device engine on the CUDA backend, the host elsewhere.
bool useDeviceEngine(const std::string& requested, const Backend& backend);
// Sets vm's engine for `--engine=requested`: compiled and tiered are the device engine's compiled
// tier (where the backend has none, star says so once and the device engine interprets).
void chooseEngine(Interpreter& vm, const std::string& requested, bool useCache);

}  // namespace star
