// The natives of unit sort (stdlib/sort.star): argument checks, then Backend::sortRows /
// Backend::segsortRows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "vm/backend/Backend.h"

namespace star {

// As runNative (Natives.h), for the names "sort_rows" and "segsort_rows".
bool runSortNative(const std::string& name, Backend& backend, const std::uint64_t* args,
                   std::size_t count, const std::function<bool(Handle)>& fixed);

}  // namespace star
