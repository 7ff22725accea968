// Tests of unit nbody (stdlib/nbody.star, docs/STDLIB.md "unit nbody"):
//  * the CPU reference (double): two bodies against the closed form, forces against minus the
//    gradient of the documented potential (central differences), Newton's third law, velocity
//    Verlet against a plain loop over the same forces, momentum and energy conservation;
//  * the Star level: natives against the Star bodies (forces, Verlet steps, energy) on random
//    systems of 24..96 particles, NB_CRYSTAL against an independent construction, NB_ENERGY
//    against the potential computed here, and bad tables (errors from the body, natives on or off);
//  * the GPU (skipped without one): single-precision forces of every kernel variant against the
//    double reference, per particle (see kForceTolerance), Verlet against the reference, momentum
//    and energy conservation, and the systems the GPU declines.
// Every expected value comes from a computation in this file or from the CPU reference, never
// from the code under test itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "runtime-cpu/CpuBackend.h"
#include "runtime-cpu/NBodyReference.h"
#include "tests/unit/support/StarTestUtil.h"
#include "vm/backend/NBodySystem.h"
#include "vm/backend/NativeKernels.h"

#ifdef STAR_HAVE_CUDA
#include "runtime-cuda/CudaBackend.h"
#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/kernels/NBodyDevice.h"
#include "runtime-cuda/kernels/NBodyForces.h"
#endif

