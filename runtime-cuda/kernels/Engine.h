// The device engine's kernels (vm/engine/EngineCore.h on the GPU): one launch runs the handed-over
// state until the engine stops, then block 0 writes its region back to mapped host memory and
// stores the launch's ticket. Two forms: one block (the team is the block; a step costs a block
// barrier), and a cooperative grid of co-resident blocks (the team is the grid; every block keeps
// its own copy of the state and runs the same instruction stream, and instructions on the bits
// end with a grid-wide barrier).
//
// EngineKernels is such a pair: the interpreter's (Engine.cu, built with star) or a program's
// compiled code (CompiledKernels.cuh, built by NVRTC and loaded at run time). Both take
// EngineParams and run the same protocol, so CudaEngine launches either.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>

#include "runtime-cuda/kernels/EngineParams.h"
#include "vm/engine/EngineLayout.h"

namespace star::cuda {

class EngineKernels {
 public:
  // block, grid: __global__ void(EngineParams) functions, or cudaKernel_t cast to pointers.
  EngineKernels(const void* block, const void* grid) : kernel_{block, grid} {}
  // Kernels made when first launched (compiled code builds each form only if a run needs it):
  // make(grid) returns the form's kernel.
  explicit EngineKernels(std::function<const void*(bool grid)> make) : make_(std::move(make)) {}

  // A program's compiled kernels (made on demand), not the interpreter's.
  bool compiled() const { return static_cast<bool>(make_); }

  // threads: a multiple of 32, at most 1024.
  void launchBlock(cudaStream_t stream, const EngineParams& p, unsigned threads);
  // blocks: at most gridBlocks(threads, the same shared bytes). The blocks launched (fewer where
  // the driver refuses that many).
  unsigned launchGrid(cudaStream_t stream, const EngineParams& p, unsigned blocks,
                      unsigned threads);
  // The most blocks of `threads`, each with `sharedBytes` of dynamic shared memory, that can be
  // resident at once (a cooperative grid's limit).
  unsigned gridBlocks(unsigned threads, std::uint64_t sharedBytes);
  // The most dynamic shared memory a block may have (the region held there).
  std::uint64_t sharedLimit();

 private:
  const void* kernel(bool grid);
  void allowSharedRegion(bool grid);
  void carveOut(bool grid, std::size_t bytes);

  const void* kernel_[2] = {nullptr, nullptr};  // block, grid
  std::function<const void*(bool grid)> make_;
  bool allowed_[2] = {false, false};
  std::uint64_t sharedLimit_ = ~std::uint64_t{0};
  int carveOut_[2] = {-1, -1};
  unsigned lastThreads_ = 0, lastBlocks_ = 0;
  std::uint64_t lastBytes_ = ~std::uint64_t{0};
};

// The interpreter's pair, and one of its kernels (a stand-in for a compiled form that could not
// be built: the same protocol on the same state).
EngineKernels& interpreterKernels();
const void* interpreterKernel(bool grid);

}  // namespace star::cuda
