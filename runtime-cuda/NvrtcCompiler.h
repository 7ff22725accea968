// The compiled tier's GPU build, its first half: generated C++ (vm/compile/EmitCpp.h) compiled
// with NVRTC, in memory, to a cubin for one GPU architecture. NVRTC is loaded at run time
// (dlopen of libnvrtc), so that star starts where it is missing and can say so. The engine's
// headers come from the binary (vm/compile's engineHeaders); NVRTC has no C++ standard library, so
// the two standard headers the engine needs (<cstdint>, <concepts>) are given as small stand-ins.
//
// CompiledBuild.h links the result (relocatable code) with the interpreter's code and caches it.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/EmbeddedFile.h"

namespace star::cuda {

// The kernels compiled code runs in (runtime-cuda/kernels/CompiledKernels.cuh and what it
// includes), embedded; compiledKernelsEntry(grid) is the text that appends one form of them to
// generated code.
std::span<const EmbeddedFile> compiledKernelHeaders();
inline std::string compiledKernelsEntry(bool grid) {
  return std::string("\n#define STAR_COMPILED_GRID ") + (grid ? "1" : "0") +
         "\n#include \"runtime-cuda/kernels/CompiledKernels.cuh\"\n";
}

// NVRTC's options for compiled code: the opcode macros (vm/compile's deviceOpcodeDefines) and each
// compiled function kept a function of its own (STAR_CFN): inlined into the trampoline, the
// kernels grow so large that ptxas takes minutes.
std::vector<std::string> compiledCodeOptions();

class NvrtcCompiler {
 public:
  NvrtcCompiler();
  // Whether libnvrtc could be loaded; otherwise why not.
  bool available() const { return api_ != nullptr; }
  const std::string& unavailableReason() const { return reason_; }
  std::string version() const;

  // The cubin of `source` for sm_<arch> (e.g. 90), or "" with `error` set (NVRTC's log).
  std::string compile(const std::string& source, std::span<const EmbeddedFile> headers, int arch,
                      const std::vector<std::string>& options, std::string& error) const;

 private:
  struct Api;
  const Api* api_ = nullptr;
  std::string reason_;
};

}  // namespace star::cuda
