// The interpreter's code that compiled code calls on the GPU (kernels/CompiledLibrary.cu), as star
// carries it: a relocatable cubin for the architecture star was built for, and relocatable PTX
// that nvJitLink compiles for any newer one.
#pragma once

#include <string_view>

namespace star::cuda {

struct CompiledLibrary {
  std::string_view cubin;  // relocatable ELF for sm_<cubinArch>
  std::string_view ptx;    // relocatable PTX (text, without its terminating NUL)
  int cubinArch = 0;
};

const CompiledLibrary& compiledLibrary();

}  // namespace star::cuda
