// kernels/CompiledLibrary.cu's build outputs inside the binary, by the assembler's .incbin (the
// paths are the build directory's, read at build time only; CMake passes them).
#include "runtime-cuda/CompiledLibrary.h"

#define STAR_INCBIN(name, path)                                                      \
  asm(".section .rodata\n.balign 16\n.globl " #name "\n.hidden " #name "\n" #name    \
      ":\n.incbin \"" path "\"\n.globl " #name "_end\n.hidden " #name "_end\n" #name \
      "_end:\n.byte 0\n.previous\n")

STAR_INCBIN(star_compiled_library_cubin, STAR_COMPILED_LIBRARY_CUBIN);
STAR_INCBIN(star_compiled_library_ptx, STAR_COMPILED_LIBRARY_PTX);

extern "C" const char star_compiled_library_cubin[], star_compiled_library_cubin_end[];
extern "C" const char star_compiled_library_ptx[], star_compiled_library_ptx_end[];

namespace star::cuda {

const CompiledLibrary& compiledLibrary() {
  static const CompiledLibrary library{
      {star_compiled_library_cubin,
       static_cast<std::size_t>(star_compiled_library_cubin_end - star_compiled_library_cubin)},
      {star_compiled_library_ptx,
       static_cast<std::size_t>(star_compiled_library_ptx_end - star_compiled_library_ptx)},
      STAR_COMPILED_LIBRARY_ARCH};
  return library;
}

}  // namespace star::cuda
