// A CUDA toolkit library loaded at run time (dlopen), so that star starts where it is missing and
// says so: NVRTC (NvrtcCompiler.h) and nvJitLink (DeviceLinker.h).
#pragma once

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <type_traits>

namespace star::cuda {

// lib<stem>.so.13, .so.12, .so, then under $CUDA_HOME and /usr/local/cuda; null if none loads.
// $STAR_CUDA_LIBRARY_PATH, where set, is the one directory looked in (a toolkit installed
// elsewhere; tests, to see star without one).
inline void* openCudaLibrary(const std::string& stem) {
  std::string names[] = {"lib" + stem + ".so.13", "lib" + stem + ".so.12", "lib" + stem + ".so", "",
                         ""};
  if (const char* only = std::getenv("STAR_CUDA_LIBRARY_PATH"); only && *only) {
    for (std::string& n : names)
      if (!n.empty()) n = std::string(only) + "/" + n;
  } else {
    if (const char* home = std::getenv("CUDA_HOME"); home && *home)
      names[3] = std::string(home) + "/lib64/lib" + stem + ".so";
    names[4] = "/usr/local/cuda/lib64/lib" + stem + ".so";
  }
  for (const std::string& n : names)
    if (!n.empty())
      if (void* lib = ::dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL)) return lib;
  return nullptr;
}

// f = the library's `name`; false if it has none.
template <class F>
bool bindSymbol(void* lib, F& f, const char* name) {
  f = reinterpret_cast<F>(::dlsym(lib, name));
  return f != nullptr;
}

// A library's entry points, loaded once per Api type: `api` (bind(lib, api) filled it), or null
// with `reason` saying why (the library is missing, or lacks an entry point).
template <class Api>
struct LoadedApi {
  const Api* api = nullptr;
  std::string reason;
};
template <class Api, class Bind>
const LoadedApi<Api>& loadCudaApi(const std::string& stem, const std::string& name, Bind bind) {
  static const LoadedApi<Api> loaded = [&] {
    LoadedApi<Api> r;
    void* lib = openCudaLibrary(stem);
    if (!lib) {
      r.reason = name + " (lib" + stem + ") is not installed or not on the library path";
      return r;
    }
    static Api a{};
    if (!bind(lib, a)) {
      r.reason = "lib" + stem + " lacks an entry point star needs";
      return r;
    }
    r.api = &a;
    return r;
  }();
  return loaded;
}

}  // namespace star::cuda
