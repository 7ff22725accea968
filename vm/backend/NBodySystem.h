// The state of an N-body system as the native N-body procedures hand it to a backend
// (Backend::nbodyForces, Backend::nbodyVerlet): structure of arrays in double precision.
//
// The force on particle i is F_i = sum over j != i of R_ij * (c0 r^3 + (c1 r)^c2), with
// R_ij = x_i - x_j and r = 1 / |R_ij| (docs/PAPERS.md, section 5); (c0, c1, c2) are those of the
// pair of types (type[i], type[j]): index type[i] * ntypes + type[j]. All masses are 1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace star {

struct NBodySystem {
  std::size_t n = 0;          // particles
  std::uint32_t ntypes = 0;   // types; every type[i] < ntypes
  std::vector<std::uint32_t> type;
  std::vector<double> x, y, z;     // positions
  std::vector<double> vx, vy, vz;  // velocities
  std::vector<double> c0, c1, c2;  // ntypes * ntypes coefficients, symmetric
};

}  // namespace star