namespace {

using star::NBodySystem;

// ---- systems ---------------------------------------------------------------------------------

// Pair coefficients from per-type charges (c0 = q_a q_b), one repulsion length c1 and one
// exponent c2 for all pairs.
void setIonic(NBodySystem& s, const std::vector<double>& charge, double c1, double c2) {
  const std::size_t nt = charge.size();
  s.ntypes = static_cast<std::uint32_t>(nt);
  s.c0.assign(nt * nt, 0.0);
  s.c1.assign(nt * nt, c1);
  s.c2.assign(nt * nt, c2);
  for (std::size_t a = 0; a < nt; ++a)
    for (std::size_t b = 0; b < nt; ++b) s.c0[a * nt + b] = charge[a] * charge[b];
}

// n particles of random types, uniform in a cube whose side gives a mean spacing `spacing`, no
// two closer than `closest`; velocities uniform in [-vmax, vmax].
NBodySystem randomSystem(std::mt19937_64& rng, std::size_t n, std::uint32_t ntypes,
                          double spacing = 2.5, double closest = 1.8, double vmax = 0.3) {
  NBodySystem s;
  s.n = n;
  s.ntypes = ntypes;
  const double side = spacing * std::cbrt(static_cast<double>(n));
  std::uniform_real_distribution<double> pos(-0.5 * side, 0.5 * side), vel(-vmax, vmax);
  std::uniform_int_distribution<std::uint32_t> type(0, ntypes - 1);
  while (s.x.size() < n) {
    const double x = pos(rng), y = pos(rng), z = pos(rng);
    bool free = true;
    for (std::size_t j = 0; j < s.x.size() && free; ++j) {
      const double dx = x - s.x[j], dy = y - s.y[j], dz = z - s.z[j];
      free = dx * dx + dy * dy + dz * dz >= closest * closest;
    }
    if (!free) continue;
    s.x.push_back(x);
    s.y.push_back(y);
    s.z.push_back(z);
    s.vx.push_back(vel(rng));
    s.vy.push_back(vel(rng));
    s.vz.push_back(vel(rng));
    s.type.push_back(type(rng));
  }
  return s;
}

NBodySystem exampleCrystal(int cells) {
  // Built in C++ (star::cpu::fluoriteCrystal), independently of NB_CRYSTAL's Star code.
  NBodySystem s = star::cpu::fluoriteCrystal(cells, 5.5);
  setIonic(s, {2.0, -1.0}, 1.75, 12.0);
  return s;
}

// ---- physics computed here ---------------------------------------------------------------------

struct Vec {
  double x = 0, y = 0, z = 0;
};

// The force of j on i, and its magnitude (the documented formula, with std::pow).
Vec pairForce(const NBodySystem& s, std::size_t i, std::size_t j) {
  const double dx = s.x[i] - s.x[j], dy = s.y[i] - s.y[j], dz = s.z[i] - s.z[j];
  const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
  const std::size_t k = s.type[i] * s.ntypes + s.type[j];
  const double f = s.c0[k] / (d * d * d) + std::pow(s.c1[k] / d, s.c2[k]);
  return {dx * f, dy * f, dz * f};
}

double norm(const Vec& v) {
  return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}

// S_i = sum over j of |F_ij|: the scale of the round-off in F_i.
std::vector<double> pairForceSums(const NBodySystem& s) {
  std::vector<double> sum(s.n, 0.0);
  for (std::size_t i = 0; i < s.n; ++i)
    for (std::size_t j = 0; j < s.n; ++j)
      if (j != i) sum[i] += norm(pairForce(s, i, j));
  return sum;
}

// U(d) of pair type k (docs/STDLIB.md): c0 / d + (c1 / d)^c2 d^2 / (c2 - 2), or c0 / d - c1^2 ln d.
double pairPotential(const NBodySystem& s, std::size_t k, double d) {
  if (s.c2[k] == 2.0) return s.c0[k] / d - s.c1[k] * s.c1[k] * std::log(d);
  return s.c0[k] / d + std::pow(s.c1[k] / d, s.c2[k]) * d * d / (s.c2[k] - 2.0);
}

double potentialEnergy(const NBodySystem& s) {
  double u = 0.0;
  for (std::size_t i = 0; i < s.n; ++i)
    for (std::size_t j = i + 1; j < s.n; ++j) {
      const double dx = s.x[i] - s.x[j], dy = s.y[i] - s.y[j], dz = s.z[i] - s.z[j];
      u += pairPotential(s, s.type[i] * s.ntypes + s.type[j],
                          std::sqrt(dx * dx + dy * dy + dz * dz));
    }
  return u;
}

double kineticEnergy(const NBodySystem& s) {
  double k = 0.0;
  for (std::size_t i = 0; i < s.n; ++i)
    k += 0.5 * (s.vx[i] * s.vx[i] + s.vy[i] * s.vy[i] + s.vz[i] * s.vz[i]);
  return k;
}

Vec momentum(const NBodySystem& s) {
  Vec p;
  for (std::size_t i = 0; i < s.n; ++i) {
    p.x += s.vx[i];
    p.y += s.vy[i];
    p.z += s.vz[i];
  }
  return p;
}

struct Forces {
  std::vector<double> x, y, z;
  Vec at(std::size_t i) const { return {x[i], y[i], z[i]}; }
};

Forces forcesOn(star::Backend& backend, const NBodySystem& s) {
  Forces f;
  EXPECT_TRUE(backend.nativeKernels()->nbodyForces(s, f.x, f.y, f.z)) << backend.name();
  return f;
}

// ---- CPU reference ---------------------------------------------------------------------------

class NBodyCpu : public ::testing::Test {
 protected:
  std::unique_ptr<star::Backend> cpu = star::makeCpuBackend();
  std::mt19937_64 rng{20261122};
};

// Two particles on the x axis at distance d: F_0 = -(c0 / d^2 + c1^c2 d^(1 - c2)) x (the pair
// (type 0, type 1)), F_1 the same with the coefficients of (type 1, type 0).
TEST_F(NBodyCpu, TwoBodiesMatchTheClosedForm) {
  for (double c2 : {12.0, 9.0, 7.5, 2.0, 0.0}) {
    NBodySystem s;
    s.n = 2;
    s.ntypes = 2;
    s.type = {0, 1};
    s.x = {1.0, 1.0 + 2.5};
    s.y = {-2.0, -2.0};
    s.z = {0.5, 0.5};
    s.vx = s.vy = s.vz = {0.0, 0.0};
    s.c0 = {4.0, -2.0, -1.5, 1.0};  // deliberately not symmetric: each particle its own row
    s.c1 = {1.0, 1.75, 1.5, 1.0};
    s.c2 = {c2, c2, c2, c2};
    const Forces f = forcesOn(*cpu, s);
    const double d = 2.5;
    const double on0 = -(-2.0 / (d * d) + std::pow(1.75, c2) * std::pow(d, 1.0 - c2));
    const double on1 = -1.5 / (d * d) + std::pow(1.5, c2) * std::pow(d, 1.0 - c2);
    EXPECT_NEAR(f.x[0], on0, 1e-14 * std::fabs(on0)) << "c2 " << c2;
    EXPECT_NEAR(f.x[1], on1, 1e-14 * std::fabs(on1)) << "c2 " << c2;
    EXPECT_EQ(f.y[0], 0.0);
    EXPECT_EQ(f.z[1], 0.0);
  }
}

// F_i = -grad_i U (central differences of the potential computed here, step 1e-6).
TEST_F(NBodyCpu, ForcesAreMinusTheGradientOfThePotential) {
  for (double c2 : {12.0, 9.5, 2.0}) {
    NBodySystem s = randomSystem(rng, 30, 3);
    setIonic(s, {2.0, -1.0, 1.0}, 1.75, c2);
    const Forces f = forcesOn(*cpu, s);
    const double h = 1e-6;
    for (std::size_t i = 0; i < s.n; i += 7) {
      std::vector<double>* coords[] = {&s.x, &s.y, &s.z};
      const double analytic[] = {f.x[i], f.y[i], f.z[i]};
      for (int c = 0; c < 3; ++c) {
        const double keep = (*coords[c])[i];
        (*coords[c])[i] = keep + h;
        const double up = potentialEnergy(s);
        (*coords[c])[i] = keep - h;
        const double down = potentialEnergy(s);
        (*coords[c])[i] = keep;
        const double numeric = -(up - down) / (2 * h);
        EXPECT_NEAR(analytic[c], numeric, 1e-6 * (1.0 + std::fabs(numeric)))
            << "c2 " << c2 << ", particle " << i << ", axis " << c;
      }
    }
  }
}

// Symmetric coefficients: the forces sum to zero (to round-off).
TEST_F(NBodyCpu, ForcesObeyNewtonsThirdLaw) {
  NBodySystem s = randomSystem(rng, 200, 2);
  setIonic(s, {2.0, -1.0}, 1.75, 12.0);
  const Forces f = forcesOn(*cpu, s);
  const std::vector<double> scale = pairForceSums(s);
  double total_scale = 0.0;
  Vec sum;
  for (std::size_t i = 0; i < s.n; ++i) {
    sum.x += f.x[i];
    sum.y += f.y[i];
    sum.z += f.z[i];
    total_scale += scale[i];
  }
  EXPECT_LE(norm(sum), 1e-14 * total_scale);
}

// nbodyVerlet is exactly the velocity-Verlet loop written here over nbodyForces.
TEST_F(NBodyCpu, VerletIsVelocityVerlet) {
  NBodySystem s = randomSystem(rng, 40, 2);
  setIonic(s, {2.0, -1.0}, 1.75, 9.0);
  NBodySystem mine = s;
  const double dt = 0.01, half = 0.5 * dt;
  const int steps = 7;
  Forces f = forcesOn(*cpu, mine);
  for (int step = 0; step < steps; ++step) {
    for (std::size_t i = 0; i < mine.n; ++i) {
      mine.vx[i] += half * f.x[i];
      mine.vy[i] += half * f.y[i];
      mine.vz[i] += half * f.z[i];
      mine.x[i] += dt * mine.vx[i];
      mine.y[i] += dt * mine.vy[i];
      mine.z[i] += dt * mine.vz[i];
    }
    f = forcesOn(*cpu, mine);
    for (std::size_t i = 0; i < mine.n; ++i) {
      mine.vx[i] += half * f.x[i];
      mine.vy[i] += half * f.y[i];
      mine.vz[i] += half * f.z[i];
    }
  }
  ASSERT_TRUE(cpu->nativeKernels()->nbodyVerlet(s, dt, steps));
  EXPECT_EQ(s.x, mine.x);
  EXPECT_EQ(s.vz, mine.vz);
  EXPECT_EQ(s.type, mine.type);
  // Zero steps change nothing.
  NBodySystem same = s;
  ASSERT_TRUE(cpu->nativeKernels()->nbodyVerlet(same, dt, 0));
  EXPECT_EQ(same.x, s.x);
  EXPECT_EQ(same.vx, s.vx);
}

// Empty systems and single particles: no forces, nothing moves but by its velocity.
TEST_F(NBodyCpu, EmptyAndSingleParticle) {
  NBodySystem empty;
  setIonic(empty, {1.0}, 1.0, 12.0);
  Forces f = forcesOn(*cpu, empty);
  EXPECT_TRUE(f.x.empty());
  NBodySystem one = randomSystem(rng, 1, 1);
  setIonic(one, {1.0}, 1.0, 12.0);
  f = forcesOn(*cpu, one);
  ASSERT_EQ(f.x.size(), 1u);
  EXPECT_EQ(f.x[0], 0.0);
  const double x0 = one.x[0], v0 = one.vx[0];
  ASSERT_TRUE(cpu->nativeKernels()->nbodyVerlet(one, 0.5, 4));
  EXPECT_DOUBLE_EQ(one.x[0], x0 + 4 * 0.5 * v0);
}

// Momentum over 2000 steps of a random system with velocities: conserved to round-off.
TEST_F(NBodyCpu, VerletConservesMomentum) {
  NBodySystem s = randomSystem(rng, 100, 2);
  setIonic(s, {2.0, -1.0}, 1.75, 12.0);
  const Vec p0 = momentum(s);
  ASSERT_TRUE(cpu->nativeKernels()->nbodyVerlet(s, 0.01, 2000));
  const Vec p = momentum(s);
  EXPECT_LE(norm({p.x - p0.x, p.y - p0.y, p.z - p0.z}), 1e-11);
}

// The energy of the 324-particle crystal of examples/nbody/crystal.star over 1000 steps of
// dt = 0.01 (t = 10, while the crystal's polar surfaces rebuild and the kinetic energy rises from
// 0 to about 40: close encounters, the hardest part of the run). Velocity Verlet keeps the energy
// error bounded, O(dt^2), with no drift: measured on the CPU reference, sampled every 10 steps,
// max |E(t) - E(0)| / |E(0)| = 5.4e-5 (2.2e-4 with dt = 0.02); the bound is 2e-4.
constexpr double kCrystalEnergyBound = 2e-4;

double crystalEnergyDrift(star::Backend& backend) {
  NBodySystem s = exampleCrystal(3);
  const double e0 = kineticEnergy(s) + potentialEnergy(s);
  double worst = 0.0;
  for (int chunk = 0; chunk < 100; ++chunk) {
    EXPECT_TRUE(backend.nativeKernels()->nbodyVerlet(s, 0.01, 10));
    const double e = kineticEnergy(s) + potentialEnergy(s);
    worst = std::max(worst, std::fabs(e - e0) / std::fabs(e0));
  }
  EXPECT_GT(kineticEnergy(s), 10.0);  // the crystal did move
  return worst;
}

TEST_F(NBodyCpu, CrystalEnergyIsConserved) {
  const double drift = crystalEnergyDrift(*cpu);
  EXPECT_LE(drift, kCrystalEnergyBound);
  RecordProperty("max_relative_energy_error", std::to_string(drift));
}

// ---- Star level: natives and bodies ----------------------------------------------------------


std::string realText(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string particleText(const NBodySystem& s) {
  std::string out;
  for (std::size_t i = 0; i < s.n; ++i) {
    out += std::to_string(s.type[i]);
    for (double v : {s.x[i], s.y[i], s.z[i], s.vx[i], s.vy[i], s.vz[i]}) {
      out += ' ';
      out += realText(v);
    }
    out += '\n';
  }
  return out;
}

std::string coefText(const NBodySystem& s) {
  std::string out;
  for (std::size_t k = 0; k < s.c0.size(); ++k) {
    for (double v : {s.c0[k], s.c1[k], s.c2[k]}) {
      out += realText(v);
      out += ' ';
    }
    out += '\n';
  }
  return out;
}

// The rows of a numeric text file of reals (SAVENUM output), or of a particle file.
std::vector<std::vector<double>> readRows(const std::string& path) {
  std::istringstream in(startest::readFile(path));
  std::vector<std::vector<double>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::vector<double> row;
    std::string token;
    while (fields >> token) row.push_back(std::stod(token));
    if (!row.empty()) rows.push_back(row);
  }
  return rows;
}

// Args: P file, C file, and the files for the forces, the state after 3 Verlet steps of 0.01,
// and the energy.
const char* kDriver = R"(program NBodyDriver;
uses nbody;
var P, C, F, E: table;
begin
  LOADNUM(P, ParamStr(1), 'u8 f64 f64 f64 f64 f64 f64');
  LOADNUM(C, ParamStr(2), 'f64 f64 f64');
  NB_FORCES(P, C, F);
  SAVENUM(F, ParamStr(3), 'f64 f64 f64');
  NB_VERLET(P, C, 0.01, 3);
  SAVENUM(P, ParamStr(4), 'u8 f64 f64 f64 f64 f64 f64');
  NB_ENERGY(P, C, E);
  SAVENUM(E, ParamStr(5), 'f64 f64 f64 f64 f64')
end.
)";

