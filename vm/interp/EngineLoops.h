// Which parallel loops the device engine runs itself (vm/engine/EngineLayout.h, LoopInfo): decided
// once per loop when the program is loaded, from the body the VM proved independent.
#pragma once

#include <vector>

#include "vm/bytecode/Module.h"
#include "vm/engine/EngineLayout.h"
#include "vm/interp/ParallelBody.h"

namespace star {

// The loop as the engine sees it: kind kLoopColumns or kLoopRows for a body that is exactly the
// update `v := COL(i, T); v := v op x; COL(i, T) := v` (or with ROW; op AND, OR or XOR, x not v),
// with v its one private, as the executors' matcher finds it in a plan (fusedUpdateAt,
// vm/backend/FusedUpdate.h; here its operands compare by register); kLoopHost for every other body.
engine::LoopInfo engineLoopOf(const ParallelBody& body, const ParallelLoop& loop);

// Per function of m: whether a call of it may run a parallel loop the engine runs itself (one of
// its own, or of a function it calls, directly or not). `loops`: engineLoopOf of every parallel
// loop of m, function by function in order (as the engine's program image lists them). A backend
// sizes the team for whole tables only for a run that may reach such a loop.
std::vector<bool> reachesEngineLoops(const Module& m, const std::vector<engine::LoopInfo>& loops);

}  // namespace star
