// Moving bit ranges across 64-bit element boundaries (TRIM and REPLACE).
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/Launch.h"

namespace star::cuda {

// dst (ceil(len/64) elements) := bits [from, from + len) of w (w_words elements); len > 0.
// dst must not alias w.
void launchTrim(const Launch& launch, std::uint64_t* dst, const std::uint64_t* w,
                 std::uint64_t w_words, std::uint64_t from, std::uint64_t len);

// bits [from, from + v_len) of w := v (ceil(v_len/64) elements); v_len > 0; v must not alias w.
void launchReplace(const Launch& launch, std::uint64_t* w, std::uint64_t from,
                    const std::uint64_t* v, std::uint64_t v_len);

}  // namespace star::cuda
