// The natives of unit nbody (stdlib/nbody.star; docs/STDLIB.md, "unit nbody", has the table
// layouts). Each reads the particle table P and the coefficient table C into an NBodySystem,
// declines (the Star body then runs and reports the error) whenever the body would stop with an
// error, and otherwise runs the backend's forces or Verlet steps, or computes the energies here.
#include "vm/natives/NativeCall.h"

#include <bit>
#include <cmath>
#include <vector>

#include "vm/backend/NBodySystem.h"

namespace star {
namespace {

std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }

using Words = std::vector<std::uint64_t>;

// Column layout of the particle table: the type (8 bits), then x, y, z, vx, vy, vz (f64 each).
constexpr std::uint64_t kTypeBits = 8;
constexpr std::uint64_t kRealBits = 64;
constexpr std::uint64_t kParticleCols = kTypeBits + 6 * kRealBits;  // 392
constexpr std::uint64_t kCoefCols = 3 * kRealBits;                  // c0, c1, c2: 192
constexpr std::uint64_t kForceCols = 3 * kRealBits;                 // fx, fy, fz: 192
constexpr std::uint64_t kEnergyCols = 5 * kRealBits;                // kinetic, potential, p: 320

// The rows' numbers in columns [first, first + len) of a column-major table (first column most
// significant), as NBodyNatives' tables hold them.
std::vector<std::uint64_t> readField(const Words& w, std::uint64_t rows, std::uint64_t first,
                                      std::uint64_t len) {
  const std::uint64_t wpc = wordsForBits(rows);
  std::vector<std::uint64_t> out(rows, 0);
  for (std::uint64_t k = 0; k < len; ++k) {
    const std::uint64_t* col = w.data() + (first + k) * wpc;
    for (std::uint64_t i = 0; i < rows; ++i)
      out[i] = (out[i] << 1) | ((col[i / 64] >> (i % 64)) & 1);
  }
  return out;
}

void writeField(Words& w, std::uint64_t rows, std::uint64_t first, std::uint64_t len,
                 const std::vector<std::uint64_t>& values) {
  const std::uint64_t wpc = wordsForBits(rows);
  for (std::uint64_t k = 0; k < len; ++k) {
    std::uint64_t* col = w.data() + (first + k) * wpc;
    const std::uint64_t shift = len - 1 - k;
    for (std::uint64_t i = 0; i < rows; ++i) col[i / 64] |= ((values[i] >> shift) & 1) << (i % 64);
  }
}

std::vector<double> readReals(const Words& w, std::uint64_t rows, std::uint64_t first) {
  std::vector<std::uint64_t> bits = readField(w, rows, first, kRealBits);
  std::vector<double> out(rows);
  for (std::uint64_t i = 0; i < rows; ++i) out[i] = std::bit_cast<double>(bits[i]);
  return out;
}

void writeReals(Words& w, std::uint64_t rows, std::uint64_t first, const std::vector<double>& v) {
  std::vector<std::uint64_t> bits(rows);
  for (std::uint64_t i = 0; i < rows; ++i) bits[i] = std::bit_cast<std::uint64_t>(v[i]);
  writeField(w, rows, first, kRealBits, bits);
}

// s := the system of particle table p and coefficient table c, if their shapes and types are
// what NB_CHECK (the bodies' common check) accepts; false otherwise.
bool readSystem(Backend& backend, Handle p, Handle c, NBodySystem& s) {
  const std::uint64_t n = backend.rows(p), crows = backend.rows(c);
  if (backend.cols(p) != kParticleCols || backend.cols(c) != kCoefCols) return false;
  std::uint64_t nt = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(crows)));
  while (nt * nt > crows) --nt;
  while ((nt + 1) * (nt + 1) <= crows) ++nt;
  if (nt * nt != crows) return false;

  Words w;
  backend.readTable(p, w);
  s.n = n;
  s.ntypes = static_cast<std::uint32_t>(nt);
  std::vector<std::uint64_t> types = readField(w, n, 0, kTypeBits);
  s.type.resize(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    if (types[i] >= nt) return false;
    s.type[i] = static_cast<std::uint32_t>(types[i]);
  }
  std::vector<double>* fields[] = {&s.x, &s.y, &s.z, &s.vx, &s.vy, &s.vz};
  for (std::uint64_t f = 0; f < 6; ++f) *fields[f] = readReals(w, n, kTypeBits + f * kRealBits);

  backend.readTable(c, w);
  s.c0 = readReals(w, crows, 0);
  s.c1 = readReals(w, crows, kRealBits);
  s.c2 = readReals(w, crows, 2 * kRealBits);
  return true;
}

void writeSystem(Backend& backend, Handle p, const NBodySystem& s) {
  Words w(kParticleCols * wordsForBits(s.n), 0);
  std::vector<std::uint64_t> types(s.type.begin(), s.type.end());
  writeField(w, s.n, 0, kTypeBits, types);
  const std::vector<double>* fields[] = {&s.x, &s.y, &s.z, &s.vx, &s.vy, &s.vz};
  for (std::uint64_t f = 0; f < 6; ++f) writeReals(w, s.n, kTypeBits + f * kRealBits, *fields[f]);
  backend.writeTable(p, s.n, kParticleCols, w.data());
}

