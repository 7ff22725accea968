// The compiled tier on the GPU: the device engine (CudaEngine) whose programs run as compiled
// code. Each program the engine loads becomes C++ (vm/compile/), is built into a cubin
// (CompiledBuild.h: NVRTC, nvJitLink, the disk cache) and loaded with the runtime's library API;
// its two kernels then take the interpreter's place, under the same protocol. A program that
// cannot be built (no NVRTC or nvJitLink at run time, a failed build) runs on the interpreter's
// kernels, and star says so once.
#pragma once

#include <memory>

#include "runtime-cuda/CudaEngine.h"

namespace star::cuda {

std::unique_ptr<CudaEngine> makeCompiledCudaEngine(DeviceContext& ctx,
                                                   HandleTable<DeviceValue>& values, bool useCache);

}  // namespace star::cuda
