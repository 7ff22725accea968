// The team compiled code runs on (GpuTeam.cuh with a grid barrier of its own), shared by the
// generated kernels (CompiledKernels.cuh, NVRTC) and the interpreter's code they link against
// (CompiledLibrary.cu, nvcc at build time): both must name the same type.
// NVRTC has no cooperative groups: the grid meets at a barrier of its own, which a cooperative
// launch (all blocks resident at once) makes safe.
#pragma once

#include "runtime-cuda/kernels/GpuTeam.cuh"

namespace star::cuda {

// Blocks count in at p.gridBarrier[0]; the last resets the count and moves the generation,
// p.gridBarrier[1], on which the others wait. The fences order every thread's writes before the
// barrier with every read after it, as a grid sync does.
struct CountingBarrier {
  unsigned* words;
  __device__ void sync() {
    __syncthreads();
    if (threadIdx.x == 0) {
      volatile unsigned* generation = words + 1;
      const unsigned seen = *generation;
      __threadfence();
      if (atomicAdd(words, 1u) == gridDim.x - 1) {
        words[0] = 0;
        __threadfence();
        atomicAdd(words + 1, 1u);
      } else {
        while (*generation == seen) {
        }
      }
      __threadfence();
    }
    __syncthreads();
  }
};

template <bool kGrid>
using CompiledTeam = GpuTeam<kGrid, CountingBarrier>;

}  // namespace star::cuda
