// The natives of unit nbody (stdlib/nbody.star): tables to an NBodySystem and back,
// Backend::nbodyForces / Backend::nbodyVerlet, energies and momentum.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "vm/backend/Backend.h"

namespace star {

// As runNative (Natives.h), for the names "nbody_forces", "nbody_verlet" and "nbody_energy".
bool runNBodyNative(const std::string& name, Backend& backend, const std::uint64_t* args,
                   std::size_t count, const std::function<bool(Handle)>& fixed);

}  // namespace star
