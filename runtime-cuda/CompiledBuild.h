// The compiled tier's GPU build: a program's generated C++ (vm/compile/EmitCpp.h) to a cubin that
// the runtime loads. NVRTC compiles the program with its kernels (kernels/CompiledKernels.cuh) to
// relocatable code; nvJitLink links the interpreter's code star carries (CompiledLibrary.h) to it.
// Neither needs a GPU. The result is kept in the disk cache (core/DiskCache.h) under a key of the
// source, the embedded headers, the library, the architecture, NVRTC's version and star's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "vm/compile/EmitCpp.h"

namespace star::cuda {

struct GpuBuild {
  std::string cubin;  // "" when the build failed (error says why)
  std::string error;
  bool fromCache = false;
  double compileSeconds = 0;  // NVRTC
  double linkSeconds = 0;     // nvJitLink
  std::size_t parts = 0;      // the translation units NVRTC compiled (0: none, from the cache)
  std::uint64_t key = 0;      // the cache key (a loaded program is known by it)
};

// `code`: emitCppParts's output, without the kernels (appended here: the grid form, or the block
// form); the cache entry is that of its whole text. A large program is compiled in parts side by
// side, one per core at most, and linked (`pieces`: how many; 0 chooses from the code's size, or
// $STAR_COMPILE_PIECES; 1: whole). arch: e.g. 90 for sm_90.
GpuBuild buildForGpu(const compile::GeneratedCpp& code, bool grid, int arch, bool useCache,
                     unsigned pieces = 0);

}  // namespace star::cuda
