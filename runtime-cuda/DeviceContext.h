// What the backend owns on the GPU besides its values: the stream every primitive is queued on,
// the stream-ordered memory pool values are allocated from, and the per-context state through
// which synchronising primitives return their results: a device ReduceState (the accumulators of
// the one-launch reductions, self-resetting) and a few words of mapped pinned host memory that the
// kernels store their result and its ticket into. A result needs no copy and no stream
// synchronisation: one launch, then the host spins on the ticket.
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
  const std::string& deviceName() const { return device_name_; }
  int device() const { return device_; }
  std::uint64_t deviceMemory() const { return device_memory_; }

  // Stream-ordered: the memory is usable by work queued after the call, and a release waits for
  // the work queued before it. words > 0.
  std::uint64_t* allocate(std::uint64_t words);
  void release(std::uint64_t* p) noexcept;
  // A scratch buffer kept between calls: reallocated only when it must hold more than `capacity`
  // words (at least 1). Returns the buffer.
  std::uint64_t* grow(std::uint64_t*& buffer, std::uint64_t& capacity, std::uint64_t words);

  // This context's reduction accumulators (never shared between backends).
  ReduceState* state() const { return state_; }
  // Where the next synchronising kernel puts its result, with a fresh ticket; result() then waits
  // for exactly that launch. One launch per nextResult(), one result() after it.
  ResultTarget nextResult();
  // Waits until the launch of the last nextResult() has stored its result, and returns it. Work
  // queued before it has completed as far as the result depends on it; the stream may still be
  // finishing the launch (later primitives are queued behind it anyway). A device fault is
  // reported here if it happens before the result appears, else at the next synchronisation.
  std::uint64_t result();
  // A mapped pinned host area of at least `words` words for launches that return several values
  // (parallel loops, the device engine): its host address and the address kernels store to. It
  // grows only between launches (the old area is freed after the stream drains). Kernels store
  // a ticket from nextTicket() last; waitTicket() spins until it appears.
  struct MappedArea {
    std::uint64_t* host = nullptr;
    std::uint64_t* device = nullptr;
  };
  MappedArea mappedArea(std::size_t words);
  std::uint64_t nextTicket() { return ++ticket_; }
  // With `interrupt_word` (mapped memory a running kernel reads), a Ctrl-C while waiting sets it
  // to 1, so that the kernel can stop.
  void waitTicket(const std::uint64_t* host_word, std::uint64_t ticket,
                  std::uint64_t* interrupt_word = nullptr);
  // One element of device memory, copied back after everything queued before it.
  std::uint64_t readWord(const std::uint64_t* device_word);
  // Waits for the stream (also before reusing host memory handed to a copy).
  void synchronize();

 private:
  void teardown() noexcept;

  int device_ = 0;
  std::string device_name_;
  std::uint64_t device_memory_ = 0;
  Launch launch_;
  cudaMemPool_t pool_ = nullptr;
  ReduceState* state_ = nullptr;  // device, idle values between launches
  std::uint64_t* host_ = nullptr;  // mapped pinned host memory: kTicketWord, kValueWord, kCopyWord
  std::uint64_t* host_on_device_ = nullptr;  // its device address
  std::uint64_t ticket_ = 0;                 // of the last nextResult() or nextTicket()
  MappedArea area_;
  std::size_t area_words_ = 0;
};

}  // namespace star::cuda
