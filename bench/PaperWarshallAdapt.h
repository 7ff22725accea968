// The paper's GPU Warshall (docs/PAPERS.md, Listing 4, "WARSHALL-adapt"): the host loops over k and
// launches one kernel per k in which block i updates column i. A peer of the native closure,
// measured in the same run.
#pragma once

#include <cstdint>
#include <vector>

namespace star::bench {

// Closes the column-major bit table (n x n, ceil(n/64) words per column) in place on the GPU;
// returns the seconds the n launches took (CUDA events), or a negative value without a GPU.
double paperWarshallAdapt(std::uint64_t n, std::vector<std::uint64_t>& columnMajor);

}  // namespace star::bench
