// The N-body module on the GPU (Backend::nbodyForces, Backend::nbodyVerlet): forces in single
// precision, integration in double precision.
#pragma once

#include <cstdint>
#include <vector>

#include "vm/backend/NBodySystem.h"

namespace star::cuda {

class DeviceContext;

bool nbodyForces(DeviceContext& ctx, const NBodySystem& s, std::vector<double>& fx,
                  std::vector<double>& fy, std::vector<double>& fz);
bool nbodyVerlet(DeviceContext& ctx, NBodySystem& s, double dt, std::uint64_t steps);

}  // namespace star::cuda
