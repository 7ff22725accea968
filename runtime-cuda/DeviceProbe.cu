// cudaBackendAvailable: asks the runtime, without aborting, whether this process can use a GPU.
#include <cuda_runtime_api.h>

#include <string>
#include <utility>

#include "runtime-cuda/CudaBackend.h"

namespace star {
namespace {

// Never launched: its attributes tell whether this binary holds code the device can run.
__global__ void probeKernel() {}

std::string describe(cudaError_t err) {
  return std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
}

bool fail(std::string* why_not, std::string why) {
  if (why_not != nullptr) *why_not = std::move(why);
  cudaGetLastError();  // leave no error behind for later calls
  return false;
}

}  // namespace

bool cudaBackendAvailable(std::string* why_not) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  // No driver (a machine without a GPU) or no device: said plainly; the detail stays for others.
  if (err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice || count == 0)
    return fail(why_not, "no GPU found (no NVIDIA driver or device); the CPU backend runs programs");
  if (err != cudaSuccess)
    return fail(why_not, "no usable CUDA driver or device (" + describe(err) + ")");
  int device = 0;
  err = cudaGetDevice(&device);
  if (err != cudaSuccess)
    return fail(why_not, "cannot select a CUDA device (" + describe(err) + ")");
  int pools = 0;
  err = cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, device);
  if (err != cudaSuccess || pools == 0) {
    return fail(why_not, "the CUDA device does not support stream-ordered memory pools");
  }
  cudaFuncAttributes attributes{};
  err = cudaFuncGetAttributes(&attributes, probeKernel);
  if (err != cudaSuccess) {
    return fail(why_not, "the CUDA backend has no kernels for this GPU (" + describe(err) + ")");
  }
  return true;
}

}  // namespace star
