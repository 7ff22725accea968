// Turning CUDA runtime errors into star::BackendError.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace star::cuda {

// Throws BackendError("CUDA error in <what>: <cudaGetErrorString>") unless err is cudaSuccess.
void check(cudaError_t err, const char* what);

// Like check, but an allocation failure reads "GPU out of memory: ... <bytes> bytes ...".
void checkAlloc(cudaError_t err, std::uint64_t bytes);

// Checks that the kernel launched just before was accepted (bad configuration, no image, ...).
// Faults inside the kernel surface later, at the next synchronisation point.
void checkLaunch(const char* kernel);

}  // namespace star::cuda