// A table result of rows x cols fits the variable: unsized, or sized to exactly that shape.
bool fits(const NativeCall& call, Handle t, std::uint64_t rows, std::uint64_t cols) {
  return !call.isFixed(t) || (call.backend.rows(t) == rows && call.backend.cols(t) == cols);
}

// U(d) of one pair type: c0 / d + (c1 / d)^c2 d^2 / (c2 - 2), or c0 / d - c1^2 ln d for c2 = 2
// (F = -dU/dd along R in both cases). The expression order is NB_PAIRU's.
double pairPotential(const NBodySystem& s, std::size_t k, double d2) {
  const double d = std::sqrt(d2), r = 1.0 / d;
  if (s.c2[k] == 2.0) return s.c0[k] * r - s.c1[k] * s.c1[k] * std::log(d);
  return s.c0[k] * r + std::pow(s.c1[k] * r, s.c2[k]) * d2 / (s.c2[k] - 2.0);
}

// kinetic, potential, px, py, pz in double precision, summed in NB_ENERGY's order: the potential
// over the pairs i < j (row-major), each pair's U the mean of U(type i, type j) and U(type j,
// type i) (the same for a symmetric C).
std::vector<double> energy(const NBodySystem& s) {
  double kinetic = 0.0, potential = 0.0, px = 0.0, py = 0.0, pz = 0.0;
  const std::size_t nt = s.ntypes;
  for (std::size_t i = 0; i < s.n; ++i) {
    kinetic += 0.5 * (s.vx[i] * s.vx[i] + s.vy[i] * s.vy[i] + s.vz[i] * s.vz[i]);
    px += s.vx[i];
    py += s.vy[i];
    pz += s.vz[i];
    for (std::size_t j = i + 1; j < s.n; ++j) {
      const double dx = s.x[i] - s.x[j], dy = s.y[i] - s.y[j], dz = s.z[i] - s.z[j];
      const double d2 = dx * dx + dy * dy + dz * dz;
      const std::size_t ab = s.type[i] * nt + s.type[j], ba = s.type[j] * nt + s.type[i];
      double u = pairPotential(s, ab, d2);
      // Bit for bit, as the Star body compares the two rows of C (NOTEQ on words).
      if (bits(s.c0[ab]) != bits(s.c0[ba]) || bits(s.c1[ab]) != bits(s.c1[ba]) ||
          bits(s.c2[ab]) != bits(s.c2[ba]))
        u = 0.5 * (u + pairPotential(s, ba, d2));
      potential += u;
    }
  }
  return {kinetic, potential, px, py, pz};
}

}  // namespace

bool nativeNbodyForces(const NativeCall& call) {
  Backend& backend = call.backend;
  const Handle p = call.args[0].h, c = call.args[1].h, f = call.args[2].h;
  NBodySystem s;
  if (!readSystem(backend, p, c, s) || !fits(call, f, s.n, kForceCols)) return false;
  std::vector<double> fx, fy, fz;
  if (!call.kernels.nbodyForces(s, fx, fy, fz)) return false;
  Words w(kForceCols * wordsForBits(s.n), 0);
  writeReals(w, s.n, 0, fx);
  writeReals(w, s.n, kRealBits, fy);
  writeReals(w, s.n, 2 * kRealBits, fz);
  backend.writeTable(f, s.n, kForceCols, w.data());
  return true;
}

bool nativeNbodyVerlet(const NativeCall& call) {
  const Handle p = call.args[0].h, c = call.args[1].h;
  const double dt = call.args[2].r;
  const std::int64_t steps = call.args[3].i;
  NBodySystem s;
  if (!readSystem(call.backend, p, c, s)) return false;
  if (steps <= 0) return true;  // the body's step loop runs zero times
  if (!call.kernels.nbodyVerlet(s, dt, static_cast<std::uint64_t>(steps))) return false;
  writeSystem(call.backend, p, s);
  return true;
}

// Computed here, in double precision, in the body's order: a backend adds nothing to it.
bool nativeNbodyEnergy(const NativeCall& call) {
  const Handle p = call.args[0].h, c = call.args[1].h, e = call.args[2].h;
  NBodySystem s;
  if (!readSystem(call.backend, p, c, s) || !fits(call, e, 1, kEnergyCols)) return false;
  const std::vector<double> values = energy(s);
  Words w(kEnergyCols, 0);  // one row: one element per column
  for (std::uint64_t k = 0; k < values.size(); ++k)
    writeReals(w, 1, k * kRealBits, std::vector<double>{values[k]});
  call.backend.writeTable(e, 1, kEnergyCols, w.data());
  return true;
}

}  // namespace star
