// The double-precision reference of the N-body module (Backend::nbody_forces, nbody_verlet).
#pragma once

#include <cstdint>
#include <vector>

#include "vm/backend/NBodySystem.h"

namespace star::cpu {

void nbody_forces(const NBodySystem& s, std::vector<double>& fx, std::vector<double>& fy,
                  std::vector<double>& fz);
void nbody_verlet(NBodySystem& s, double dt, std::uint64_t steps);

}  // namespace star::cpu