struct DriverRun {
  std::vector<std::vector<double>> forces, state, energy;
  std::uint64_t native_calls = 0;
  std::string backend;
};

DriverRun runDriver(const startest::TempDir& dir, const startest::Compiled& c,
                     const NBodySystem& s, bool natives, const std::string& tag) {
  const std::string p = dir.write(tag + ".p", particleText(s));
  const std::string cf = dir.write(tag + ".c", coefText(s));
  const std::string out = dir.file(tag);
  startest::Vm vm;
  vm.interp.enableNatives(natives);
  const startest::RunResult r =
      vm.run(c.module, {p, cf, out + ".forces", out + ".state", out + ".energy"});
  EXPECT_FALSE(r.error) << *r.error;
  DriverRun d;
  if (r.error) return d;
  d.forces = readRows(out + ".forces");
  d.state = readRows(out + ".state");
  d.energy = readRows(out + ".energy");
  d.native_calls = vm.interp.nativeCalls();
  d.backend = vm.backend->name();
  return d;
}

// The largest |a - b| over the rows, and the largest |b|.
struct Gap {
  double diff = 0.0, scale = 0.0;
};
Gap gap(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b,
        std::size_t first_col = 0) {
  Gap g;
  EXPECT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    EXPECT_EQ(a[i].size(), b[i].size());
    for (std::size_t k = first_col; k < std::min(a[i].size(), b[i].size()); ++k) {
      g.diff = std::max(g.diff, std::fabs(a[i][k] - b[i][k]));
      g.scale = std::max(g.scale, std::fabs(b[i][k]));
    }
  }
  return g;
}

