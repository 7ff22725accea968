// The native procedures a backend split across devices (runtime-sharded/ShardedBackend) can hand
// to code that works on every device's block of a value in place: the multi-GPU natives of
// runtime-cuda/MultiGpuNatives.h. Besides NativeKernels' own (the N-body procedures, which take
// host data), the ones that need the blocks. Each returns false to decline.
#pragma once

#include <cstdint>
#include <vector>

#include "vm/backend/Backend.h"
#include "vm/backend/NativeKernels.h"

namespace star {

// A value's blocks: block g is `parts[g]` on `devices[g]`, rows [firstRow[g], firstRow[g] +
// rows[g]) of it (whole 64-row words; later blocks may be empty).
struct ShardedValue {
  std::vector<Backend*> devices;
  std::vector<Handle> parts;
  std::vector<std::uint64_t> firstRow, rows;
};

class ShardedNatives : public NativeKernels {
 public:
  // The transitive closure (NativeKernels::transitiveClosure) of an n x n table split by rows.
  virtual bool closureParts(const ShardedValue& table, std::uint64_t n) { return false; }
  // SORT (NativeKernels::sortRows) of a table of `cols` columns split by rows, its control slice
  // `marks` split the same way.
  // How many closureParts and sortParts calls ran (did not decline): for tests that must know
  // the work crossed the devices rather than falling back to one.
  virtual std::uint64_t partsRun() const { return 0; }
  virtual bool sortParts(const ShardedValue& table, const ShardedValue& marks, std::uint64_t cols,
                         std::uint64_t first, std::uint64_t len, KeyKind kind, bool descending) {
    return false;
  }
};

}  // namespace star
