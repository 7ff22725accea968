// The CUDA backend's executor of parallel loop bodies (vm/backend/ParallelPlan.h): the plan is
// translated into a DevicePlan (kernels/ParallelLoop.h) with device pointers and the checks each
// instruction still needs, and run as one kernel over all candidate indices, followed by a finish
// kernel only when the host needs a value back (a fault, a scalar after the loop, the last index,
// the iteration count for --stats).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/DeviceValue.h"
#include "vm/backend/HandleTable.h"
#include "vm/backend/ParallelPlan.h"

namespace star::cuda {

class CudaParallel {
 public:
  // reshapeBits gives a bit vector a length (the backend's own reshape: capacity, memory limit).
  using Reshape = std::function<void(Handle, std::uint64_t)>;
  CudaParallel(DeviceContext& ctx, HandleTable<DeviceValue>& values, Reshape reshapeBits)
      : ctx_(ctx), values_(values), reshapeBits_(std::move(reshapeBits)) {}
  ~CudaParallel();
  CudaParallel(const CudaParallel&) = delete;
  CudaParallel& operator=(const CudaParallel&) = delete;

  // False when the plan does not fit the device executor (too many instructions or slots, or a
  // private area larger than the scratch may grow): the VM then runs the sequential code.
  bool run(const ParallelPlan& plan, ParallelOutcome& outcome);

 private:

  DeviceContext& ctx_;
  HandleTable<DeviceValue>& values_;
  Reshape reshapeBits_;
  std::uint64_t* scratch_ = nullptr;  // the warps' private areas
  std::uint64_t scratch_capacity_ = 0;
  std::uint64_t* constants_ = nullptr;  // BCONST words of the running plan
  std::uint64_t constants_capacity_ = 0;
  void* state_ = nullptr;  // ParallelState, idle between runs
  std::vector<std::uint64_t> staging_;
};

}  // namespace star::cuda
