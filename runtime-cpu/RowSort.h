// SORT and SEGSORT of unit sort on the host (Backend::sortRows, Backend::segsortRows).
#pragma once

#include <cstdint>

#include "vm/backend/NativeKernels.h"

namespace star::cpu {

// table: rows x cols, column-major packed bits (Backend.h); x: the control slice (rows bits);
// heads: group starts (rows bits), or nullptr for one group. Semantics and preconditions are
// those of Backend::sortRows / segsortRows. Returns false when it declines.
bool sortTableRows(std::uint64_t* table, std::uint64_t rows, std::uint64_t cols,
                     const std::uint64_t* x, const std::uint64_t* heads, std::uint64_t first,
                     std::uint64_t len, KeyKind kind, bool descending);

}  // namespace star::cpu
