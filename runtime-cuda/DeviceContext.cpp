#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/kernels/Tuning.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "core/Interrupt.h"
#include "runtime-cuda/CudaCheck.h"
#include "vm/backend/Backend.h"

namespace star::cuda {

namespace {
constexpr unsigned kBlocksPerSm = ElementwisePolicy::kBlocksPerSm;  // kernels/Tuning.h
// The mapped result words get a cache line of their own.
constexpr std::size_t kHostResultBytes = 64;
// Where readWord's copy lands (beside the ticket and value words of the kernels).
constexpr int kCopyWord = 2;
static_assert(kTicketWord != kCopyWord && kValueWord != kCopyWord);
static_assert((kCopyWord + 1) * sizeof(std::uint64_t) <= kHostResultBytes);
// While waiting for a result, the stream is asked for errors every this many spins.
constexpr unsigned kSpinsPerQuery = 1024;

// Loads of the words a kernel stores into mapped memory; acquire: the value word is read after the
// ticket word that releases it.
std::uint64_t loadAcquire(std::uint64_t& word) {
  return std::atomic_ref<std::uint64_t>(word).load(std::memory_order_acquire);
}

void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}
}  // namespace

DeviceContext::DeviceContext() {
  check(cudaGetDevice(&device_), "cudaGetDevice");
  check(cudaSetDevice(device_), "cudaSetDevice");

  cudaDeviceProp props{};
  check(cudaGetDeviceProperties(&props, device_), "cudaGetDeviceProperties");
  device_name_ = props.name;
  device_memory_ = props.totalGlobalMem;
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
  checkAlloc(cudaMalloc(&state, sizeof(ReduceState)), sizeof(ReduceState));
  state_ = static_cast<ReduceState*>(state);
  static constexpr ReduceState kIdle = kReduceStateIdle;
  check(cudaMemcpyAsync(state_, &kIdle, sizeof(ReduceState), cudaMemcpyHostToDevice,
                        launch_.stream),
        "reduction state");
  // Mapped (zero-copy) pinned memory: kernels store results straight into it. Ticket 0 is never
  // issued.
  void* host = nullptr;
  check(cudaHostAlloc(&host, kHostResultBytes, cudaHostAllocMapped), "cudaHostAlloc");
  host_ = static_cast<std::uint64_t*>(host);
  for (std::size_t i = 0; i < kHostResultBytes / sizeof(std::uint64_t); ++i) host_[i] = 0;
  void* host_on_device = nullptr;
  check(cudaHostGetDevicePointer(&host_on_device, host, 0), "cudaHostGetDevicePointer");
  host_on_device_ = static_cast<std::uint64_t*>(host_on_device);
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
  if (host_ != nullptr) cudaFreeHost(host_);
  if (area_.host != nullptr) cudaFreeHost(area_.host);
  area_ = MappedArea{};
  area_words_ = 0;
  pool_ = nullptr;
  launch_.stream = nullptr;
  state_ = nullptr;
  host_ = nullptr;
  host_on_device_ = nullptr;
  cudaGetLastError();
}

std::uint64_t* DeviceContext::allocate(std::uint64_t words) {
  const std::uint64_t bytes = words * sizeof(std::uint64_t);
  void* p = nullptr;
  checkAlloc(cudaMallocFromPoolAsync(&p, bytes, pool_, launch_.stream), bytes);
  return static_cast<std::uint64_t*>(p);
}

std::uint64_t* DeviceContext::grow(std::uint64_t*& buffer, std::uint64_t& capacity, std::uint64_t words) {
  words = std::max<std::uint64_t>(words, 1);
  if (words > capacity) {
    release(buffer);
    buffer = nullptr;
    capacity = 0;
    buffer = allocate(words);
    capacity = words;
  }
  return buffer;
}

void DeviceContext::release(std::uint64_t* p) noexcept {
  if (p == nullptr) return;
  // A failure here means the device is already broken; the next sync point reports it.
  if (cudaFreeAsync(p, launch_.stream) != cudaSuccess) cudaGetLastError();
}

ResultTarget DeviceContext::nextResult() {
  return ResultTarget{state_, host_on_device_, ++ticket_};
}

// Spinning on the mapped ticket returns as soon as the kernel's store arrives, without the
// driver's completion path of cudaStreamSynchronize (about 1.5 us less on an H200). A kernel that
// faults never stores its ticket: the periodic stream query turns that into a BackendError.
std::uint64_t DeviceContext::result() {
  waitTicket(&host_[kTicketWord], ticket_);
  return loadAcquire(host_[kValueWord]);
}

void DeviceContext::waitTicket(const std::uint64_t* host_word, std::uint64_t ticket,
                               std::uint64_t* interrupt_word) {
  auto& word = *const_cast<std::uint64_t*>(host_word);
  for (unsigned spins = 1;; ++spins) {
    if (loadAcquire(word) == ticket) return;
    if (interrupt_word != nullptr && gInterruptRequested.load(std::memory_order_relaxed))
      std::atomic_ref<std::uint64_t>(*interrupt_word).store(1, std::memory_order_release);
    if (spins % kSpinsPerQuery == 0) {
      const cudaError_t status = cudaStreamQuery(launch_.stream);
      if (status != cudaErrorNotReady) {
        check(status, "synchronize");
        // The stream is idle, so the launch has completed and its stores are visible.
        if (loadAcquire(word) == ticket) return;
        throw BackendError("cuda backend: a kernel completed without storing its result");
      }
    }
    cpuRelax();
  }
}

DeviceContext::MappedArea DeviceContext::mappedArea(std::size_t words) {
  if (words <= area_words_) return area_;
  synchronize();  // no launch may still store into the old area
  if (area_.host != nullptr) cudaFreeHost(area_.host);
  area_ = MappedArea{};
  area_words_ = 0;
  void* host = nullptr;
  checkAlloc(cudaHostAlloc(&host, words * sizeof(std::uint64_t), cudaHostAllocMapped),
             words * sizeof(std::uint64_t));
  void* device = nullptr;
  const cudaError_t mapped = cudaHostGetDevicePointer(&device, host, 0);
  if (mapped != cudaSuccess) cudaFreeHost(host);
  check(mapped, "cudaHostGetDevicePointer");
  area_ = {static_cast<std::uint64_t*>(host), static_cast<std::uint64_t*>(device)};
  area_words_ = words;
  for (std::size_t i = 0; i < words; ++i) area_.host[i] = 0;
  return area_;
}

// A plain 8-byte copy into the pinned area beats a kernel that stores into it (measured on an
// H200: 6.4 us against 7.7 us with the spin, 9.2 us with a stream synchronisation).
std::uint64_t DeviceContext::readWord(const std::uint64_t* device_word) {
  check(cudaMemcpyAsync(&host_[kCopyWord], device_word, sizeof(std::uint64_t),
                        cudaMemcpyDeviceToHost, launch_.stream),
        "result copy");
  synchronize();
  return loadAcquire(host_[kCopyWord]);
}

void DeviceContext::synchronize() {
  check(cudaStreamSynchronize(launch_.stream), "synchronize");
}

}  // namespace star::cuda