// Natives and bodies agree: forces, positions and velocities after three Verlet steps, energy
// and momentum, on random systems of 24..96 particles (two and three types, integer and general
// exponents). On the CPU both are double precision and differ only by rounding (std::pow against
// multiplications): 1e-12 of the largest value. On a GPU (STAR_TEST_BACKEND=cuda) the native
// forces are single precision: 1e-4.
TEST(NBodyStar, NativesAgreeWithTheBodies) {
  startest::TempDir dir;
  const startest::Compiled c = startest::compileWithStdlib(dir, kDriver);
  ASSERT_TRUE(c.ok) << c.diagnostics;
  std::mt19937_64 rng(7);
  int trial = 0;
  for (std::size_t n : {24u, 48u, 96u}) {
    for (double c2 : {12.0, 9.5}) {
      SCOPED_TRACE(::testing::Message() << "n " << n << ", c2 " << c2);
      NBodySystem s = randomSystem(rng, n, n == 48 ? 3 : 2);
      setIonic(s, n == 48 ? std::vector<double>{2.0, -1.0, -1.0} : std::vector<double>{2.0, -1.0},
                1.75, c2);
      const std::string tag = "t" + std::to_string(trial++);
      const DriverRun native = runDriver(dir, c, s, true, tag + "n");
      const DriverRun body = runDriver(dir, c, s, false, tag + "b");
      EXPECT_EQ(native.native_calls, 3u);
      EXPECT_EQ(body.native_calls, 0u);
      const double tol = native.backend == "cuda" ? 1e-4 : 1e-12;
      const Gap f = gap(native.forces, body.forces);
      EXPECT_LE(f.diff, tol * f.scale);
      const Gap x = gap(native.state, body.state, 1);
      EXPECT_LE(x.diff, tol * x.scale);
      const Gap e = gap(native.energy, body.energy);
      EXPECT_LE(e.diff, tol * e.scale);
      // The native forces are the backend's, through the tables: on the CPU bit for bit.
      if (native.backend == "cpu") {
        auto cpu = star::makeCpuBackend();
        const Forces ref = forcesOn(*cpu, s);
        ASSERT_EQ(native.forces.size(), n);
        for (std::size_t i = 0; i < n; ++i) {
          EXPECT_EQ(native.forces[i][0], ref.x[i]);
          EXPECT_EQ(native.forces[i][2], ref.z[i]);
        }
      }
      // The body's energy is the one computed here.
      ASSERT_EQ(body.energy.size(), 1u);
      NBodySystem moved = s;
      for (std::size_t i = 0; i < n; ++i) {
        moved.x[i] = body.state[i][1];
        moved.y[i] = body.state[i][2];
        moved.z[i] = body.state[i][3];
        moved.vx[i] = body.state[i][4];
        moved.vy[i] = body.state[i][5];
        moved.vz[i] = body.state[i][6];
      }
      const double u = potentialEnergy(moved);
      EXPECT_NEAR(body.energy[0][0], kineticEnergy(moved), 1e-12 * kineticEnergy(moved));
      EXPECT_NEAR(body.energy[0][1], u, 1e-12 * std::fabs(u));
      const Vec p = momentum(moved);
      EXPECT_NEAR(body.energy[0][2], p.x, 1e-12);
      EXPECT_NEAR(body.energy[0][4], p.z, 1e-12);
    }
  }
}

