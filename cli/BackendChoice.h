// Which backend runs a program: CUDA where a GPU is present (and the CUDA backend was built),
// the CPU backend otherwise; `--backend=cpu|cuda` overrides.
#pragma once

#include <memory>
#include <string>

#include "vm/backend/Backend.h"

namespace star {

// requested: "auto", "cpu" or "cuda". Returns null and sets *error when it cannot be honoured.
// Also sets the memory limit for the backend's device (core/MemoryLimit.h).
std::unique_ptr<Backend> chooseBackend(const std::string& requested, std::string* error);
// The same without touching the memory limit.
std::unique_ptr<Backend> makeBackend(const std::string& requested, std::string* error);
bool cudaBackendBuilt();
// Whether `--engine=requested` (host, device, auto) runs on the backend's device engine: auto
// means the device engine on the CUDA backend, the host elsewhere.
bool useDeviceEngine(const std::string& requested, const Backend& backend);

}  // namespace star
