// The kernels of compiled code: appended to the C++ that vm/compile generates and built by NVRTC
// (runtime-cuda/NvrtcCompiler.h). They run the same launch as the interpreter's kernel
// (EngineLaunch.cuh) with the generated trampoline, star_compiled::run, in place of Core::run.
// NVRTC has no cooperative groups: the grid meets at a barrier of its own, which a cooperative
// launch (all blocks resident at once) makes safe.
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/EngineLaunch.cuh"
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

template <bool kGrid>
__device__ void runCompiledLaunch(const EngineParams& p) {
  __shared__ engine::Ctl ctl[2];
  __shared__ std::uint64_t red[2][33];
  extern __shared__ engine::Word sharedRegion[];
  CompiledTeam<kGrid> team(ctl, red, p.partials, p.host, CountingBarrier{p.gridBarrier});
  runEngineLaunch(p, team, sharedRegion, [&](CompiledTeam<kGrid>& t, engine::Region region) {
    star_compiled::run(t, p.program, region);
  });
}

}  // namespace star::cuda

extern "C" __global__ void __launch_bounds__(1024) star_compiled_block(const star::cuda::EngineParams p) {
  star::cuda::runCompiledLaunch<false>(p);
}
extern "C" __global__ void __launch_bounds__(1024) star_compiled_grid(const star::cuda::EngineParams p) {
  star::cuda::runCompiledLaunch<true>(p);
}
