// The kernels of compiled code: appended to the C++ that vm/compile generates and built by NVRTC
// (runtime-cuda/NvrtcCompiler.h). They run the same launch as the interpreter's kernel
// (EngineLaunch.cuh) with the generated trampoline, star_compiled::run, in place of Core::run.
// The interpreter's code that generated code calls (Compiled::interpret, Compiled::team) is not
// compiled again: it comes linked from CompiledLibrary.cu, built with star (NvrtcCompiler.h).
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/CompiledTeam.cuh"
#include "runtime-cuda/kernels/EngineLaunch.cuh"

namespace star::cuda {

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

// One form per build (STAR_COMPILED_GRID, defined before this header is included): a program
// builds its grid form only if one of its runs needs the grid.
#if !STAR_COMPILED_GRID
extern "C" __global__ void __launch_bounds__(star::engine::kCompiledMaxThreads) star_compiled_block(const star::cuda::EngineParams p) {
  star::cuda::runCompiledLaunch<false>(p);
}
#else
extern "C" __global__ void __launch_bounds__(star::engine::kCompiledMaxThreads) star_compiled_grid(const star::cuda::EngineParams p) {
  star::cuda::runCompiledLaunch<true>(p);
}
#endif
