// The CUDA backend: values in GPU memory, primitives as kernels on one stream.
#pragma once

#include <memory>
#include <string>

#include "vm/backend/Backend.h"

namespace star {

// A backend on CUDA device `device` (the current one when negative); throws BackendError when
// there is none.
std::unique_ptr<Backend> makeCudaBackend(int device = -1);
// The number of CUDA devices this process sees (0 without a driver or a device).
int cudaDeviceCount();

// Whether makeCudaBackend() can work here: a driver, a device, and kernels built for it.
// Never throws; when false, *why_not (if given) says why.
bool cudaBackendAvailable(std::string* why_not = nullptr);

}  // namespace star
