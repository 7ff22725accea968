#include "runtime-cuda/CompiledEngine.h"

#include <cuda_runtime_api.h>

#include <iostream>
#include <map>
#include <mutex>
#include <vector>

#include "core/DiskCache.h"
#include "core/Stopwatch.h"
#include "runtime-cuda/CompiledBuild.h"
#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/Engine.h"
#include "vm/compile/EmitCpp.h"

namespace star::cuda {

namespace {

// The programs loaded so far, by their generated source: the REPL and a script's repeated runs
// load the same program again and again. Builds may run on threads of their own (prepare); every
// CUDA call is made on the engine's thread (the installers, the grid form's build).
class CompiledPrograms {
 public:
  explicit CompiledPrograms(bool useCache) : useCache_(useCache), arch_(deviceArch()) {}
  ~CompiledPrograms() {
    for (cudaLibrary_t l : libraries_) cudaLibraryUnload(l);
  }
  CompiledPrograms(const CompiledPrograms&) = delete;
  CompiledPrograms& operator=(const CompiledPrograms&) = delete;

  // The build of a program's block form (its grid form is built when a run first needs the
  // grid); the installer loads it and gives the program's kernels (null: the interpreter's).
  KernelInstaller prepare(const EngineProgramImage& image, CompileStats& stats) {
    compile::GeneratedCpp code = compile::emitCppParts(image);
    const std::uint64_t key = fnv1a(code.text());
    {
      const std::lock_guard lock(mutex_);
      if (auto it = loaded_.find(key); it != loaded_.end())
        return [kernels = it->second.get()](CompileStats&) { return kernels; };
    }
    GpuBuild blockBuild = build(code, false, stats);
    return [this, key, code = std::move(code),
            blockBuild = std::move(blockBuild)](CompileStats& stats) -> EngineKernels* {
      const void* block = load(blockBuild, false, stats);
      if (!block) return nullptr;
      auto kernels =
          std::make_unique<EngineKernels>([this, block, code, &stats](bool grid) -> const void* {
            if (!grid) return block;
            // The grid form cannot fail where the block form built; if it does, the
            // interpreter's grid kernel runs the same protocol on the same state.
            const void* k = load(build(code, true, stats), true, stats);
            return k ? k : interpreterKernel(true);
          });
      const std::lock_guard lock(mutex_);
      std::unique_ptr<EngineKernels>& slot = loaded_[key];
      if (!slot) slot = std::move(kernels);
      return slot.get();
    };
  }

 private:
  // One form of a program built, or taken from the cache (no CUDA call), counted in `stats`.
  GpuBuild build(const compile::GeneratedCpp& code, bool grid, CompileStats& stats) const {
    const Stopwatch watch;
    GpuBuild b = buildForGpu(code, grid, arch_, useCache_);
    stats.seconds += watch.seconds();
    if (!b.cubin.empty()) (b.fromCache ? stats.hits : stats.misses) += 1;
    return b;
  }
  // One form of a program loaded; null if it cannot be (star says why, once).
  const void* load(const GpuBuild& build, bool grid, CompileStats& stats) {
    if (build.cubin.empty()) return refuse(build.error);
    const Stopwatch watch;
    cudaLibrary_t library = nullptr;
    if (cudaLibraryLoadData(&library, build.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr,
                            0) != cudaSuccess) {
      cudaGetLastError();
      return refuse("the GPU's driver could not load the compiled code");
    }
    libraries_.push_back(library);
    cudaKernel_t kernel = nullptr;
    if (cudaLibraryGetKernel(&kernel, library,
                             grid ? "star_compiled_grid" : "star_compiled_block") != cudaSuccess) {
      cudaGetLastError();
      return refuse("the compiled code lacks its kernel");
    }
    stats.seconds += watch.seconds();
    return reinterpret_cast<const void*>(kernel);
  }

  static int deviceArch() {
    int device = 0, major = 0, minor = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device),
          "compute capability");
    check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device),
          "compute capability");
    return major * 10 + minor;
  }
  std::nullptr_t refuse(const std::string& why) {
    if (!said_)
      std::cerr << "star: no compiled code: " << why << "; the interpreter runs the program\n";
    said_ = true;
    return nullptr;
  }

  bool useCache_;
  int arch_;
  bool said_ = false;
  std::mutex mutex_;  // loaded_, which builds on other threads look up
  std::map<std::uint64_t, std::unique_ptr<EngineKernels>> loaded_;
  std::vector<cudaLibrary_t> libraries_;
};

}  // namespace

std::unique_ptr<CudaEngine> makeCompiledCudaEngine(DeviceContext& ctx,
                                                   HandleTable<DeviceValue>& values,
                                                   bool useCache) {
  auto programs = std::make_shared<CompiledPrograms>(useCache);
  return std::make_unique<CudaEngine>(
      ctx, values, [programs](const EngineProgramImage& image, CompileStats& stats) {
        return programs->prepare(image, stats);
      });
}

}  // namespace star::cuda
