#include "runtime-cuda/DeviceContext.h"

#include <cstddef>
#include <cstdint>
#include <limits>

#include "runtime-cuda/CudaCheck.h"
#include "vm/backend/Backend.h"

namespace star::cuda {

namespace {
// Resident 256-thread blocks per SM on sm_90 (2048 threads); grids are capped at that.
constexpr unsigned kBlocksPerSm = 8;
// The mapped result word gets a cache line of its own.
constexpr std::size_t kHostResultBytes = 64;
}  // namespace

DeviceContext::DeviceContext() {
  check(cudaGetDevice(&device_), "cudaGetDevice");
  check(cudaSetDevice(device_), "cudaSetDevice");

  cudaDeviceProp props{};
  check(cudaGetDeviceProperties(&props, device_), "cudaGetDeviceProperties");
  device_name_ = props.name;
  int pools_supported = 0;
  check(cudaDeviceGetAttribute(&pools_supported, cudaDevAttrMemoryPoolsSupported, device_),
        "cudaDeviceGetAttribute");
  if (!pools_supported) {
    throw BackendError("the GPU " + device_name_ + " does not support stream-ordered memory pools");
  }
  launch_.max_blocks = static_cast<unsigned>(props.multiProcessorCount) * kBlocksPerSm;

  // A constructor that throws runs no destructor: undo what was created so far.
  struct Cleanup {
    DeviceContext* self;
    bool armed = true;
    ~Cleanup() {
      if (armed) self->teardown();
    }
  } cleanup{this};

  check(cudaStreamCreateWithFlags(&launch_.stream, cudaStreamNonBlocking), "cudaStreamCreate");

  // An own pool that keeps freed memory (release threshold: never), so resizes and temporaries
  // in steady state are served from the pool rather than the driver.
  cudaMemPoolProps pool_props{};
  pool_props.allocType = cudaMemAllocationTypePinned;
  pool_props.handleTypes = cudaMemHandleTypeNone;
  pool_props.location.type = cudaMemLocationTypeDevice;
  pool_props.location.id = device_;
  check(cudaMemPoolCreate(&pool_, &pool_props), "cudaMemPoolCreate");
  std::uint64_t threshold = std::numeric_limits<std::uint64_t>::max();
  check(cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &threshold),
        "cudaMemPoolSetAttribute");

  // The accumulators start idle; from here on every reduction leaves them so.
  void* state = nullptr;
  check_alloc(cudaMalloc(&state, sizeof(ReduceState)), sizeof(ReduceState));
  state_ = static_cast<ReduceState*>(state);
  static constexpr ReduceState kIdle = kReduceStateIdle;
  check(cudaMemcpyAsync(state_, &kIdle, sizeof(ReduceState), cudaMemcpyHostToDevice,
                        launch_.stream),
        "reduction state");
  // Mapped (zero-copy) pinned memory: kernels store results straight into it.
  void* host = nullptr;
  check(cudaHostAlloc(&host, kHostResultBytes, cudaHostAllocMapped), "cudaHostAlloc");
  host_ = static_cast<volatile std::uint64_t*>(host);
  *host_ = 0;
  void* host_on_device = nullptr;
  check(cudaHostGetDevicePointer(&host_on_device, host, 0), "cudaHostGetDevicePointer");
  target_.state = state_;
  target_.host_result = static_cast<std::uint64_t*>(host_on_device);
  synchronize();
  cleanup.armed = false;
}

DeviceContext::~DeviceContext() {
  teardown();
}

void DeviceContext::teardown() noexcept {
  // Errors are ignored: a destructor cannot report them, and after a device fault every call
  // fails anyway.
  if (launch_.stream != nullptr) cudaStreamSynchronize(launch_.stream);
  if (pool_ != nullptr) cudaMemPoolDestroy(pool_);
  if (launch_.stream != nullptr) cudaStreamDestroy(launch_.stream);
  if (state_ != nullptr) cudaFree(state_);
  if (host_ != nullptr) cudaFreeHost(const_cast<std::uint64_t*>(host_));
  pool_ = nullptr;
  launch_.stream = nullptr;
  state_ = nullptr;
  host_ = nullptr;
  target_ = ResultTarget{};
  cudaGetLastError();
}

std::uint64_t* DeviceContext::allocate(std::uint64_t words) {
  const std::uint64_t bytes = words * sizeof(std::uint64_t);
  void* p = nullptr;
  check_alloc(cudaMallocFromPoolAsync(&p, bytes, pool_, launch_.stream), bytes);
  return static_cast<std::uint64_t*>(p);
}

void DeviceContext::release(std::uint64_t* p) noexcept {
  if (p == nullptr) return;
  // A failure here means the device is already broken; the next sync point reports it.
  if (cudaFreeAsync(p, launch_.stream) != cudaSuccess) cudaGetLastError();
}

std::uint64_t DeviceContext::result() {
  synchronize();
  // The kernel that wrote it has completed, so its store to the mapped word is visible here.
  return *host_;
}

void DeviceContext::synchronize() {
  check(cudaStreamSynchronize(launch_.stream), "synchronize");
}

}  // namespace star::cuda
