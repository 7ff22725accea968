// The N-body system's device layout (NBodyDevice.h): building it on the host, one upload, the
// Verlet update and force gather kernels, and the copies back.
#include <cuda_runtime.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <iterator>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/kernels/DeviceLoops.cuh"
#include "runtime-cuda/kernels/NBodyDevice.h"

namespace star::cuda::nbody {
namespace {

constexpr double kMaxOffset = 0x1p40;  // farthest real position from the centre
constexpr float kDummyBase = 0x1p60f;  // dummies at (2^60 + q 2^40, 2^60, 2^60)
constexpr float kDummyStep = 0x1p40f;  // exact in float for q < 2^20
constexpr std::size_t kMaxDummies = std::size_t{1} << 20;
constexpr std::size_t kAlign = 256;  // bytes: each array of the block starts aligned

std::size_t roundUp(std::size_t x, std::size_t m) {
  return (x + m - 1) / m * m;
}

bool isIntExponent(double c2) {
  return std::find(std::begin(kIntExponents), std::end(kIntExponents), c2) !=
         std::end(kIntExponents);
}

// Single-precision form of a coefficient: 0 or a normal float (a denormal would be flushed).
bool normalFloat(double v) {
  return v == 0.0 || (std::fabs(v) >= FLT_MIN && std::fabs(v) <= FLT_MAX);
}

// c1^c2 length^(1 - c2), the integer path's repulsion coefficient in units of `length`.
double scaledPower(double c1, double c2, double length) {
  return std::pow(c1 / length, c2) * length;
}

// The kernels' choice of (c1 r)^c2 evaluation over the pairs of types that are present. The
// integer path needs c1^c2 L^(1 - c2) (the scaled coefficient, see upload) as a normal float.
Potential choosePotential(const NBodySystem& s, const std::vector<std::size_t>& count,
                           double length) {
  Potential p;
  const std::size_t nt = s.ntypes;
  bool first = true, same_int = true;
  double exponent = 0.0;
  for (std::size_t a = 0; a < nt; ++a) {
    for (std::size_t b = 0; b < nt; ++b) {
      if (count[a] == 0 || count[b] == 0) continue;
      const std::size_t k = a * nt + b;
      if (first) exponent = p.min_c2 = s.c2[k];
      first = false;
      const double power = std::pow(s.c1[k], s.c2[k]);
      if (std::isnan(power) || power < 0.0) p.signed_rep = true;
      const std::size_t kt = b * nt + a;
      if (s.c0[k] != s.c0[kt] || s.c1[k] != s.c1[kt] || s.c2[k] != s.c2[kt]) p.symmetric = false;
      p.min_c2 = std::min(p.min_c2, s.c2[k]);
      const double scaled = scaledPower(s.c1[k], s.c2[k], length);
      if (s.c2[k] != exponent || !normalFloat(scaled) || (scaled == 0.0 && s.c1[k] != 0.0))
        same_int = false;
    }
  }
  if (!first && same_int && isIntExponent(exponent)) p.exponent = static_cast<int>(exponent);
  return p;
}

// The coefficients of pair type k in the general form, for positions in units of `length`:
// (c1 r)^c2 R = sign 2^(b + h lg2(d'^2)) R' with d' = d / length, R' = R / length, h = -c2 / 2
// and b = c2 log2|c1| + (1 - c2) log2(length); c0 r^3 R = (c0 / length^2) r'^3 R'.
float4 generalCoef(const NBodySystem& s, std::size_t k, double length) {
  const double c0 = s.c0[k] / (length * length), c1 = s.c1[k], c2 = s.c2[k];
  if (c2 == 0.0) {  // x^0 = 1: R = length R'
    return make_float4(static_cast<float>(c0), static_cast<float>(std::log2(length)), 0.0f, 1.0f);
  }
  const double power = std::pow(c1, c2);
  const float sign = std::isnan(power) ? NAN : (power < 0.0 ? -1.0f : 1.0f);
  const double b = c2 * std::log2(std::fabs(c1)) + (1.0 - c2) * std::log2(length);
  return make_float4(static_cast<float>(c0), static_cast<float>(b), static_cast<float>(-0.5 * c2),
                     sign);
}

// Whether the values of s are ones the float kernels can take (see upload).
bool fitsSingle(const NBodySystem& s, const std::vector<std::size_t>& count,
                 const double (&center)[3], double length) {
  const std::vector<double>* coords[] = {&s.x, &s.y, &s.z};
  for (int c = 0; c < 3; ++c) {
    for (double v : *coords[c]) {
      if (!(std::fabs(v - center[c]) <= kMaxOffset * length)) return false;  // also NaN
    }
  }
  const std::size_t nt = s.ntypes;
  for (std::size_t a = 0; a < nt; ++a) {
    for (std::size_t b = 0; b < nt; ++b) {
      if (count[a] == 0 || count[b] == 0) continue;
      const std::size_t k = a * nt + b;
      // A nonzero c0 must not scale to 0 (or length^2 overflow): the Coulomb term would vanish.
      const double c0_scaled = s.c0[k] / (length * length);
      if (!std::isfinite(s.c0[k]) || !std::isfinite(length * length) ||
          !normalFloat(c0_scaled) || (s.c0[k] != 0 && c0_scaled == 0) ||
          !std::isfinite(s.c1[k]) || !std::isfinite(s.c2[k]))
        return false;
    }
  }
  return true;
}

// The kernels' length unit: a power of two near the mean spacing of the particles, so that
// r^3 and r^c2 stay within float range whatever units the caller uses (scaling by a power of two
// is exact).
double lengthUnit(const NBodySystem& s) {
  if (s.n < 2) return 1.0;
  double extent = 0.0;
  const std::vector<double>* coords[] = {&s.x, &s.y, &s.z};
  for (int c = 0; c < 3; ++c) {
    const auto [lo, hi] = std::minmax_element(coords[c]->begin(), coords[c]->end());
    extent = std::max(extent, *hi - *lo);
  }
  const double spacing = extent / std::cbrt(static_cast<double>(s.n));
  if (!(spacing > 0.0) || !std::isfinite(spacing)) return 1.0;
  return std::exp2(std::round(std::log2(spacing)));
}

__global__ void nbodyUpdateKernel(float4* __restrict__ pos, double* __restrict__ state,
                                    const double* __restrict__ force, std::size_t slots,
                                    std::size_t capacity, std::size_t partials, double kick,
                                    double dt, bool drift, double cx, double cy, double cz,
                                    double inv_length) {
  for (std::uint64_t s = globalThread(); s < slots; s += gridThreads()) {
    float4 p = pos[s];
    if (p.w == 0.0f) continue;  // a dummy stays where it is
    double x[3], f[3] = {0.0, 0.0, 0.0};
    for (std::size_t q = 0; q < partials; ++q) {
      for (int c = 0; c < 3; ++c) f[c] += force[(q * 3 + c) * capacity + s];
    }
    for (int c = 0; c < 3; ++c) {
      const double v = state[(3 + c) * slots + s] + kick * f[c];
      state[(3 + c) * slots + s] = v;
      x[c] = state[c * slots + s];
      if (drift) {
        x[c] += dt * v;
        state[c * slots + s] = x[c];
      }
    }
    if (drift) {
      p.x = static_cast<float>((x[0] - cx) * inv_length);
      p.y = static_cast<float>((x[1] - cy) * inv_length);
      p.z = static_cast<float>((x[2] - cz) * inv_length);
      pos[s] = p;
    }
  }
}

__global__ void nbodyGatherKernel(double* __restrict__ out, const double* __restrict__ force,
                                    std::size_t slots, std::size_t capacity, std::size_t partials) {
  for (std::uint64_t s = globalThread(); s < slots; s += gridThreads()) {
    for (int c = 0; c < 3; ++c) {
      double f = 0.0;
      for (std::size_t q = 0; q < partials; ++q) f += force[(q * 3 + c) * capacity + s];
      out[c * slots + s] = f;
    }
  }
}

}  // namespace

bool prepareUpload(const NBodySystem& s, UploadImage& image) {
  const std::size_t n = s.n, nt = s.ntypes;
  std::vector<std::size_t> count(nt, 0);
  for (std::size_t i = 0; i < n; ++i) ++count[s.type[i]];

  double center[3] = {0.0, 0.0, 0.0};
  const std::vector<double>* coords[] = {&s.x, &s.y, &s.z};
  for (int c = 0; c < 3 && n > 0; ++c) {
    const auto [lo, hi] = std::minmax_element(coords[c]->begin(), coords[c]->end());
    center[c] = 0.5 * *lo + 0.5 * *hi;
  }
  const double length = lengthUnit(s);
  if (!fitsSingle(s, count, center, length)) return false;

  // Slots: type after type, each padded to whole segments; then the i tail to whole spans.
  std::vector<std::size_t> first(nt + 1, 0);
  for (std::size_t t = 0; t < nt; ++t) first[t + 1] = first[t] + roundUp(count[t], kSegment);
  const std::size_t slots = first[nt];
  const std::size_t capacity = roundUp(std::max<std::size_t>(slots, 1), kSpan);
  if (capacity - n > kMaxDummies || capacity > (std::size_t{1} << 31)) return false;

  DeviceSystem out;
  out.n = n;
  out.slots = slots;
  out.capacity = capacity;
  out.ntypes = static_cast<std::uint32_t>(nt);
  out.potential = choosePotential(s, count, length);
  std::copy(std::begin(center), std::end(center), out.center);
  out.length = length;
  out.origin.assign(capacity, -1);

  // The whole block, laid out on the host and copied in one go.
  const std::size_t nseg = slots / kSegment;
  const std::size_t off_pos = 0;
  const std::size_t off_seg = off_pos + roundUp(capacity * sizeof(float4), kAlign);
  const std::size_t off_count = off_seg + roundUp(nseg * sizeof(std::uint32_t), kAlign);
  const std::size_t off_coef = off_count + roundUp(nseg * sizeof(std::uint32_t), kAlign);
  const std::size_t off_coef_int = off_coef + roundUp(nt * nt * sizeof(float4), kAlign);
  const std::size_t off_state = off_coef_int + roundUp(nt * nt * sizeof(float4), kAlign);
  const std::size_t off_gathered = off_state + roundUp(6 * slots * sizeof(double), kAlign);
  const std::size_t bytes = off_gathered + roundUp(3 * slots * sizeof(double), kAlign);
  std::vector<std::uint64_t> host(bytes / sizeof(std::uint64_t), 0);
  auto* base = reinterpret_cast<unsigned char*>(host.data());
  auto* pos = reinterpret_cast<float4*>(base + off_pos);
  auto* seg_type = reinterpret_cast<std::uint32_t*>(base + off_seg);
  auto* seg_count = reinterpret_cast<std::uint32_t*>(base + off_count);
  auto* coef = reinterpret_cast<float4*>(base + off_coef);
  auto* coef_int = reinterpret_cast<float4*>(base + off_coef_int);
  auto* state = reinterpret_cast<double*>(base + off_state);

  std::vector<std::size_t> next(first.begin(), first.end() - 1);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t slot = next[s.type[i]]++;
    out.origin[slot] = static_cast<std::int64_t>(i);
    pos[slot] = make_float4(static_cast<float>((s.x[i] - center[0]) / length),
                            static_cast<float>((s.y[i] - center[1]) / length),
                            static_cast<float>((s.z[i] - center[2]) / length), 1.0f);
    const double values[6] = {s.x[i], s.y[i], s.z[i], s.vx[i], s.vy[i], s.vz[i]};
    for (int c = 0; c < 6; ++c) state[c * slots + slot] = values[c];
  }
  std::size_t dummy = 0;
  for (std::size_t slot = 0; slot < capacity; ++slot) {
    if (out.origin[slot] >= 0) continue;
    pos[slot] = make_float4(kDummyBase + static_cast<float>(dummy++) * kDummyStep, kDummyBase,
                            kDummyBase, 0.0f);
  }
  for (std::size_t t = 0; t < nt; ++t) {
    for (std::size_t g = first[t] / kSegment; g < first[t + 1] / kSegment; ++g) {
      seg_type[g] = static_cast<std::uint32_t>(t);
      const std::size_t before = (g - first[t] / kSegment) * kSegment;
      seg_count[g] = static_cast<std::uint32_t>(std::min<std::size_t>(kSegment, count[t] - before));
    }
  }
  for (std::size_t k = 0; k < nt * nt; ++k) {
    coef[k] = generalCoef(s, k, length);
    const int m = out.potential.exponent;
    const double power = m > 0 ? scaledPower(s.c1[k], m, length) : 0.0;
    coef_int[k] = make_float4(static_cast<float>(s.c0[k] / (length * length)),
                              static_cast<float>(power), 0.0f, 0.0f);
  }

