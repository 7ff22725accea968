// The explicit instantiations of compiled code's ways into the interpreter (EngineCompiled.h) for
// one team, STAR_INSTANCE_TEAM, which the includer defines: `interpret`, `team`, and `teamOwned`
// for every line of the one table of opcodes (an opcode that is not owned is a call of `team`,
// which generated code never makes through it). Included once per team by the linked library
// (runtime-cuda/kernels/CompiledLibrary.cu); no include guard, as Opcodes.def has none.
#ifndef STAR_INSTANCE_TEAM
#error "define STAR_INSTANCE_TEAM before including EngineCompiledInstances.h"
#endif

template Exit Compiled<STAR_INSTANCE_TEAM>::interpret(std::uint32_t);
template bool Compiled<STAR_INSTANCE_TEAM>::team(std::uint32_t, Op, Values&);
#define OP(name, shape, access, executor, flags, doc) \
  template bool Compiled<STAR_INSTANCE_TEAM>::teamOwned<Op::name>(std::uint32_t, Values&);
#include "vm/bytecode/Opcodes.def"
#undef OP