// NB_CRYSTAL builds the crystal constructed here, value for value; NB_ENERGY of it (native) is
// the potential computed here.
TEST(NBodyStar, CrystalIsTheFluoriteLikeCrystal) {
  startest::TempDir dir;
  const startest::Compiled ok = startest::compileWithStdlib(dir, R"(program Cr;
uses nbody;
var P, E: table; C: table(4, 192);
begin
  NB_CRYSTAL(2, 5.5, P);
  SAVENUM(P, ParamStr(1), 'u8 f64 f64 f64 f64 f64 f64');
  NB_COEF(C, 0, 0, 4.0, 1.75, 12.0);
  NB_COEF(C, 0, 1, -2.0, 1.75, 12.0);
  NB_COEF(C, 1, 1, 1.0, 1.75, 12.0);
  NB_ENERGY(P, C, E);
  SAVENUM(E, ParamStr(2), 'f64 f64 f64 f64 f64')
end.
)");
  ASSERT_TRUE(ok.ok) << ok.diagnostics;
  startest::Vm vm;
  const startest::RunResult r = vm.run(ok.module, {dir.file("p"), dir.file("e")});
  ASSERT_FALSE(r.error) << *r.error;
  const NBodySystem want = exampleCrystal(2);
  const auto rows = readRows(dir.file("p"));
  ASSERT_EQ(rows.size(), want.n);
  for (std::size_t i = 0; i < want.n; ++i) {
    const std::vector<double> expect = {
        static_cast<double>(want.type[i]), want.x[i], want.y[i], want.z[i], 0.0, 0.0, 0.0};
    EXPECT_EQ(rows[i], expect) << "particle " << i;
  }
  const auto e = readRows(dir.file("e"));
  ASSERT_EQ(e.size(), 1u);
  const double u = potentialEnergy(want);
  EXPECT_NEAR(e[0][1], u, 1e-12 * std::fabs(u));
  EXPECT_EQ(e[0][0], 0.0);
}

