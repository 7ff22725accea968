// The device engine's kernel (vm/engine/EngineCore.h on the GPU): one launch runs the handed-over
// state until the engine stops, then block 0 writes its region back to mapped host memory and
// stores the launch's ticket. Two forms: one block (the team is the block; a step costs a block
// barrier), and a cooperative grid of co-resident blocks (the team is the grid; every block keeps
// its own copy of the state and runs the same instruction stream, and instructions on the bits
// end with a grid-wide barrier).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "runtime-cuda/kernels/EngineParams.h"
#include "vm/engine/EngineLayout.h"

namespace star::cuda {


// threads: a multiple of 32, at most 1024.
void launchEngineBlock(cudaStream_t stream, const EngineParams& p, unsigned threads);
// blocks: at most engineGridBlocks(threads, the same shared bytes).
void launchEngineGrid(cudaStream_t stream, const EngineParams& p, unsigned blocks, unsigned threads);
// The most blocks of `threads`, each with `sharedBytes` of dynamic shared memory, that can be
// resident at once (a cooperative grid's limit).
unsigned engineGridBlocks(unsigned threads, std::uint64_t sharedBytes);
// The most dynamic shared memory a block of the engine may have (the region held there).
std::uint64_t engineSharedLimit();

}  // namespace star::cuda
