#include "runtime-cuda/kernels/Engine.h"

#include <cooperative_groups.h>

#include <algorithm>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/Tuning.h"
#include "runtime-cuda/kernels/Warp.h"
#include "vm/engine/EngineCore.h"

namespace star::cuda {
namespace {

namespace cg = cooperative_groups;
using engine::Word;

// The team of EngineCore.h on a GPU: one block (kGrid false) or the whole cooperative grid.
template <bool kGrid>
class GpuTeam {
 public:
  __device__ GpuTeam(engine::Ctl* ctl, std::uint64_t (*red)[33], std::uint64_t* partials,
                     const std::uint64_t* host)
      : ctl_(ctl), red_(red), partials_(partials), host_(host) {}

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
    if constexpr (kGrid) cg::this_grid().sync();
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
      cg::this_grid().sync();
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
  unsigned parity_ = 0;
};

template <bool kGrid>
__global__ void __launch_bounds__(EnginePolicy::kMaxThreads)
    engineKernel(const __grid_constant__ EngineParams p) {
  __shared__ engine::Ctl ctl[2];
  __shared__ std::uint64_t red[2][33];
  extern __shared__ Word sharedRegion[];
  GpuTeam<kGrid> team(ctl, red, p.partials, p.host);
  Word* region = p.regions ? p.regions + std::uint64_t{blockIdx.x} * p.layout.total : sharedRegion;
  engine::copyRegion(team, region, p.staging, p.layout, *reinterpret_cast<const engine::Header*>(p.staging));
  __syncthreads();
  engine::Core<GpuTeam<kGrid>> core(team, p.program, engine::regionAt(region, p.layout));
  core.run();
  if (blockIdx.x != 0) return;
  __syncthreads();  // the leader's last writes to the header
  engine::copyRegion(team, p.out, region, p.layout, *reinterpret_cast<const engine::Header*>(region));
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) *reinterpret_cast<volatile std::uint64_t*>(p.host + 1) = p.ticket;
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
