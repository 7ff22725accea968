// The CPU backend: bit-parallel primitives on 64-bit words on the host, the executable reference
// for the CUDA backend.
#pragma once

#include <memory>

#include "vm/backend/Backend.h"

namespace star {

std::unique_ptr<Backend> makeCpuBackend();

}  // namespace star
