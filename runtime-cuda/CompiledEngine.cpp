#include "runtime-cuda/CompiledEngine.h"

#include <cuda_runtime_api.h>

#include <chrono>
#include <iostream>
#include <map>
#include <vector>

#include "core/DiskCache.h"
#include "runtime-cuda/CompiledBuild.h"
#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/Engine.h"
#include "vm/compile/EmitCpp.h"

namespace star::cuda {

namespace {

// The programs loaded so far, by their generated source: the REPL and a script's repeated runs
// load the same program again and again.
class CompiledPrograms {
 public:
  explicit CompiledPrograms(bool useCache) : useCache_(useCache) {}
  ~CompiledPrograms() {
    for (cudaLibrary_t l : libraries_) cudaLibraryUnload(l);
  }
  CompiledPrograms(const CompiledPrograms&) = delete;
  CompiledPrograms& operator=(const CompiledPrograms&) = delete;

  // The program's kernels: its block form built now (a failure leaves the program to the
  // interpreter), its grid form when a run first needs it.
  EngineKernels* kernelsFor(const EngineProgramImage& image, CompileStats& stats) {
    std::string source = compile::emitCpp(image);
    const std::uint64_t key = fnv1a(source);
    if (auto it = loaded_.find(key); it != loaded_.end()) return it->second.get();
    const void* block = load(source, false, stats);
    if (!block) return nullptr;
    std::unique_ptr<EngineKernels>& kernels = loaded_[key];
    kernels = std::make_unique<EngineKernels>(
        [this, block, source = std::move(source), &stats](bool grid) -> const void* {
          if (!grid) return block;
          // The grid form cannot fail where the block form built; if it does, the interpreter's
          // grid kernel runs the same protocol on the same state.
          const void* k = load(source, true, stats);
          return k ? k : interpreterKernel(true);
        });
    return kernels.get();
  }

 private:
  // One form of the program built (or taken from the cache) and loaded; null if it cannot be.
  const void* load(const std::string& source, bool grid, CompileStats& stats) {
    const auto started = std::chrono::steady_clock::now();
    const GpuBuild build = buildForGpu(source, grid, arch(), useCache_);
    if (build.cubin.empty()) return refuse(build.error);
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
    (build.fromCache ? stats.hits : stats.misses) += 1;
    stats.seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return reinterpret_cast<const void*>(kernel);
  }

  static int arch() {
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
  bool said_ = false;
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
        return programs->kernelsFor(image, stats);
      });
}

}  // namespace star::cuda
