// The explicit instantiations of compiled code's ways into the interpreter (EngineCompiled.h) for
// one team, STAR_INSTANCE_TEAM, which the includer defines: `interpret`, `control`, and `team` for
// every instruction on the bits in the one table of opcodes (its executor column says Team).
// Included once per team by the linked library (runtime-cuda/kernels/CompiledLibrary.cu); no
// include guard, as Opcodes.def has none.
#ifndef STAR_INSTANCE_TEAM
#error "define STAR_INSTANCE_TEAM before including EngineCompiledInstances.h"
#endif

template Exit Compiled<STAR_INSTANCE_TEAM>::interpret(std::uint32_t);
template bool Compiled<STAR_INSTANCE_TEAM>::control(std::uint32_t, bool);
#define STAR_INSTANCE_Team(name) \
  template bool Compiled<STAR_INSTANCE_TEAM>::team<Op::name>(std::uint32_t, Values&);
#define STAR_INSTANCE_Leader(name)
#define STAR_INSTANCE_Scalar(name)
#define STAR_INSTANCE_Host(name)
#define STAR_INSTANCE_HostMath(name)
#define OP(name, shape, access, executor, flags, doc) STAR_INSTANCE_##executor(name)
#include "vm/bytecode/Opcodes.def"
#undef OP
#undef STAR_INSTANCE_Team
#undef STAR_INSTANCE_Leader
#undef STAR_INSTANCE_Scalar
#undef STAR_INSTANCE_Host
#undef STAR_INSTANCE_HostMath
