// A table's bits seen through blocks: the fraction of 1s in each block of rowStep x colStep
// bits, for pictures that are smaller than the table (SAVEPNG past its size limit, the REPL's
// :show on a narrow terminal). The blocks of the last row or column may be smaller.
#pragma once

#include <cstdint>
#include <vector>

#include "vm/io/TableText.h"

namespace star {

// The number of blocks of `step` that cover n (ceil(n / step)); step >= 1.
inline std::uint64_t blockCount(std::uint64_t n, std::uint64_t step) {
  return (n + step - 1) / step;
}

// The smallest step >= 1 with blockCount(n, step) <= limit (limit >= 1).
std::uint64_t stepToFit(std::uint64_t n, std::uint64_t limit);

// The number of 1s among bits [begin, end) of a packed bit vector.
std::uint64_t countOnes(const std::uint64_t* words, std::uint64_t begin, std::uint64_t end);

// The densities (0 to 1) of the blocks of block row `blockRow`, left to right: blockCount(t.cols,
// colStep) values.
std::vector<double> blockRowDensities(const TableData& t, std::uint64_t blockRow,
                                      std::uint64_t rowStep, std::uint64_t colStep);

// A slice of n bits as a table of n rows and one column; a word as one row of n columns.
TableData sliceAsTable(std::uint64_t n, const std::vector<std::uint64_t>& words);
TableData wordAsTable(std::uint64_t n, const std::vector<std::uint64_t>& words);

}  // namespace star
