// SORT and SEGSORT of unit sort on the GPU (Backend::sortRows, Backend::segsortRows).
#pragma once

#include <cstdint>

#include "vm/backend/NativeKernels.h"

namespace star::cuda {

class DeviceContext;

// table: rows x cols on the device, column-major packed bits (Backend.h); x: the control slice
// (device, rows bits); heads: group starts (device, rows bits), or nullptr for one group.
// Semantics and preconditions are those of Backend::sortRows / segsortRows. Queued on
// ctx.stream(); returns false when it declines.
bool sortTableRows(DeviceContext& ctx, std::uint64_t* table, std::uint64_t rows,
                     std::uint64_t cols, const std::uint64_t* x, const std::uint64_t* heads,
                     std::uint64_t first, std::uint64_t len, KeyKind kind, bool descending);

}  // namespace star::cuda
