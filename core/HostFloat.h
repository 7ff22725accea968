// Real arithmetic on the device with the host's results, bit for bit. Device code (the engine, the
// parallel-loop kernels) computes + - * / and sqrt in IEEE double precision as the host does; only
// NaNs differ: a GPU returns its canonical positive NaN, where the host (x86 SSE) returns a NaN
// operand quieted, or for a new NaN (0/0, inf - inf, sqrt(-1)) the negative default NaN, which
// `write` prints as "-nan". hostNaN applies the host's rules to a device result.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/HostDevice.h"

namespace star {

STAR_HD double hostNaN(double r, double a, double b) {
#ifdef __CUDA_ARCH__
  if (r != r) {
    constexpr std::uint64_t kQuiet = std::uint64_t{1} << 51;
    std::uint64_t bits;
    if (a != a) std::memcpy(&bits, &a, sizeof bits);
    else if (b != b) std::memcpy(&bits, &b, sizeof bits);
    else bits = 0xFFF8000000000000ull;  // x86's default NaN
    bits |= kQuiet;
    std::memcpy(&r, &bits, sizeof r);
  }
#else
  (void)a;
  (void)b;
#endif
  return r;
}

}  // namespace star
