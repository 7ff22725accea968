// The cost of a primitive inside a Star loop, as a program pays it: `for k := 1 to reps do S`
// for one statement S per primitive, run through the VM on a backend and an engine (the device
// engine on a GPU: no host between iterations). Printed as a Markdown table for primitives_bench.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vm/backend/Backend.h"

namespace star::bench {

// One table: a row per primitive, a column per size, microseconds per primitive (the loop's time
// per iteration less that of the same loop with a scalar statement). `engine` is "host",
// "device" or "compiled"; false when the backend has no such engine.
bool runStarLoopPrimitives(Backend& backend, const std::string& engine,
                           const std::vector<std::uint64_t>& sizes);

}  // namespace star::bench
