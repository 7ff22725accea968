// Native implementations of standard-library procedures: a procedure declared with
// `native 'name';` is run by the backend's fused implementation when the backend has one and
// natives are enabled; otherwise its Star body runs (the reference). Names and argument shapes:
//   transitive_closure(var P: table)  -> Backend::transitive_closure
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vm/backend/Backend.h"
#include "vm/bytecode/Module.h"

namespace star {

// The names a `native '...'` clause may use (the checker rejects others).
inline constexpr const char* kNativeNames[] = {"transitive_closure"};

// Returns true when `name` ran natively on `args` (the raw argument slots: handles for
// tables/slices/words); false when the body must run instead (unknown name, or the backend
// declined, e.g. a non-square table).
bool runNative(const std::string& name, Backend& backend, const std::uint64_t* args,
               std::size_t count);

}  // namespace star
