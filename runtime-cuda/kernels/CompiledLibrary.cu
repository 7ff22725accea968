// The interpreter's code that compiled code calls on the GPU, compiled once, with star, into
// relocatable device code (runtime-cuda/CMakeLists.txt: nvcc -rdc, a cubin for sm_90 and PTX for
// other GPUs), which star carries and links to each program's NVRTC output (NvrtcCompiler.h).
// Generated code sees only the declarations of Compiled::interpret and Compiled::team<Op>
// (STAR_COMPILED_LINKED); their one definition, vm/engine/EngineCompiled.h's, is instantiated
// here for both teams. Without this, every program compiled the whole
// interpreter again (NVRTC 4 s before the program's own code).
#include "runtime-cuda/kernels/CompiledTeam.cuh"
#include "vm/engine/EngineCompiled.h"

namespace star::engine {

#define STAR_INSTANCE_TEAM cuda::CompiledTeam<false>
#include "vm/engine/EngineCompiledInstances.h"
#undef STAR_INSTANCE_TEAM
#define STAR_INSTANCE_TEAM cuda::CompiledTeam<true>
#include "vm/engine/EngineCompiledInstances.h"
#undef STAR_INSTANCE_TEAM

}  // namespace star::engine
