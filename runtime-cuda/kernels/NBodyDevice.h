// An N-body system on the GPU, laid out for the force kernels (NBodyForces.h), and the kernels
// that integrate it and hand forces back. Host-side interface; used by NBody.cu and the benchmark.
//
// Layout. Particles are sorted by type (stably) and each type is padded to a multiple of
// kSegment slots with dummies, so that every segment of kSegment consecutive slots holds one type
// and a force kernel takes the pair coefficients once per segment, not once per pair. The
// `slots` slots of the segments are the j range; the i range goes on to `capacity` (a multiple of
// kSpan) with more dummies. The square loop leaves the dummies out by a select in the last
// segment of each type; they also sit far away (2^60 length units from the real particles, 2^40
// apart from each other), so that what they compute stays finite and the triangular loop, which
// does not mask them, gets no force from them where it is used (c2 >= 2). The update kernels
// never move them.
//
// Positions go to the force kernels as float4: x, y, z relative to `center` (the middle of the
// bounding box, so that differences keep float's relative precision) in units of `length` (a
// power of two near the mean spacing, so that r^3 and r^c2 stay within float range in any unit
// system; the coefficients are scaled to match, and forces come out in the caller's units);
// w = 1 for a real particle, 0 for a dummy. Positions and velocities are integrated in double
// precision, in the caller's units.
#pragma once

#include <vector_types.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime-cuda/kernels/Launch.h"
#include "vm/backend/NBodySystem.h"

namespace star::cuda {

class DeviceContext;

namespace nbody {

inline constexpr unsigned kSegment = 32;  // slots of one type: a warp's width
inline constexpr unsigned kSpan = 256;    // i slots of a square-loop block, and its j tile

// The integer exponents the force kernels are specialised for (powers by multiplication).
inline constexpr int kIntExponents[] = {6, 8, 9, 10, 12};

// How the force kernels evaluate (c1 r)^c2, chosen from the coefficients of the types present.
struct Potential {
  int exponent = 0;         // > 0: every c2 is this integer (one of kIntExponents); 0: general
  bool signed_rep = false;  // general path: some c1^c2 is negative (or NaN)
  // The triangular loop needs symmetric coefficients, and forces that vanish at the dummies'
  // distance (c2 >= 2: the repulsion of a dummy falls as d^(1 - c2)).
  bool symmetric = true;
  double min_c2 = 0.0;
};

struct DeviceSystem {
  std::size_t n = 0;         // particles
  std::size_t slots = 0;     // the segments' slots: the j range (a multiple of kSegment)
  std::size_t capacity = 0;  // the i range and the arrays' length (a multiple of kSpan)
  std::uint32_t ntypes = 0;
  Potential potential;
  double center[3] = {0, 0, 0};
  double length = 1.0;
  std::vector<std::int64_t> origin;  // host: slot -> particle index, or -1 for a dummy

  // Device memory, all in `block` (stream-ordered, from the context's pool).
  float4* pos = nullptr;               // capacity
  std::uint32_t* seg_type = nullptr;   // slots / kSegment: the type of each segment
  std::uint32_t* seg_count = nullptr;  // slots / kSegment: its real particles (the first ones)
  // ntypes^2 coefficients in the kernels' forms (pair type a * ntypes + b):
  float4* coef = nullptr;      // general: c0, c2 log2|c1|, -c2 / 2, the sign of c1^c2
  float4* coef_int = nullptr;  // integer exponent: c0, c1^c2 (when potential.exponent > 0)
  double* state = nullptr;     // 6 x slots: x, y, z, vx, vy, vz in double
  double* gathered = nullptr;  // 3 x slots: fx, fy, fz per slot (gather_forces)
  std::uint64_t* block = nullptr;
  // Partial forces, [partial][3][capacity] in double: the force kernels' output (NBodyForces.h
  // sizes it).
  double* force = nullptr;
  std::size_t force_partials = 0;  // how many `force` holds
};

// Puts s on the device (queued on ctx's stream). Returns false, with nothing allocated, when the
// system does not fit the single-precision force kernels: a non-finite position or coefficient,
// a position farther than 2^40 from the centre, |c0| beyond float range. Throws BackendError.
bool upload(DeviceContext& ctx, const NBodySystem& s, DeviceSystem& d);
// The same in two halves, for several GPUs that hold the same system: the layout built once on
// the host, then copied to each.
struct UploadImage {
  DeviceSystem meta;                       // no device memory yet
  std::vector<std::uint64_t> host;         // the block as it goes to the device
  std::array<std::size_t, 7> offsets{};    // pos, seg_type, seg_count, coef, coef_int, state,
                                           // gathered (the copy ends there)
  std::size_t bytes = 0;                   // the whole block
};
bool prepareUpload(const NBodySystem& s, UploadImage& image);  // false: as upload
void uploadImage(DeviceContext& ctx, const UploadImage& image, DeviceSystem& d);
// Gives d's device memory back (stream-ordered); d is empty afterwards.
void release(DeviceContext& ctx, DeviceSystem& d) noexcept;

// One velocity-Verlet update after a force evaluation that left `partials` partial sums in
// d.force: for every real particle, F = the sum of the partials (in double, in order),
// v += kick * F, and then, if `drift`, x += dt v and the float positions are refreshed.
void launchUpdate(const Launch& launch, const DeviceSystem& d, std::size_t partials, double kick,
                   double dt, bool drift);
// d.gathered := the sums of the `partials` partial forces, per slot.
void launchGather(const Launch& launch, const DeviceSystem& d, std::size_t partials);

// Copies d.gathered (forces) or d.state (positions and velocities) back and waits; then stores
// them in the caller's order.
void downloadForces(DeviceContext& ctx, const DeviceSystem& d, std::vector<double>& fx,
                     std::vector<double>& fy, std::vector<double>& fz);
void downloadState(DeviceContext& ctx, const DeviceSystem& d, NBodySystem& s);

}  // namespace nbody
}  // namespace star::cuda
