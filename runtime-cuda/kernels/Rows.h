// Single-bit and row access: a table row is bit i of every column (column-major storage, column
// j at offset j * colWords), and setBit touches one bit of a vector.
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/Launch.h"

namespace star::cuda {

// dst (ceil(cols/64) elements) := bit i of columns 0..cols-1; cols > 0.
void launchGetRow(const Launch& launch, std::uint64_t* dst, const std::uint64_t* table,
                    std::uint64_t colWords, std::uint64_t cols, std::uint64_t i);
// bit i of column j := bit j of src, for j < cols; cols > 0.
void launchSetRow(const Launch& launch, std::uint64_t* table, std::uint64_t colWords,
                    std::uint64_t cols, std::uint64_t i, const std::uint64_t* src);
// bit i of v := bit.
void launchSetBit(const Launch& launch, std::uint64_t* v, std::uint64_t i, bool bit);

}  // namespace star::cuda
