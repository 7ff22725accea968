// The device engine on the GPU (vm/backend/DeviceEngine.h): the program uploaded once per module,
// the state handed over through pinned memory, one launch of kernels/Engine.cu per hand-over. The
// engine runs in one block when the values are small enough for one multiprocessor, and as a
// cooperative grid when they are large (or STAR_ENGINE_MODE=block|grid says so).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/DeviceValue.h"
#include "vm/backend/BackgroundBuild.h"
#include "vm/backend/DeviceEngine.h"
#include "vm/backend/HandleTable.h"

namespace star::cuda {

class EngineKernels;

// A program's compiled kernels, in two steps: the builder (NVRTC, nvJitLink, the disk cache; no
// CUDA call, so that it may run on a thread of its own) gives an installer, which loads them on
// the engine's thread and returns them, or null: the interpreter's kernels run the program.
using KernelInstaller = std::function<EngineKernels*(CompileStats&)>;
using KernelBuilder = std::function<KernelInstaller(const EngineProgramImage&, CompileStats&)>;

class CudaEngine final : public DeviceEngine {
 public:
  // Without a builder, the interpreter's kernels (kernels/Engine.cu) run every program.
  CudaEngine(DeviceContext& ctx, HandleTable<DeviceValue>& values, KernelBuilder build = {})
      : ctx_(ctx), values_(values), build_(std::move(build)) {}
  ~CudaEngine() override;
  CudaEngine(const CudaEngine&) = delete;
  CudaEngine& operator=(const CudaEngine&) = delete;

  void load(const EngineProgramImage& image) override;
  void run(EngineRun& run) override;
  std::string shape() const override { return shape_; }
  std::uint64_t launches() const override { return launches_; }
  CompileStats compileStats() const override { return compileStats_; }
  void compileInBackground(bool on) override { background_ = on && build_; }

 private:
  void hostBuffer(std::uint64_t words);

  DeviceContext& ctx_;
  HandleTable<DeviceValue>& values_;
  KernelBuilder build_;
  EngineKernels* kernels_ = nullptr;  // the loaded program's
  CompileStats compileStats_;
  bool background_ = false;
  BackgroundBuild<KernelInstaller> pending_;
  std::uint64_t* gridBarrier_ = nullptr;  // compiled code's grid barrier: two 32-bit words, zero
  std::uint64_t gridBarrierCapacity_ = 0;
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
