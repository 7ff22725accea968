// Native implementations of standard-library procedures: a procedure declared with
// `native 'name';` is run by the backend's fused implementation when the backend has one and
// natives are enabled; otherwise its Star body runs (the reference). Names and argument shapes:
//   transitiveClosure(var P: table)  -> Backend::transitiveClosure
//   extremeRows(var T: table; X: slice; first, len: integer; wantMax: boolean; var Z: slice)
//                                     -> Backend::extremeRows (MINROW, MAXROW and field forms)
//   addField / subField(var T: table; X: slice; first: integer; v: word)
//                                     -> Backend::addField (ADDWF, SUBWF, hence ADDW, SUBW)
//   sortRows, segsortRows           -> SortNatives.h (unit sort)
//   nbodyForces, nbodyVerlet, nbody_energy -> NBodyNatives.h (unit nbody)
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "vm/backend/Backend.h"
#include "vm/bytecode/Module.h"

namespace star {

// The names a `native '...'` clause may use (the checker rejects others).
inline constexpr const char* kNativeNames[] = {
    "transitive_closure", "extreme_rows",  "add_field",    "sub_field",   "sort_rows",
    "segsort_rows",       "nbody_forces",  "nbody_verlet", "nbody_energy"};

// Returns true when `name` ran natively on `args` (the raw argument slots: handles for
// tables/slices/words); false when the body must run instead (unknown name, or the backend
// declined, e.g. a non-square table).
// `fixed(h)` tells whether a handle's size is fixed by a declaration: a native declines when its
// body would report an error, so that the body runs and reports it.
bool runNative(const std::string& name, Backend& backend, const std::uint64_t* args,
               std::size_t count, const std::function<bool(Handle)>& fixed);

}  // namespace star
