// The double-precision reference of the N-body module (Backend::nbodyForces, nbodyVerlet).
#pragma once

#include <cstdint>
#include <vector>

#include "vm/backend/NBodySystem.h"

namespace star::cpu {

void nbodyForces(const NBodySystem& s, std::vector<double>& fx, std::vector<double>& fy,
                  std::vector<double>& fz);
void nbodyVerlet(NBodySystem& s, double dt, std::uint64_t steps);

// The paper's test system in C++ (what NB_CRYSTAL builds in Star): cells^3 cubic cells of
// constant a, 4 particles of type 0 on the fcc sites and 8 of type 1 on the tetrahedral sites of
// each, cell by cell (z fastest), centred on the origin; zero velocities, no coefficients
// (ntypes and c0/c1/c2 are left for the caller).
NBodySystem fluoriteCrystal(int cells, double a);

}  // namespace star::cpu
