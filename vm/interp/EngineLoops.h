// Which parallel loops the device engine runs itself (vm/engine/EngineLayout.h, LoopInfo): decided
// once per loop when the program is loaded, from the body the VM proved independent.
#pragma once

#include "vm/bytecode/Module.h"
#include "vm/engine/EngineLayout.h"
#include "vm/interp/ParallelBody.h"

namespace star {

// The loop as the engine sees it: kind kLoopColumns or kLoopRows for a body that is exactly the
// update `v := COL(i, T); v := v op x; COL(i, T) := v` (or with ROW; op AND, OR or XOR, x not v),
// with v private to an iteration; kLoopHost for every other body.
engine::LoopInfo engineLoopOf(const ParallelBody& body, const ParallelLoop& loop);

}  // namespace star
