// Who calls whom in a module, read from the code (CALL's function operand): for decisions made
// before a module runs, over the functions a run can reach.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "vm/bytecode/Module.h"

namespace star {

// The functions that function f of m calls, in code order (repeats kept); nullopt when f's code
// is not well formed (an unverified module: an unknown opcode, a cut instruction or a callee out
// of range), for which callers assume the worst.
std::optional<std::vector<std::uint32_t>> calleesOf(const Module& m, std::uint32_t f);

// Per function of m: whether a call of it may reach a function for which `own` is true (itself,
// or a function it calls, directly or not). A function whose code is not well formed reaches.
std::vector<bool> reachingFunctions(const Module& m, const std::vector<bool>& own);

}  // namespace star
