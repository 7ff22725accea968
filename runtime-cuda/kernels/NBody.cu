// The N-body module on the GPU (Backend::nbodyForces, Backend::nbodyVerlet): the system goes up
// once, the force kernel (NBodyForces.h, the default ForceOptions) and the update kernel run on
// the backend's stream for every step, and the results come back once at the end.
#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/kernels/NBody.h"
#include "runtime-cuda/kernels/NBodyDevice.h"
#include "runtime-cuda/kernels/NBodyForces.h"

namespace star::cuda {
namespace {

// Releases a system's device memory on every way out.
struct Uploaded {
  DeviceContext& ctx;
  nbody::DeviceSystem d;
  ~Uploaded() { nbody::release(ctx, d); }
};

}  // namespace

bool nbodyForces(DeviceContext& ctx, const NBodySystem& s, std::vector<double>& fx,
                  std::vector<double>& fy, std::vector<double>& fz) {
  if (s.n == 0) {
    fx.clear();
    fy.clear();
    fz.clear();
    return true;
  }
  Uploaded up{ctx, {}};
  if (!nbody::upload(ctx, s, up.d)) return false;  // the Star body runs, in double precision
  const nbody::ForcePlan plan = nbody::planForces(ctx, up.d, nbody::ForceOptions{});
  nbody::launchForces(ctx.launch(), up.d, plan);
  nbody::launchGather(ctx.launch(), up.d, plan.partials);
  nbody::downloadForces(ctx, up.d, fx, fy, fz);
  return true;
}

// Velocity Verlet in verletSchedule's order (NBody.h).
bool nbodyVerlet(DeviceContext& ctx, NBodySystem& s, double dt, std::uint64_t steps) {
  if (s.n == 0 || steps == 0) return true;
  Uploaded up{ctx, {}};
  if (!nbody::upload(ctx, s, up.d)) return false;
  const nbody::ForcePlan plan = nbody::planForces(ctx, up.d, nbody::ForceOptions{});
  const Launch& launch = ctx.launch();
  verletSchedule(
      dt, steps, [&] { nbody::launchForces(launch, up.d, plan); },
      [&](double kick, bool drift) {
        nbody::launchUpdate(launch, up.d, plan.partials, kick, dt, drift);
      });
  nbody::downloadState(ctx, up.d, s);
  return true;
}

}  // namespace star::cuda
