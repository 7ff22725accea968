// Whether running a module can ever ask a backend for anything, decided before it runs: star run
// starts no GPU (no CUDA context) for a program that cannot use one.
#pragma once

#include "vm/bytecode/Module.h"

namespace star {

// True when the module holds a slice, word or table in a global, or a function reachable from
// its entry (through CALL) has one in a parameter, an owned register or its result, or is a
// native. In a verified module every handle lives in one of those slots (or is moved from one),
// so a module for which this is false never calls the backend.
bool usesBackend(const Module& m);

}  // namespace star
