// Device-side helpers shared by the kernels.
#pragma once

#include <cstdint>

namespace star::cuda {

__device__ __forceinline__ std::uint64_t globalThread() {
  return std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ std::uint64_t gridThreads() {
  return std::uint64_t{gridDim.x} * blockDim.x;
}

}  // namespace star::cuda
