// What the backend owns on the GPU besides its values: the stream every primitive is queued on,
// the stream-ordered memory pool values are allocated from, and the small device scratch / pinned
// host pair through which synchronising primitives return their results.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "runtime-cuda/kernels/Launch.h"

namespace star::cuda {

class DeviceContext {
 public:
  // Device scalars available in scratch(); results come back through fetch().
  static constexpr int kScratchWords = 4;

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

  std::uint64_t* scratch() const { return scratch_; }
  // Copies scratch()[0, n) back and waits for the stream: the one synchronisation of a
  // primitive that returns a value. The result stays valid until the next fetch().
  const std::uint64_t* fetch(int n) { return fetch(scratch_, n); }
  // The same for n <= kScratchWords elements anywhere in device memory.
  const std::uint64_t* fetch(const std::uint64_t* device_words, int n);
  // Waits for the stream (also before reusing host memory handed to a copy).
  void synchronize();

 private:
  void teardown() noexcept;

  int device_ = 0;
  std::string device_name_;
  Launch launch_;
  cudaMemPool_t pool_ = nullptr;
  std::uint64_t* scratch_ = nullptr;  // device, kScratchWords
  std::uint64_t* pinned_ = nullptr;   // host (page-locked), kScratchWords
};

}  // namespace star::cuda
