// The transitive closure of a square table (Backend::transitiveClosure) as one stream-ordered
// sequence of kernels: a blocked Warshall, one launch per 64 pivot vertices, no host round trip.
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/Launch.h"

namespace star::cuda {

// Elements of device scratch memory that launchTransitiveClosure needs for an n x n table.
std::uint64_t closureScratchWords(std::uint64_t n);

// table: n x n, column-major (column j = ceil(n / 64) elements, bit i of column j = P(i, j)),
// unused high bits 0. Afterwards P(i, j) = 1 iff there is a path of one or more arcs from i to j,
// as Warshall's algorithm computes it in place. scratch: closureScratchWords(n) elements, not
// aliasing table; its contents are not needed before and not kept after. n > 0. Queued on
// launch.stream; returns without waiting.
void launchTransitiveClosure(const Launch& launch, std::uint64_t* table, std::uint64_t n,
                               std::uint64_t* scratch);

}  // namespace star::cuda
