#include "runtime-cuda/CudaCheck.h"

#include <string>

#include "vm/backend/Backend.h"

namespace star::cuda {

void check(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return;
  // Clear a non-sticky error so the backend stays usable after the exception.
  cudaGetLastError();
  if (err == cudaErrorMemoryAllocation) {
    throw BackendError(std::string("GPU out of memory in ") + what);
  }
  throw BackendError(std::string("CUDA error in ") + what + ": " + cudaGetErrorName(err) + " (" +
                     cudaGetErrorString(err) + ")");
}

void checkAlloc(cudaError_t err, std::uint64_t bytes) {
  if (err == cudaSuccess) return;
  cudaGetLastError();
  if (err == cudaErrorMemoryAllocation) {
    throw BackendError("GPU out of memory: could not allocate " + std::to_string(bytes) + " bytes");
  }
  throw BackendError("CUDA error allocating " + std::to_string(bytes) +
                     " bytes: " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

void checkLaunch(const char* kernel) {
  check(cudaGetLastError(), kernel);
}

}  // namespace star::cuda
