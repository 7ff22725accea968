// Index and population reductions over packed bit vectors of n 64-bit elements (n > 0).
// Results go to device scalars (`found`, `result`); the caller copies them back when it needs them,
// so these launches can be chained on the stream with no host round trip.
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/Launch.h"

namespace star::cuda {

// Written to `found` when there is no 1.
inline constexpr std::uint64_t kNotFound = ~std::uint64_t{0};

// *found := index of the first 1 of a, or kNotFound.
void launch_find_first(const Launch& launch, const std::uint64_t* a, std::uint64_t n,
                       std::uint64_t* found);
// *found := index of the first bit where a and b differ, or kNotFound.
void launch_find_first_difference(const Launch& launch, const std::uint64_t* a,
                                  const std::uint64_t* b, std::uint64_t n, std::uint64_t* found);
// *count := number of 1s of a.
void launch_count(const Launch& launch, const std::uint64_t* a, std::uint64_t n,
                  std::uint64_t* count);

// Follow-ups that read *found on the device:
// v[*found] := 0 (STEP).
void launch_clear_found(const Launch& launch, std::uint64_t* v, const std::uint64_t* found);
// dst := only bit *found set, n elements (FRST; dst may alias the searched vector).
void launch_keep_found(const Launch& launch, std::uint64_t* dst, std::uint64_t n,
                       const std::uint64_t* found);
// *result := compare(a, b) as int64 (-1, 0, 1), *found being their first difference.
void launch_decide_compare(const Launch& launch, const std::uint64_t* a, const std::uint64_t* found,
                           std::uint64_t* result);

}  // namespace star::cuda