// Bad tables are errors reported by the body, with natives on or off alike.
TEST(NBodyStar, BadTablesAreErrors) {
  struct Case {
    const char* setup;  // declarations and statements before the call
    const char* call;
    const char* error;
  };
  const Case cases[] = {
      {"P: table(2, 391); C: table(1, 192); F: table;", "NB_FORCES(P, C, F)",
       "nbody: P must have 392 columns"},
      {"P: table(2, 392); C: table(1, 191); F: table;", "NB_FORCES(P, C, F)",
       "nbody: C must have 192 columns"},
      {"P: table(2, 392); C: table(3, 192); F: table;", "NB_VERLET(P, C, 0.1, 0)",
       "nbody: ROWS(C) must be ntypes^2"},
      {"P: table(3, 392); C: table(4, 192); F: table;",
       "NB_COEF(C, 0, 0, 1.0, 1.0, 12.0); NB_COEF(C, 0, 1, 1.0, 1.0, 12.0); "
       "NB_COEF(C, 1, 1, 1.0, 1.0, 12.0); REP(7, 7, %1, w); ROW(2, P) := w; NB_FORCES(P, C, F)",
       "nbody: a type is not below ntypes"},
      {"P: table(2, 392); C: table(1, 192); F: table(2, 10);", "NB_FORCES(P, C, F)",
       "size mismatch: cannot store a 2 x 192 table in a variable of 2 x 10"},
      {"P: table(2, 392); C: table(1, 192); F: table(2, 320);", "NB_ENERGY(P, C, F)",
       "size mismatch: cannot store a 1 x 320 table in a variable of 2 x 320"},
  };
  startest::TempDir dir;
  for (const Case& k : cases) {
    const std::string source = std::string("program Bad; uses nbody; var w: word(392); ") +
                               k.setup + " begin " + k.call + " end.";
    const startest::Compiled c = startest::compileWithStdlib(dir, source);
    ASSERT_TRUE(c.ok) << source << "\n" << c.diagnostics;
    for (bool natives : {true, false}) {
      startest::Vm vm;
      vm.interp.enableNatives(natives);
      const startest::RunResult r = vm.run(c.module);
      ASSERT_TRUE(r.error) << source;
      EXPECT_EQ(*r.error, k.error) << source;
      EXPECT_EQ(vm.interp.nativeCalls(), 0u) << source;
    }
  }
}

// ---- GPU -------------------------------------------------------------------------------------

#ifdef STAR_HAVE_CUDA

// Single-precision forces against the double reference, per particle: |F_gpu - F_ref| <=
// kForceTolerance * max(|F_ref|, kCancellation * S) with S = sum over j of |F_ij|. The second
// term only matters where the pair forces cancel to less than 0.1% of their sum (a particle in a
// symmetric site), where float round-off of the pair forces, 1e-7 of S, is all one can ask.
constexpr double kForceTolerance = 1e-4;
constexpr double kCancellation = 1e-3;

// The worst ratio |F_gpu - F_ref| / max(|F_ref|, kCancellation S) over the particles.
double worstForceError(const NBodySystem& s, const Forces& ref, const Forces& gpu) {
  const std::vector<double> sums = pairForceSums(s);
  double worst = 0.0;
  for (std::size_t i = 0; i < s.n; ++i) {
    const Vec d{gpu.x[i] - ref.x[i], gpu.y[i] - ref.y[i], gpu.z[i] - ref.z[i]};
    const double scale = std::max(norm(ref.at(i)), kCancellation * sums[i]);
    worst = std::max(worst, scale > 0 ? norm(d) / scale : norm(d));
  }
  return worst;
}

class NBodyGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!star::cudaBackendAvailable(&why)) GTEST_SKIP() << "no usable CUDA device: " << why;
    gpu = star::makeCudaBackend();
  }

  // Forces by one kernel variant through the device API (NBodyForces.h).
  Forces variant(const NBodySystem& s, const star::cuda::nbody::ForceOptions& options) {
    star::cuda::DeviceContext ctx;
    star::cuda::nbody::DeviceSystem d;
    Forces f;
    EXPECT_TRUE(star::cuda::nbody::upload(ctx, s, d));
    const auto plan = star::cuda::nbody::planForces(ctx, d, options);
    star::cuda::nbody::launchForces(ctx.launch(), d, plan);
    star::cuda::nbody::launchGather(ctx.launch(), d, plan.partials);
    star::cuda::nbody::downloadForces(ctx, d, f.x, f.y, f.z);
    star::cuda::nbody::release(ctx, d);
    return f;
  }

  // Every variant of the kernels on s against the reference.
  void checkAllVariants(const NBodySystem& s, const std::string& what) {
    const Forces ref = forcesOn(*cpu, s);
    const Forces main = forcesOn(*gpu, s);
    double worst = worstForceError(s, ref, main);
    EXPECT_LE(worst, kForceTolerance) << what << ": backend";
    using star::cuda::nbody::ForceOptions;
    using star::cuda::nbody::PairLoop;
    for (PairLoop loop : {PairLoop::Square, PairLoop::Triangular}) {
      for (bool poly : {false, true}) {
        for (bool general : {false, true}) {
          ForceOptions o;
          o.loop = loop;
          o.poly_exp2 = poly;
          o.general = general;
          const double err = worstForceError(s, ref, variant(s, o));
          worst = std::max(worst, err);
          EXPECT_LE(err, kForceTolerance)
              << what << ": " << (loop == PairLoop::Square ? "square" : "triangular")
              << (poly ? ", poly exp2" : "") << (general ? ", general path" : "");
        }
      }
    }
    RecordProperty("worst relative force error, " + what, std::to_string(worst));
  }

  std::unique_ptr<star::Backend> cpu = star::makeCpuBackend();
  std::unique_ptr<star::Backend> gpu;
  std::mt19937_64 rng{99};
};

// Integer exponents (the specialised kernels), sizes around the segment (32) and span (256)
// boundaries and beyond, two and three types.
TEST_F(NBodyGpu, IntegerExponentForcesMatchTheReference) {
  for (std::size_t n : {1u, 2u, 3u, 31u, 32u, 33u, 100u, 255u, 257u, 1000u, 4099u}) {
    NBodySystem s = randomSystem(rng, n, 2);
    setIonic(s, {2.0, -1.0}, 1.75, 12.0);
    checkAllVariants(s, "c2 = 12, n = " + std::to_string(n));
  }
  for (double c2 : {6.0, 8.0, 9.0, 10.0}) {
    NBodySystem s = randomSystem(rng, 700, 3);
    setIonic(s, {2.0, -1.0, 1.0}, 1.75, c2);
    checkAllVariants(s, "c2 = " + std::to_string(c2));
  }
}

// General exponents: non-integers, integers outside the specialised set, mixed exponents, a
// negative c1 with odd exponents (the signed path), c1 = 0 (pure Coulomb) and c2 = 0.
TEST_F(NBodyGpu, GeneralExponentForcesMatchTheReference) {
  for (std::size_t n : {5u, 300u, 2048u}) {
    NBodySystem s = randomSystem(rng, n, 3);
    setIonic(s, {2.0, -1.0, -1.0}, 1.75, 9.5);
    for (std::size_t k = 0; k < 9; ++k) s.c2[k] = 9.0 + 0.25 * static_cast<double>(k);
    for (std::size_t k = 0; k < 9; ++k) s.c1[k] = 1.5 + 0.05 * static_cast<double>(k);
    checkAllVariants(s, "mixed exponents, n = " + std::to_string(n));
  }
  NBodySystem s = randomSystem(rng, 500, 2);
  setIonic(s, {2.0, -1.0}, 1.75, 7.0);  // 7 is not specialised
  checkAllVariants(s, "c2 = 7");
  s.c1 = {1.75, -1.6, -1.6, 1.9};  // (-1.6 r)^7 < 0: the signed path
  checkAllVariants(s, "negative c1");
  s.c2 = {12.0, 0.0, 0.0, 11.5};
  s.c1 = {0.0, 1.0, 1.0, 1.75};  // pure Coulomb; R (c1 r)^0 = R
  checkAllVariants(s, "c1 = 0, c2 = 0");
}

// Many types (every segment padded), and a system in SI units (metres, coulombs and joules:
// forces of 1e-9 N), which the kernels take in units of their own.
TEST_F(NBodyGpu, ManyTypesAndOtherUnits) {
  NBodySystem s = randomSystem(rng, 300, 40);
  std::vector<double> charge(40);
  for (int t = 0; t < 40; ++t) charge[t] = (t % 2 ? -1.0 : 1.0) * (1.0 + 0.1 * t);
  setIonic(s, charge, 1.75, 12.0);
  checkAllVariants(s, "40 types");
  NBodySystem si = randomSystem(rng, 400, 2);
  for (std::size_t i = 0; i < si.n; ++i) {
    si.x[i] *= 1e-10;
    si.y[i] *= 1e-10;
    si.z[i] *= 1e-10;
  }
  const double e2k = 2.307e-28;  // e^2 / (4 pi eps0), J m
  setIonic(si, {2.0, -1.0}, 1.0, 12.0);
  for (double& c0 : si.c0) c0 *= e2k;
  // (c1 r)^12 R in newtons: c1 = 1.75 A times (the force unit e^2/A^2 in N times 1e-110)^(1/12).
  for (double& c1 : si.c1) c1 = 1.75 * std::pow(e2k * 1e-90, 1.0 / 12.0);
  checkAllVariants(si, "SI units");
}

