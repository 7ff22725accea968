// The N-body force kernels (NBodyForces.cu describes them): F_i = sum over j != i of
// R_ij (c0 r^3 + (c1 r)^c2) in single precision, summed per tile in float and across tiles in
// double, for a system laid out by NBodyDevice.h. Host-side interface.
#pragma once

#include <cstddef>

#include "runtime-cuda/kernels/Launch.h"
#include "runtime-cuda/kernels/NBodyDevice.h"

namespace star::cuda {

class DeviceContext;

namespace nbody {

enum class PairLoop {
  Square,      // every ordered pair (i, j): N^2 interactions, no write conflicts
  Triangular,  // every unordered pair once (Newton's third law), forces on j by atomics
};

struct ForceOptions {
  // The triangular loop where it applies (symmetric coefficients, every c2 >= 2; the square loop
  // otherwise): 1.4x faster on an H200 (bench/nbody_bench.cu), though the order of its atomic
  // sums, and so the last bits of the forces, vary from run to run. The square loop's sums are
  // reproducible.
  PairLoop loop = PairLoop::Triangular;
  // General exponents: every other pair takes r^3 from an FMA polynomial instead of the
  // special-function unit (see NBodyForces.cu).
  bool poly_exp2 = false;
  // Take the general path even where every c2 is one integer (for the benchmark).
  bool general = false;
};

// A force evaluation prepared for one system: which kernel, its grid, and how many partial sums
// it leaves in d.force.
struct ForcePlan {
  PairLoop loop = PairLoop::Square;
  int exponent = 0;  // 0: general
  bool signed_rep = false;
  bool poly_exp2 = false;
  unsigned grid_x = 1, grid_y = 1;
  std::size_t partials = 1;
};

// Chooses the kernel and its grid for d, and makes d.force large enough for its partial sums.
ForcePlan planForces(DeviceContext& ctx, DeviceSystem& d, const ForceOptions& options);
// Queues one force evaluation of d's current float positions into d.force. With parts > 1 (the
// triangular loop only): part `part` of its pairs, so that `parts` GPUs holding the same system
// share one evaluation and the sum of their d.force is the whole (runtime-cuda/MultiGpuNatives).
void launchForces(const Launch& launch, const DeviceSystem& d, const ForcePlan& plan,
                  unsigned part = 0, unsigned parts = 1);

}  // namespace nbody
}  // namespace star::cuda
