// A stand-in for libnvrtc that refuses `--split-compile` as an NVRTC without the option does
// (NVRTC_ERROR_INVALID_OPTION) and passes everything else to the real library
// (STAR_REAL_NVRTC, a path set by the build): for the test that the compiled tier's build then
// compiles on one thread (nvrtc_compile_test). It sets STAR_TEST_NVRTC_REFUSED=1 when it refuses.
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

namespace {
void* real() {
  static void* lib = ::dlopen(STAR_REAL_NVRTC, RTLD_NOW | RTLD_LOCAL);
  return lib;
}
template <class F>
F entry(const char* name) {
  return reinterpret_cast<F>(::dlsym(real(), name));
}
}  // namespace

extern "C" {

using Program = void*;

int nvrtcCreateProgram(Program* p, const char* src, const char* name, int n, const char* const* h,
                       const char* const* names) {
  return entry<int (*)(Program*, const char*, const char*, int, const char* const*,
                       const char* const*)>("nvrtcCreateProgram")(p, src, name, n, h, names);
}
int nvrtcCompileProgram(Program p, int n, const char* const* options) {
  for (int i = 0; i < n; ++i)
    if (std::strncmp(options[i], "--split-compile", 15) == 0) {
      ::setenv("STAR_TEST_NVRTC_REFUSED", "1", 1);
      return 5;  // NVRTC_ERROR_INVALID_OPTION
    }
  return entry<int (*)(Program, int, const char* const*)>("nvrtcCompileProgram")(p, n, options);
}
int nvrtcGetProgramLogSize(Program p, std::size_t* n) {
  return entry<int (*)(Program, std::size_t*)>("nvrtcGetProgramLogSize")(p, n);
}
int nvrtcGetProgramLog(Program p, char* log) {
  return entry<int (*)(Program, char*)>("nvrtcGetProgramLog")(p, log);
}
int nvrtcGetCUBINSize(Program p, std::size_t* n) {
  return entry<int (*)(Program, std::size_t*)>("nvrtcGetCUBINSize")(p, n);
}
int nvrtcGetCUBIN(Program p, char* cubin) {
  return entry<int (*)(Program, char*)>("nvrtcGetCUBIN")(p, cubin);
}
int nvrtcDestroyProgram(Program* p) {
  return entry<int (*)(Program*)>("nvrtcDestroyProgram")(p);
}
int nvrtcVersion(int* major, int* minor) {
  return entry<int (*)(int*, int*)>("nvrtcVersion")(major, minor);
}

}  // extern "C"
