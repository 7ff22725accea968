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

// Both kernels may take the most dynamic shared memory the device allows (set once).
void allowSharedRegion() {
  static const bool done = [] {
    const int bytes = static_cast<int>(engineSharedLimit());
    check(cudaFuncSetAttribute(engineKernel<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
          "device engine shared memory");
    check(cudaFuncSetAttribute(engineKernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
          "device engine shared memory");
    return true;
  }();
  (void)done;
}

}  // namespace

std::uint64_t engineSharedLimit() {
  static const std::uint64_t limit = [] {
    int device = 0, optin = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "shared memory");
    cudaFuncAttributes attr{};
    check(cudaFuncGetAttributes(&attr, engineKernel<true>), "device engine attributes");
    const std::uint64_t fixed = attr.sharedSizeBytes + 1024;  // the kernel's own, and a margin
    return optin > 0 && static_cast<std::uint64_t>(optin) > fixed ? static_cast<std::uint64_t>(optin) - fixed : 0;
  }();
  return limit;
}

// The shared memory carve-out just large enough for the region: the rest of the multiprocessor's
// memory stays L1 cache for the values' bits (the driver would otherwise take the largest).
void carveOut(const void* kernel, std::size_t bytes) {
  static int last[2] = {-1, -1};
  int& mine = last[kernel == reinterpret_cast<const void*>(&engineKernel<true>)];
  const int percent = bytes == 0 ? 0
                      : static_cast<int>(std::min<std::uint64_t>(100, (bytes + 2048) * 100 / (engineSharedLimit() + 1024) + 1));
  if (percent == mine) return;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent),
        "device engine carve-out");
  mine = percent;
}

void launchEngineBlock(cudaStream_t stream, const EngineParams& p, unsigned threads) {
  allowSharedRegion();
  carveOut(reinterpret_cast<const void*>(&engineKernel<false>), sharedBytes(p));
  engineKernel<false><<<1, threads, sharedBytes(p), stream>>>(p);
  checkLaunch("device engine");
}

void launchEngineGrid(cudaStream_t stream, const EngineParams& p, unsigned blocks, unsigned threads) {
  allowSharedRegion();
  carveOut(reinterpret_cast<const void*>(&engineKernel<true>), sharedBytes(p));
  void* args[] = {const_cast<EngineParams*>(&p)};
  check(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(&engineKernel<true>), dim3(blocks),
                                    dim3(threads), args, sharedBytes(p), stream),
        "device engine (cooperative grid)");
}

unsigned engineGridBlocks(unsigned threads, std::uint64_t sharedBytes) {
  // Asked before every grid launch, mostly with the same shape: the last answer is kept.
  static unsigned lastThreads = 0, lastBlocks = 0;
  static std::uint64_t lastBytes = ~std::uint64_t{0};
  if (threads == lastThreads && sharedBytes == lastBytes) return lastBlocks;
  allowSharedRegion();
  int perSm = 0, device = 0, sms = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, engineKernel<true>, static_cast<int>(threads),
                                                      static_cast<std::size_t>(sharedBytes)),
        "device engine occupancy");
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "multiprocessors");
  lastThreads = threads;
  lastBytes = sharedBytes;
  lastBlocks = static_cast<unsigned>(perSm > 0 ? perSm * sms : 0);
  return lastBlocks;
}

}  // namespace star::cuda
