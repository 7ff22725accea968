// The N-body module's reference: forces by direct summation and velocity Verlet, both in double
// precision. Each F_i is summed over j = 0, 1, ..., n - 1 (j != i) in index order, the order the
// Star body of NB_FORCES uses, so that the two agree to a few units in the last place.
#include "runtime-cpu/NBodyReference.h"

#include "core/Interrupt.h"

#include <cmath>
#include <cstddef>

namespace star::cpu {
namespace {

// x^e for an integer e >= 0 by squaring: much faster than std::pow, and as accurate.
double intPower(double x, unsigned e) {
  double result = 1.0;
  while (e != 0) {
    if (e & 1u) result *= x;
    x *= x;
    e >>= 1;
  }
  return result;
}

// Integer exponents up to this go by multiplication; others (and non-integers) by std::pow.
constexpr double kMaxIntExponent = 64.0;

// (c1 r)^c2 for one pair type.
struct Repulsion {
  double c1 = 0.0, c2 = 0.0;
  bool integral = false;
  unsigned e = 0;
  double operator()(double r) const {
    return integral ? intPower(c1 * r, e) : std::pow(c1 * r, c2);
  }
};

}  // namespace

void nbodyForces(const NBodySystem& s, std::vector<double>& fx, std::vector<double>& fy,
                  std::vector<double>& fz) {
  const std::size_t n = s.n, nt = s.ntypes;
  fx.assign(n, 0.0);
  fy.assign(n, 0.0);
  fz.assign(n, 0.0);
  std::vector<Repulsion> rep(nt * nt);
  for (std::size_t k = 0; k < nt * nt; ++k) {
    Repulsion& p = rep[k];
    p.c1 = s.c1[k];
    p.c2 = s.c2[k];
    p.integral = s.c2[k] >= 0.0 && s.c2[k] <= kMaxIntExponent && std::trunc(s.c2[k]) == s.c2[k];
    p.e = p.integral ? static_cast<unsigned>(s.c2[k]) : 0;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 256 == 0) throwIfInterrupted();  // n^2 pairs: minutes for large systems
    const std::size_t row = std::size_t{s.type[i]} * nt;
    double ax = 0.0, ay = 0.0, az = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const double dx = s.x[i] - s.x[j], dy = s.y[i] - s.y[j], dz = s.z[i] - s.z[j];
      const double r = 1.0 / std::sqrt(dx * dx + dy * dy + dz * dz);
      const std::size_t k = row + s.type[j];
      const double f = s.c0[k] * r * r * r + rep[k](r);
      ax += dx * f;
      ay += dy * f;
      az += dz * f;
    }
    fx[i] = ax;
    fy[i] = ay;
    fz[i] = az;
  }
}

// Velocity Verlet with unit masses: v += dt/2 F(x); x += dt v; v += dt/2 F(x'), step after step.
void nbodyVerlet(NBodySystem& s, double dt, std::uint64_t steps) {
  if (steps == 0) return;
  const std::size_t n = s.n;
  const double half = 0.5 * dt;
  std::vector<double> fx, fy, fz;
  nbodyForces(s, fx, fy, fz);
  for (std::uint64_t step = 0; step < steps; ++step) {
    for (std::size_t i = 0; i < n; ++i) {
      s.vx[i] += half * fx[i];
      s.vy[i] += half * fy[i];
      s.vz[i] += half * fz[i];
      s.x[i] += dt * s.vx[i];
      s.y[i] += dt * s.vy[i];
      s.z[i] += dt * s.vz[i];
    }
    nbodyForces(s, fx, fy, fz);
    for (std::size_t i = 0; i < n; ++i) {
      s.vx[i] += half * fx[i];
      s.vy[i] += half * fy[i];
      s.vz[i] += half * fz[i];
    }
  }
}

NBodySystem fluoriteCrystal(int cells, double a) {
  NBodySystem s;
  const double fcc[4][3] = {{0, 0, 0}, {0, 0.5, 0.5}, {0.5, 0, 0.5}, {0.5, 0.5, 0}};
  const double half = 0.5 * a * cells;
  for (int cx = 0; cx < cells; ++cx)
    for (int cy = 0; cy < cells; ++cy)
      for (int cz = 0; cz < cells; ++cz)
        for (int site = 0; site < 12; ++site) {
          double u[3];
          for (int k = 0; k < 3; ++k)
            u[k] = site < 4 ? fcc[site][k] : 0.25 + 0.5 * (((site - 4) >> (2 - k)) & 1);
          s.type.push_back(site < 4 ? 0 : 1);
          s.x.push_back(a * (cx + u[0]) - half);
          s.y.push_back(a * (cy + u[1]) - half);
          s.z.push_back(a * (cz + u[2]) - half);
        }
  s.n = s.type.size();
  s.vx.assign(s.n, 0.0);
  s.vy.assign(s.n, 0.0);
  s.vz.assign(s.n, 0.0);
  return s;
}

}  // namespace star::cpu
