// The N-body module on the GPU (Backend::nbody_forces, Backend::nbody_verlet): forces in single
// precision, integration in double precision.
#pragma once

#include <cstdint>
#include <vector>

#include "vm/backend/NBodySystem.h"

namespace star::cuda {

class DeviceContext;

bool nbody_forces(DeviceContext& ctx, const NBodySystem& s, std::vector<double>& fx,
                  std::vector<double>& fy, std::vector<double>& fz);
bool nbody_verlet(DeviceContext& ctx, NBodySystem& s, double dt, std::uint64_t steps);

}  // namespace star::cuda
