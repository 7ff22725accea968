// Modulo 2^len addition and subtraction of words (bit 0 most significant).
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/Launch.h"

namespace star::cuda {

// dst := a + b (or a - b) on n > 0 elements holding the words; dst may alias a or b.
void launchAdd(const Launch& launch, std::uint64_t* dst, const std::uint64_t* a,
                const std::uint64_t* b, std::uint64_t n);
void launchSub(const Launch& launch, std::uint64_t* dst, const std::uint64_t* a,
                const std::uint64_t* b, std::uint64_t n);

}  // namespace star::cuda
