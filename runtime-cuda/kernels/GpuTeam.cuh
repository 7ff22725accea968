// The device engine's team on a GPU (vm/engine/EngineTeam.h's Team), for the interpreter's kernel
// (Engine.cu) and for compiled code (CompiledKernels.cuh, built by NVRTC).
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/Warp.h"
#include "vm/engine/EngineLayout.h"
#include "vm/engine/EngineTeam.h"

namespace star::cuda {

// The team of EngineCore.h on a GPU: one block (kGrid false) or the whole grid of co-resident
// blocks (a cooperative launch). Barrier: how the grid meets — cooperative groups' grid sync for
// the nvcc-compiled engine, a barrier of its own for NVRTC's code (CompiledKernels.cuh), which has
// no cooperative groups.
template <bool kGrid, class Barrier>
class GpuTeam {
 public:
  __device__ GpuTeam(engine::Ctl* ctl, std::uint64_t (*red)[33], std::uint64_t* partials,
                     const std::uint64_t* host, Barrier barrier = {})
      : ctl_(ctl), red_(red), partials_(partials), host_(host), barrier_(barrier) {}

  __device__ bool leader() const { return threadIdx.x == 0; }
  __device__ bool teamFirst() const { return threadIdx.x == 0 && blockIdx.x == 0; }
  __device__ std::uint64_t rank() const {
    return kGrid ? std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x : threadIdx.x;
  }
  __device__ std::uint64_t size() const { return kGrid ? std::uint64_t{gridDim.x} * blockDim.x : blockDim.x; }
  __device__ std::uint64_t blockRank() const { return threadIdx.x; }
  __device__ std::uint64_t blockSize() const { return blockDim.x; }
  __device__ void syncBlock() { __syncthreads(); }
  __device__ void syncData() {
    if constexpr (kGrid) barrier_.sync();
    else __syncthreads();
  }
  __device__ engine::Ctl* ctl() { return ctl_; }
  __device__ bool interrupted() const { return *reinterpret_cast<const volatile std::uint64_t*>(host_) != 0; }

  __device__ std::uint64_t reduceMin(std::uint64_t v) { return reduce(v, Min{}, ~std::uint64_t{0}); }
  __device__ std::uint64_t reduceSum(std::uint64_t v) { return reduce(v, Sum{}, 0); }
  __device__ bool reduceOr(bool v) { return reduce(v ? 1 : 0, Or{}, 0) != 0; }

 private:
  struct Min {
    __device__ std::uint64_t operator()(std::uint64_t a, std::uint64_t b) const { return a < b ? a : b; }
  };
  struct Sum {
    __device__ std::uint64_t operator()(std::uint64_t a, std::uint64_t b) const { return a + b; }
  };
  struct Or {
    __device__ std::uint64_t operator()(std::uint64_t a, std::uint64_t b) const { return a | b; }
  };

  // Two slots alternate: a slot is written again two reductions later, after the other one's
  // barriers, when every thread has read it.
  template <class Op>
  __device__ std::uint64_t reduce(std::uint64_t v, Op op, std::uint64_t identity) {
    const unsigned lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp, warps = blockDim.x / kWarp;
    std::uint64_t* slot = red_[parity_];
    v = warpReduce(v, op);
    if (lane == 0) slot[warp] = v;
    __syncthreads();
    std::uint64_t r = identity;
    for (unsigned w = 0; w < warps; ++w) r = op(r, slot[w]);
    if constexpr (kGrid) {
      std::uint64_t* part = partials_ + std::uint64_t{parity_} * gridDim.x;
      if (threadIdx.x == 0) part[blockIdx.x] = r;
      barrier_.sync();
      if (warp == 0) {
        std::uint64_t x = identity;
        for (unsigned b = lane; b < gridDim.x; b += kWarp) x = op(x, part[b]);
        x = warpReduce(x, op);
        if (lane == 0) slot[32] = x;
      }
      __syncthreads();
      r = slot[32];
    }
    parity_ ^= 1;
    return r;
  }

  engine::Ctl* ctl_;
  std::uint64_t (*red_)[33];
  std::uint64_t* partials_;
  const std::uint64_t* host_;
  Barrier barrier_;
  unsigned parity_ = 0;
};

}  // namespace star::cuda
