// Scratch memory of the sorts: a buffer from the backend's stream-ordered pool, given back when it
// goes out of scope. The release is stream-ordered too (after the work queued on the buffer), so
// a sort can queue its kernels, drop its buffers and return without waiting. Host-side only.
#pragma once

#include <cstdint>

#include "runtime-cuda/DeviceContext.h"

namespace star::cuda {

class SortScratch {
 public:
  SortScratch(DeviceContext& ctx, std::uint64_t bytes)
      : ctx_(ctx), data_(bytes == 0 ? nullptr : ctx.allocate((bytes + 7) / 8)), bytes_(bytes) {}
  ~SortScratch() { ctx_.release(data_); }
  SortScratch(const SortScratch&) = delete;
  SortScratch& operator=(const SortScratch&) = delete;

  template <class T>
  T* as() const {
    return reinterpret_cast<T*>(data_);
  }
  std::uint64_t bytes() const { return bytes_; }

 private:
  DeviceContext& ctx_;
  std::uint64_t* data_;
  std::uint64_t bytes_;
};

}  // namespace star::cuda
