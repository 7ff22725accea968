// The transitive closure of a square table (Backend::transitiveClosure) as one stream-ordered
// sequence of kernels: a blocked Warshall, one launch per 64 pivot vertices, no host round trip.
#pragma once

#include <cstdint>
#include <memory>

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

// The same closure with the table's rows split across GPUs (runtime-cuda/MultiGpuNatives): read
// row-major, GPU g's part is elements [first_element, first_element + elements) of every row of
// M = P^T (Closure.cu). Every step b runs on every part; between steps the column snapshot of
// step b + 1 (column(b + 1), n elements), which only the part holding element b + 1 writes, must
// be copied to every other part (a broadcast), as must column(0) after snapshot() from the part
// holding element 0. All queued on `launch.stream`.
class ClosurePart {
 public:
  // scratch: scratchWords(n, elements) elements of device memory on this part's GPU.
  ClosurePart(const Launch& launch, std::uint64_t* table, std::uint64_t n,
              std::uint64_t first_element, std::uint64_t elements, std::uint64_t* scratch);
  ~ClosurePart();
  static std::uint64_t scratchWords(std::uint64_t n, std::uint64_t elements);
  void snapshot();
  void step(std::uint64_t b);
  std::uint64_t* column(std::uint64_t b) const;
  bool holds(std::uint64_t element) const { return element >= e0_ && element - e0_ < w_; }

 private:
  struct Plan;
  Launch launch_;
  std::uint64_t* table_;
  std::uint64_t n_, e0_, w_;
  std::uint64_t* scratch_;
  std::unique_ptr<Plan> plan_;
};

}  // namespace star::cuda
