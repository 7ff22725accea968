// Element-wise kernels on packed bit vectors of n 64-bit elements (n > 0). dst may alias a or b.
// `lastMask` keeps the unused high bits of the last element 0.
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/Launch.h"
#include "vm/backend/Backend.h"

namespace star::cuda {

void launchFill(const Launch& launch, std::uint64_t* dst, std::uint64_t n, bool bit,
                 std::uint64_t lastMask);
void launchNot(const Launch& launch, std::uint64_t* dst, const std::uint64_t* a, std::uint64_t n,
                std::uint64_t lastMask);
// dst := src (n elements; the ranges do not overlap), 16-byte loads and stores when both are
// 16-byte aligned. A kernel rather than cudaMemcpyAsync: on an H200 a device-to-device
// cudaMemcpyAsync of 1.25 MB took 7.7 us to issue, this kernel 3.6 us.
void launchCopy(const Launch& launch, std::uint64_t* dst, const std::uint64_t* src,
                 std::uint64_t n);
void launchBitwise(const Launch& launch, BitOp op, std::uint64_t* dst, const std::uint64_t* a,
                    const std::uint64_t* b, std::uint64_t n);

// The last element of each of `cols` columns of colWords elements &= lastMask (restores the
// zero tails after a host write); colWords > 0, cols > 0.
void launchMaskTails(const Launch& launch, std::uint64_t* data, std::uint64_t colWords,
                       std::uint64_t cols, std::uint64_t lastMask);

}  // namespace star::cuda
