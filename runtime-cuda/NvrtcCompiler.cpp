#include "runtime-cuda/NvrtcCompiler.h"

#include <atomic>
#include <string>
#include <vector>

#include "core/KeepSignalFlags.h"
#include "runtime-cuda/DynamicLibrary.h"
#include "vm/compile/EmitCpp.h"

namespace star::cuda {

namespace {

// nvrtc.h's types and the entry points used, declared here: the header's functions are reached
// through dlsym only.
using nvrtcResult = int;
constexpr nvrtcResult kInvalidOption = 5;  // NVRTC_ERROR_INVALID_OPTION
using nvrtcProgram = struct _nvrtcProgram*;

// Stand-ins for the standard headers the engine includes (NVRTC ships none).
constexpr const char* kCstdint = "#pragma once\n#include \"core/FixedWidth.h\"\n";
constexpr const char* kConcepts = R"(#pragma once
namespace std {
template <class T, class U> inline constexpr bool star_same_ = false;
template <class T> inline constexpr bool star_same_<T, T> = true;
template <class T, class U> concept same_as = star_same_<T, U> && star_same_<U, T>;
template <class From, class To> concept convertible_to = requires(From (&f)()) { static_cast<To>(f()); };
}  // namespace std
)";
constexpr const char* kEmpty = "#pragma once\n";

}  // namespace

struct NvrtcCompiler::Api {
  nvrtcResult (*create)(nvrtcProgram*, const char*, const char*, int, const char* const*,
                        const char* const*);
  nvrtcResult (*compile)(nvrtcProgram, int, const char* const*);
  nvrtcResult (*logSize)(nvrtcProgram, std::size_t*);
  nvrtcResult (*log)(nvrtcProgram, char*);
  nvrtcResult (*cubinSize)(nvrtcProgram, std::size_t*);
  nvrtcResult (*cubin)(nvrtcProgram, char*);
  nvrtcResult (*destroy)(nvrtcProgram*);
  nvrtcResult (*version)(int*, int*);
};

NvrtcCompiler::NvrtcCompiler() {
  const auto& loaded = loadCudaApi<Api>("nvrtc", "NVRTC", [](void* lib, Api& a) {
    auto sym = [&](auto& f, const char* name) { return bindSymbol(lib, f, name); };
    return sym(a.create, "nvrtcCreateProgram") && sym(a.compile, "nvrtcCompileProgram") &&
           sym(a.logSize, "nvrtcGetProgramLogSize") && sym(a.log, "nvrtcGetProgramLog") &&
           sym(a.cubinSize, "nvrtcGetCUBINSize") && sym(a.cubin, "nvrtcGetCUBIN") &&
           sym(a.destroy, "nvrtcDestroyProgram") && sym(a.version, "nvrtcVersion");
  });
  api_ = loaded.api;
  reason_ = loaded.reason;
}

std::vector<std::string> compiledCodeOptions() {
  std::vector<std::string> o = compile::deviceOpcodeDefines();
  o.push_back("-DSTAR_CFN=__device__ __noinline__");
  // Relocatable code that calls the interpreter's code in CompiledLibrary.cu (linked afterwards,
  // DeviceLinker.h) rather than compiling it again. Its own registers are bounded by the kernels'
  // launch bounds (engine::kCompiledMaxThreads), not by the library's 64.
  for (const char* x : {"-rdc=true", "-DSTAR_COMPILED_LINKED"}) o.push_back(x);
  return o;
}

std::string NvrtcCompiler::version() const {
  int major = 0, minor = 0;
  if (api_) api_->version(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string NvrtcCompiler::compile(const std::string& source, std::span<const EmbeddedFile> headers,
                                   int arch, const std::vector<std::string>& options,
                                   std::string& error) const {
  if (!api_) {
    error = reason_;
    return "";
  }
  std::vector<std::string> names, texts;
  for (const EmbeddedFile& h : headers) {
    names.emplace_back(h.path);
    texts.emplace_back(h.text);
  }
  names.insert(names.end(), {"cstdint", "concepts", "bit", "cstddef", "type_traits"});
  texts.insert(texts.end(), {kCstdint, kConcepts, kEmpty, kEmpty, kEmpty});
  std::vector<const char*> nameP, textP;
  for (std::size_t i = 0; i < names.size(); ++i) {
    nameP.push_back(names[i].c_str());
    textP.push_back(texts[i].c_str());
  }
  std::vector<std::string> opts = {"--std=c++20", "-arch=sm_" + std::to_string(arch),
                                   "-default-device"};
  opts.insert(opts.end(), options.begin(), options.end());
  // One compilation with `with`: the cubin, or "" with `error` set; `rc` is NVRTC's result.
  auto once = [&](const std::vector<std::string>& with, nvrtcResult& rc) -> std::string {
    std::vector<const char*> optP;
    for (const std::string& o : with) optP.push_back(o.c_str());
    // NVRTC swaps the signal handlers while it compiles; the last of the compiles running at
    // once puts them back.
    const KeepSignalFlags keep;
    nvrtcProgram prog = nullptr;
    if ((rc = api_->create(&prog, source.c_str(), "star_compiled.cu",
                           static_cast<int>(names.size()), textP.data(), nameP.data())) != 0) {
      error = "NVRTC could not take the program";
      return "";
    }
    std::string cubin;
    if ((rc = api_->compile(prog, static_cast<int>(optP.size()), optP.data())) != 0) {
      std::size_t n = 0;
      api_->logSize(prog, &n);
      std::string log(n, '\0');
      if (n) api_->log(prog, log.data());
      if (log.size() > 4000) log = log.substr(0, 4000) + "...";
      error = "NVRTC failed on the generated code:\n" + log;
    } else {
      std::size_t n = 0;
      api_->cubinSize(prog, &n);
      cubin.assign(n, '\0');
      if (n) api_->cubin(prog, cubin.data());
    }
    api_->destroy(&prog);
    return cubin;
  };
  // The functions of a program optimised and assembled on every core: the graphs unit's block
  // form took 3.85 s on one thread of this project's development machine and 2.62 s on its two
  // cores. An NVRTC without the option refuses it (NVRTC_ERROR_INVALID_OPTION), and then this
  // process compiles on one thread.
  static std::atomic<bool> splitRefused{false};
  nvrtcResult rc = 0;
  if (!splitRefused) {
    std::vector<std::string> split = opts;
    split.emplace_back("--split-compile=0");
    std::string cubin = once(split, rc);
    if (rc != kInvalidOption) return cubin;
    splitRefused = true;
    error.clear();
  }
  return once(opts, rc);
}

}  // namespace star::cuda
