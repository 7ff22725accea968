// The CUDA backend: values in GPU memory, primitives as kernels on one stream.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "vm/backend/Backend.h"

namespace star {

// A backend on CUDA device `device` (the current one when negative; the current device is left as
// it was); throws BackendError when there is none. A backend's primitives run on the calling
// thread's current device: with backends on several devices, makeCurrent() before using one.
std::unique_ptr<Backend> makeCudaBackend(int device = -1);
// The number of CUDA devices this process sees (0 without a driver or a device).
int cudaDeviceCount();
// Whether every CUDA device this process sees is in the default compute mode, where several
// processes may hold a context on it at once (not exclusive-process or prohibited).
bool cudaDevicesShareable();

namespace cuda {
class DeviceContext;
}
// For code that works on a CUDA backend's values in place (runtime-cuda/MultiGpuNatives): the
// backend's context (its stream orders the work) and a value's device memory (column-major, as
// Backend.h says). Null when `backend` is not a CUDA backend.
cuda::DeviceContext* cudaContextOf(Backend& backend);
std::uint64_t* cudaDataOf(Backend& backend, Handle value);

// Whether makeCudaBackend() can work here: a driver, a device, and kernels built for it.
// Never throws; when false, *why_not (if given) says why.
bool cudaBackendAvailable(std::string* why_not = nullptr);

}  // namespace star
