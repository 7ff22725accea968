// How kernels are launched: every device-wide entry point takes a Launch (the backend's stream and
// the largest useful grid) and sizes a grid-stride grid from it. Host-side only.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "runtime-cuda/kernels/Tuning.h"

namespace star::cuda {

struct Launch {
  cudaStream_t stream = nullptr;
  // Blocks that fit on the device at once; grids never exceed it (grid-stride loops do the rest).
  unsigned max_blocks = 1;
};

// The block of every grid-stride kernel that has no policy of its own (Tuning.h).
inline constexpr unsigned kBlockThreads = ElementwisePolicy::kBlockThreads;

// Blocks for `items` work items of `items_per_thread` each, at least 1 and at most max_blocks.
inline unsigned gridFor(const Launch& launch, std::uint64_t items,
                         std::uint64_t items_per_thread = 1,
                         unsigned block_threads = kBlockThreads) {
  const std::uint64_t per_block = std::uint64_t{block_threads} * items_per_thread;
  const std::uint64_t blocks = (items + per_block - 1) / per_block;
  return static_cast<unsigned>(
      std::clamp<std::uint64_t>(blocks, 1, std::max(launch.max_blocks, 1u)));
}

}  // namespace star::cuda