// What single precision cannot take is declined (the Star body then runs): NaN positions,
// coefficients beyond float range. n = 0 gives no forces.
TEST_F(NBodyGpu, DeclinesWhatSinglePrecisionCannotHold) {
  NBodySystem s = randomSystem(rng, 50, 2);
  setIonic(s, {2.0, -1.0}, 1.75, 12.0);
  std::vector<double> fx, fy, fz;
  NBodySystem nan_pos = s;
  nan_pos.x[3] = NAN;
  EXPECT_FALSE(gpu->nativeKernels()->nbodyForces(nan_pos, fx, fy, fz));
  EXPECT_FALSE(gpu->nativeKernels()->nbodyVerlet(nan_pos, 0.01, 2));
  NBodySystem huge = s;
  huge.c0[1] = 1e300;
  EXPECT_FALSE(gpu->nativeKernels()->nbodyForces(huge, fx, fy, fz));
  NBodySystem empty;
  setIonic(empty, {1.0}, 1.0, 12.0);
  EXPECT_TRUE(gpu->nativeKernels()->nbodyForces(empty, fx, fy, fz));
  EXPECT_TRUE(fx.empty());
}

// Verlet on the GPU (double integration, float forces) follows the reference: the 324-particle
// crystal after 20 steps, positions within 1e-7 of the lattice constant, velocities within 1e-5
// of the largest velocity.
TEST_F(NBodyGpu, VerletFollowsTheReference) {
  NBodySystem a = exampleCrystal(3), b = a;
  ASSERT_TRUE(cpu->nativeKernels()->nbodyVerlet(a, 0.02, 20));
  ASSERT_TRUE(gpu->nativeKernels()->nbodyVerlet(b, 0.02, 20));
  double dx = 0.0, dv = 0.0, vmax = 0.0;
  for (std::size_t i = 0; i < a.n; ++i) {
    dx = std::max(
        {dx, std::fabs(a.x[i] - b.x[i]), std::fabs(a.y[i] - b.y[i]), std::fabs(a.z[i] - b.z[i])});
    dv = std::max({dv, std::fabs(a.vx[i] - b.vx[i]), std::fabs(a.vy[i] - b.vy[i]),
                   std::fabs(a.vz[i] - b.vz[i])});
    vmax = std::max({vmax, std::fabs(a.vx[i]), std::fabs(a.vy[i]), std::fabs(a.vz[i])});
  }
  EXPECT_LE(dx, 1e-7 * 5.5);
  EXPECT_LE(dv, 1e-5 * vmax);
  RecordProperty("position_difference", std::to_string(dx));
  RecordProperty("relative_velocity_difference", std::to_string(dv / vmax));
  EXPECT_GT(vmax, 0.0);
  EXPECT_EQ(a.type, b.type);
}

// Momentum with single-precision forces: the pair forces are antisymmetric only up to the
// rounding of the sums (and of the polynomial against the special-function exp2), so P moves by
// round-off each step: |P(t) - P(0)| <= 1e-6 * dt * steps * sqrt(n) * rms |F| over 500 steps of
// a random system with velocities.
TEST_F(NBodyGpu, VerletConservesMomentumToRoundOff) {
  NBodySystem s = randomSystem(rng, 1000, 2);
  setIonic(s, {2.0, -1.0}, 1.75, 9.5);
  const Forces f0 = forcesOn(*cpu, s);
  double rms = 0.0;
  for (std::size_t i = 0; i < s.n; ++i) rms += norm(f0.at(i)) * norm(f0.at(i));
  rms = std::sqrt(rms / static_cast<double>(s.n));
  const Vec p0 = momentum(s);
  const double dt = 0.01;
  const int steps = 500;
  ASSERT_TRUE(gpu->nativeKernels()->nbodyVerlet(s, dt, steps));
  const Vec p = momentum(s);
  const double moved = norm({p.x - p0.x, p.y - p0.y, p.z - p0.z});
  EXPECT_LE(moved, 1e-6 * dt * steps * std::sqrt(static_cast<double>(s.n)) * rms);
  RecordProperty("momentum_change", std::to_string(moved));
}

TEST_F(NBodyGpu, CrystalEnergyIsConserved) {
  const double drift = crystalEnergyDrift(*gpu);
  EXPECT_LE(drift, kCrystalEnergyBound);
  RecordProperty("max_relative_energy_error", std::to_string(drift));
}

#endif  // STAR_HAVE_CUDA

}  // namespace
