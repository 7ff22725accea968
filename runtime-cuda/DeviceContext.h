// What the backend owns on the GPU besides its values: the stream every primitive is queued on,
// the stream-ordered memory pool values are allocated from, and the per-context state through
// which synchronising primitives return their results: a device ReduceState (the accumulators of
// the one-launch reductions, self-resetting) and one word of mapped pinned host memory that the
// kernels write their result into, so that a result needs no copy: one launch, then one wait.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "runtime-cuda/kernels/Launch.h"
#include "runtime-cuda/kernels/Search.h"

namespace star::cuda {

class DeviceContext {
 public:
  DeviceContext();  // the current device (0 unless the caller chose another); throws BackendError
  ~DeviceContext();
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  const Launch& launch() const { return launch_; }
  cudaStream_t stream() const { return launch_.stream; }
  const std::string& device_name() const { return device_name_; }

  // Stream-ordered: the memory is usable by work queued after the call, and a release waits for
  // the work queued before it. words > 0.
  std::uint64_t* allocate(std::uint64_t words);
  void release(std::uint64_t* p) noexcept;

  // Where a synchronising kernel puts its result: this context's accumulators and the device
  // address of the mapped host word. Owned by this context: two backends never share them.
  const ResultTarget& target() const { return target_; }
  // Waits for the stream, then returns the word the last synchronising kernel wrote.
  std::uint64_t result();
  // Waits for the stream (also before reusing host memory handed to a copy).
  void synchronize();

 private:
  void teardown() noexcept;

  int device_ = 0;
  std::string device_name_;
  Launch launch_;
  cudaMemPool_t pool_ = nullptr;
  ReduceState* state_ = nullptr;           // device, idle values between launches
  volatile std::uint64_t* host_ = nullptr;  // mapped pinned host memory, one word
  ResultTarget target_;
};

}  // namespace star::cuda