  image.offsets = {off_pos, off_seg, off_count, off_coef, off_coef_int, off_state, off_gathered};
  image.bytes = bytes;
  image.meta = std::move(out);
  image.host = std::move(host);
  return true;
}

void uploadImage(DeviceContext& ctx, const UploadImage& image, DeviceSystem& d) {
  DeviceSystem out = image.meta;
  const auto& o = image.offsets;
  out.block = ctx.allocate(image.bytes / sizeof(std::uint64_t));
  auto* dev = reinterpret_cast<unsigned char*>(out.block);
  out.pos = reinterpret_cast<float4*>(dev + o[0]);
  out.seg_type = reinterpret_cast<std::uint32_t*>(dev + o[1]);
  out.seg_count = reinterpret_cast<std::uint32_t*>(dev + o[2]);
  out.coef = reinterpret_cast<float4*>(dev + o[3]);
  out.coef_int = reinterpret_cast<float4*>(dev + o[4]);
  out.state = reinterpret_cast<double*>(dev + o[5]);
  out.gathered = reinterpret_cast<double*>(dev + o[6]);
  const cudaError_t err = cudaMemcpyAsync(out.block, image.host.data(), o[6],
                                          cudaMemcpyHostToDevice, ctx.stream());
  if (err != cudaSuccess) {
    ctx.release(out.block);
    check(err, "cudaMemcpyAsync (nbody upload)");
  }
  d = std::move(out);
}

