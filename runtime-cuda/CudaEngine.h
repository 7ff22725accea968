// The device engine on the GPU (vm/backend/DeviceEngine.h): the program uploaded once per module,
// the state handed over through pinned memory, one launch of kernels/Engine.cu per hand-over. The
// engine runs in one block when the values are small enough for one multiprocessor, and as a
// cooperative grid when they are large (or STAR_ENGINE_MODE=block|grid says so).
#pragma once

#include <cstdint>
#include <string>

#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/DeviceValue.h"
#include "vm/backend/DeviceEngine.h"
#include "vm/backend/HandleTable.h"

namespace star::cuda {

class CudaEngine final : public DeviceEngine {
 public:
  CudaEngine(DeviceContext& ctx, HandleTable<DeviceValue>& values) : ctx_(ctx), values_(values) {}
  ~CudaEngine() override;
  CudaEngine(const CudaEngine&) = delete;
  CudaEngine& operator=(const CudaEngine&) = delete;

  void load(const EngineProgramImage& image) override;
  void run(EngineRun& run) override;
  std::string shape() const override { return shape_; }
  std::uint64_t launches() const override { return launches_; }

 private:
  void hostBuffer(std::uint64_t words);

  DeviceContext& ctx_;
  HandleTable<DeviceValue>& values_;
  engine::Program program_;
  std::uint64_t* programWords_ = nullptr;  // the program's arrays, one allocation
  std::uint64_t programCapacity_ = 0;
  std::uint64_t* staging_ = nullptr;
  std::uint64_t stagingCapacity_ = 0;
  std::uint64_t* regions_ = nullptr;
  std::uint64_t regionsCapacity_ = 0;
  std::uint64_t* partials_ = nullptr;
  std::uint64_t partialsCapacity_ = 0;
  std::uint64_t* pinned_ = nullptr;         // mapped host: the region handed over and back
  std::uint64_t* pinnedOnDevice_ = nullptr;
  std::uint64_t pinnedWords_ = 0;
  std::string shape_;
  std::uint64_t launches_ = 0;
};

}  // namespace star::cuda
