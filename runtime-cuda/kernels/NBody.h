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

// The order of `steps` velocity-Verlet steps with the half kicks of consecutive steps fused
// (v += dt F between drifts): forces, then kick/2 and drift; steps - 1 times forces, kick and
// drift; forces and kick/2. forces() queues a force evaluation, update(kick, drift) an update.
// One GPU's (nbodyVerlet) and several's (runtime-cuda/MultiGpuNatives) schedule. steps > 0.
template <class Forces, class Update>
void verletSchedule(double dt, std::uint64_t steps, Forces forces, Update update) {
  forces();
  update(0.5 * dt, true);
  for (std::uint64_t step = 1; step < steps; ++step) {
    forces();
    update(dt, true);
  }
  forces();
  update(0.5 * dt, false);
}

}  // namespace star::cuda