bool upload(DeviceContext& ctx, const NBodySystem& s, DeviceSystem& d) {
  UploadImage image;
  if (!prepareUpload(s, image)) return false;
  uploadImage(ctx, image, d);
  return true;
}

void release(DeviceContext& ctx, DeviceSystem& d) noexcept {
  ctx.release(d.block);
  ctx.release(reinterpret_cast<std::uint64_t*>(d.force));
  d = DeviceSystem{};
}

void launchUpdate(const Launch& launch, const DeviceSystem& d, std::size_t partials, double kick,
                   double dt, bool drift) {
  if (d.slots == 0) return;
  nbodyUpdateKernel<<<gridFor(launch, d.slots), kBlockThreads, 0, launch.stream>>>(
      d.pos, d.state, d.force, d.slots, d.capacity, partials, kick, dt, drift, d.center[0],
      d.center[1], d.center[2], 1.0 / d.length);
  checkLaunch("nbody_update_kernel");
}

void launchGather(const Launch& launch, const DeviceSystem& d, std::size_t partials) {
  if (d.slots == 0) return;
  nbodyGatherKernel<<<gridFor(launch, d.slots), kBlockThreads, 0, launch.stream>>>(
      d.gathered, d.force, d.slots, d.capacity, partials);
  checkLaunch("nbody_gather_kernel");
}

