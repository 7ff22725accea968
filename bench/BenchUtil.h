// Shared helpers of the benchmarks: random digraphs, timing, running a Star program in-process.
#pragma once

#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "vm/io/TableText.h"

namespace star::bench {

// A sparse random digraph with about `arcsPerVertex` arcs per vertex, as bench/RESULTS.md's peers.
inline TableData randomDigraph(std::uint64_t n, double arcsPerVertex, std::uint64_t seed) {
  TableData t;
  t.reshape(n, n);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint64_t> pick(0, n - 1);
  std::uint64_t arcs = static_cast<std::uint64_t>(arcsPerVertex * static_cast<double>(n));
  for (std::uint64_t a = 0; a < arcs; ++a) t.set(pick(rng), pick(rng));
  return t;
}

inline double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace star::bench
