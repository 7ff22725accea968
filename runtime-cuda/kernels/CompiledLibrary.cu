// The interpreter's code that compiled code calls on the GPU, compiled once, with star, into
// relocatable device code (runtime-cuda/CMakeLists.txt: nvcc -rdc, a cubin for sm_90 and PTX for
// other GPUs), which star carries and links to each program's NVRTC output (NvrtcCompiler.h).
// Generated code sees only the declarations of Compiled::interpret, Compiled::team and
// Compiled::teamOwned (STAR_COMPILED_LINKED); their one definition, vm/engine/EngineCompiled.h's,
// is instantiated here for both teams. Without this, every program compiled the whole
// interpreter again (NVRTC 4 s before the program's own code).
#include "runtime-cuda/kernels/CompiledTeam.cuh"
#include "vm/engine/EngineCompiled.h"

namespace star::engine {

template Exit Compiled<cuda::CompiledTeam<false>>::interpret(std::uint32_t);
template bool Compiled<cuda::CompiledTeam<false>>::team(std::uint32_t, Op, Values&);
template Exit Compiled<cuda::CompiledTeam<true>>::interpret(std::uint32_t);
template bool Compiled<cuda::CompiledTeam<true>>::team(std::uint32_t, Op, Values&);

// Compiled::teamOwned for every opcode of the one table (an opcode that is not owned is a call
// of `team`, which generated code never makes through it).
#define OP(name, shape, access, executor, flags, doc)                                            \
  template bool Compiled<cuda::CompiledTeam<false>>::teamOwned<Op::name>(std::uint32_t, Values&); \
  template bool Compiled<cuda::CompiledTeam<true>>::teamOwned<Op::name>(std::uint32_t, Values&);
#include "vm/bytecode/Opcodes.def"
#undef OP

}  // namespace star::engine
