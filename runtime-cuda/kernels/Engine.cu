#include "runtime-cuda/kernels/Engine.h"

#include <cooperative_groups.h>

#include <algorithm>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/Tuning.h"
#include "runtime-cuda/kernels/EngineLaunch.cuh"
#include "runtime-cuda/kernels/GpuTeam.cuh"
#include "runtime-cuda/kernels/Warp.h"
#include "vm/engine/EngineCore.h"

namespace star::cuda {
namespace {

namespace cg = cooperative_groups;
using engine::Word;

// The grid meets through cooperative groups.
struct CgBarrier {
  __device__ void sync() { cg::this_grid().sync(); }
};
template <bool kGrid>
using InterpreterTeam = GpuTeam<kGrid, CgBarrier>;

template <bool kGrid>
__global__ void __launch_bounds__(EnginePolicy::kMaxThreads)
    engineKernel(const __grid_constant__ EngineParams p) {
  __shared__ engine::Ctl ctl[2];
  __shared__ std::uint64_t red[2][33];
  extern __shared__ Word sharedRegion[];
  InterpreterTeam<kGrid> team(ctl, red, p.partials, p.host);
  runEngineLaunch(p, team, sharedRegion, [&](InterpreterTeam<kGrid>& t, engine::Region region) {
    engine::Core<InterpreterTeam<kGrid>> core(t, p.program, region);
    core.run();
  });
}

std::size_t sharedBytes(const EngineParams& p) {
  return p.regions ? 0 : static_cast<std::size_t>(p.layout.total * sizeof(Word));
}

}  // namespace

const void* interpreterKernel(bool grid) {
  return grid ? reinterpret_cast<const void*>(&engineKernel<true>)
              : reinterpret_cast<const void*>(&engineKernel<false>);
}

EngineKernels& interpreterKernels() {
  static EngineKernels kernels(interpreterKernel(false), interpreterKernel(true));
  return kernels;
}

const void* EngineKernels::kernel(bool grid) {
  if (!kernel_[grid] && make_) kernel_[grid] = make_(grid);
  if (!kernel_[grid]) check(cudaErrorInvalidDeviceFunction, "the device engine's kernel");
  return kernel_[grid];
}

std::uint64_t EngineKernels::sharedLimit() {
  if (sharedLimit_ != ~std::uint64_t{0}) return sharedLimit_;
  int device = 0, optin = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "shared memory");
  cudaFuncAttributes attr{};
  // Both forms have the same static shared memory: the block form, always the first made, answers.
  check(cudaFuncGetAttributes(&attr, kernel(false)), "device engine attributes");
  const std::uint64_t fixed = attr.sharedSizeBytes + 1024;  // the kernel's own, and a margin
  sharedLimit_ = optin > 0 && static_cast<std::uint64_t>(optin) > fixed ? static_cast<std::uint64_t>(optin) - fixed : 0;
  return sharedLimit_;
}

// Each kernel may take the most dynamic shared memory the device allows (set once).
void EngineKernels::allowSharedRegion(bool grid) {
  if (allowed_[grid]) return;
  const int bytes = static_cast<int>(sharedLimit());
  check(cudaFuncSetAttribute(kernel(grid), cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
        "device engine shared memory");
  allowed_[grid] = true;
}

// The shared memory carve-out just large enough for the region: the rest of the multiprocessor's
// memory stays L1 cache for the values' bits (the driver would otherwise take the largest).
void EngineKernels::carveOut(bool grid, std::size_t bytes) {
  int& mine = carveOut_[grid];
  const int percent = bytes == 0 ? 0
                      : static_cast<int>(std::min<std::uint64_t>(100, (bytes + 2048) * 100 / (sharedLimit() + 1024) + 1));
  if (percent == mine) return;
  check(cudaFuncSetAttribute(kernel(grid), cudaFuncAttributePreferredSharedMemoryCarveout, percent),
        "device engine carve-out");
  mine = percent;
}

void EngineKernels::launchBlock(cudaStream_t stream, const EngineParams& p, unsigned threads) {
  allowSharedRegion(false);
  carveOut(false, sharedBytes(p));
  void* args[] = {const_cast<EngineParams*>(&p)};
  check(cudaLaunchKernel(kernel(false), dim3(1), dim3(threads), args, sharedBytes(p), stream), "device engine");
}

unsigned EngineKernels::launchGrid(cudaStream_t stream, const EngineParams& p, unsigned blocks, unsigned threads) {
  allowSharedRegion(true);
  carveOut(true, sharedBytes(p));
  void* args[] = {const_cast<EngineParams*>(&p)};
  // The occupancy the driver reports is an estimate: where fewer blocks fit at launch, fewer run
  // (the team is the grid that runs; every result is the same, only its speed is not).
  cudaError_t e = cudaLaunchCooperativeKernel(kernel(true), dim3(blocks), dim3(threads), args, sharedBytes(p), stream);
  while (e == cudaErrorCooperativeLaunchTooLarge && blocks > 1) {
    (void)cudaGetLastError();
    blocks = blocks > 2 ? blocks - blocks / 4 : 1;
    lastBlocks_ = blocks;
    e = cudaLaunchCooperativeKernel(kernel(true), dim3(blocks), dim3(threads), args, sharedBytes(p), stream);
  }
  check(e, "device engine (cooperative grid)");
  return blocks;
}

unsigned EngineKernels::gridBlocks(unsigned threads, std::uint64_t sharedBytes) {
  // Asked before every grid launch, mostly with the same shape: the last answer is kept.
  if (threads == lastThreads_ && sharedBytes == lastBytes_) return lastBlocks_;
  allowSharedRegion(true);
  // Asked with the carve-out the launch will set: a smaller one holds fewer blocks (compiled
  // code's 256-thread blocks fit several a multiprocessor, and the launch failed with
  // cudaErrorCooperativeLaunchTooLarge when the count came from the default carve-out).
  carveOut(true, static_cast<std::size_t>(sharedBytes));
  int perSm = 0, device = 0, sms = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel(true), static_cast<int>(threads),
                                                      static_cast<std::size_t>(sharedBytes)),
        "device engine occupancy");
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "multiprocessors");
  lastThreads_ = threads;
  lastBytes_ = sharedBytes;
  lastBlocks_ = static_cast<unsigned>(perSm > 0 ? perSm * sms : 0);
  return lastBlocks_;
}

}  // namespace star::cuda
