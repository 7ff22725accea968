// Element-wise kernels on packed bit vectors of n 64-bit elements (n > 0). dst may alias a or b.
// `last_mask` keeps the unused high bits of the last element 0.
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/Launch.h"
#include "vm/backend/Backend.h"

namespace star::cuda {

void launch_fill(const Launch& launch, std::uint64_t* dst, std::uint64_t n, bool bit,
                 std::uint64_t last_mask);
void launch_not(const Launch& launch, std::uint64_t* dst, const std::uint64_t* a, std::uint64_t n,
                std::uint64_t last_mask);
// dst := src (n elements; the ranges do not overlap), 16-byte loads and stores when both are
// 16-byte aligned. A kernel rather than cudaMemcpyAsync: on an H200 a device-to-device
// cudaMemcpyAsync of 1.25 MB took 7.7 us to issue, this kernel 3.6 us.
void launch_copy(const Launch& launch, std::uint64_t* dst, const std::uint64_t* src,
                 std::uint64_t n);
void launch_bitwise(const Launch& launch, BitOp op, std::uint64_t* dst, const std::uint64_t* a,
                    const std::uint64_t* b, std::uint64_t n);

// The last element of each of `cols` columns of col_words elements &= last_mask (restores the
// zero tails after a host write); col_words > 0, cols > 0.
void launch_mask_tails(const Launch& launch, std::uint64_t* data, std::uint64_t col_words,
                       std::uint64_t cols, std::uint64_t last_mask);

}  // namespace star::cuda