void downloadForces(DeviceContext& ctx, const DeviceSystem& d, std::vector<double>& fx,
                     std::vector<double>& fy, std::vector<double>& fz) {
  std::vector<double> host(3 * d.slots);
  if (d.slots > 0) {
    check(cudaMemcpyAsync(host.data(), d.gathered, host.size() * sizeof(double),
                          cudaMemcpyDeviceToHost, ctx.stream()),
          "cudaMemcpyAsync (nbody forces)");
  }
  ctx.synchronize();
  fx.assign(d.n, 0.0);
  fy.assign(d.n, 0.0);
  fz.assign(d.n, 0.0);
  for (std::size_t slot = 0; slot < d.slots; ++slot) {
    const std::int64_t i = d.origin[slot];
    if (i < 0) continue;
    fx[i] = host[slot];
    fy[i] = host[d.slots + slot];
    fz[i] = host[2 * d.slots + slot];
  }
}

void downloadState(DeviceContext& ctx, const DeviceSystem& d, NBodySystem& s) {
  std::vector<double> host(6 * d.slots);
  if (d.slots > 0) {
    check(cudaMemcpyAsync(host.data(), d.state, host.size() * sizeof(double),
                          cudaMemcpyDeviceToHost, ctx.stream()),
          "cudaMemcpyAsync (nbody state)");
  }
  ctx.synchronize();
  std::vector<double>* fields[] = {&s.x, &s.y, &s.z, &s.vx, &s.vy, &s.vz};
  for (std::size_t slot = 0; slot < d.slots; ++slot) {
    const std::int64_t i = d.origin[slot];
    if (i < 0) continue;
    for (int c = 0; c < 6; ++c) (*fields[c])[i] = host[c * d.slots + slot];
  }
}

}  // namespace star::cuda::nbody
