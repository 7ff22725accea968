#include "runtime-cuda/DeviceLinker.h"

#include <cstdint>
#include <vector>

#include "runtime-cuda/DynamicLibrary.h"

namespace star::cuda {

namespace {

// nvJitLink.h's types (its functions are reached through dlsym only).
using nvJitLinkResult = int;
using nvJitLinkHandle = struct nvJitLink*;
constexpr int kInputCubin = 1, kInputPtx = 2;  // nvJitLinkInputType

}  // namespace

struct DeviceLinker::Api {
  nvJitLinkResult (*create)(nvJitLinkHandle*, std::uint32_t, const char**);
  nvJitLinkResult (*addData)(nvJitLinkHandle, int, const void*, std::size_t, const char*);
  nvJitLinkResult (*complete)(nvJitLinkHandle);
  nvJitLinkResult (*cubinSize)(nvJitLinkHandle, std::size_t*);
  nvJitLinkResult (*cubin)(nvJitLinkHandle, void*);
  nvJitLinkResult (*errorLogSize)(nvJitLinkHandle, std::size_t*);
  nvJitLinkResult (*errorLog)(nvJitLinkHandle, char*);
  nvJitLinkResult (*destroy)(nvJitLinkHandle*);
};

DeviceLinker::DeviceLinker() {
  const auto& loaded = loadCudaApi<Api>("nvJitLink", "nvJitLink", [](void* lib, Api& a) {
    auto sym = [&](auto& f, const char* name) { return bindSymbol(lib, f, name); };
    return sym(a.create, "nvJitLinkCreate") && sym(a.addData, "nvJitLinkAddData") &&
           sym(a.complete, "nvJitLinkComplete") &&
           sym(a.cubinSize, "nvJitLinkGetLinkedCubinSize") &&
           sym(a.cubin, "nvJitLinkGetLinkedCubin") &&
           sym(a.errorLogSize, "nvJitLinkGetErrorLogSize") &&
           sym(a.errorLog, "nvJitLinkGetErrorLog") && sym(a.destroy, "nvJitLinkDestroy");
  });
  api_ = loaded.api;
  reason_ = loaded.reason;
}

std::string DeviceLinker::link(std::span<const LinkInput> inputs, int arch,
                               std::string& error) const {
  if (!api_) {
    error = reason_;
    return "";
  }
  // 64 registers, as the kernels' launch bounds need when PTX is compiled here.
  const std::string archOption = "-arch=sm_" + std::to_string(arch);
  const char* options[] = {archOption.c_str(), "-maxrregcount=64"};
  nvJitLinkHandle h = nullptr;
  if (api_->create(&h, 2, options) != 0) {
    error = "nvJitLink could not start a link for sm_" + std::to_string(arch);
    return "";
  }
  auto failed = [&](const std::string& what) {
    std::size_t n = 0;
    api_->errorLogSize(h, &n);
    std::string log(n, '\0');
    if (n) api_->errorLog(h, log.data());
    if (log.size() > 4000) log = log.substr(0, 4000) + "...";
    error = "nvJitLink failed " + what + (log.empty() ? "" : ":\n" + log);
    api_->destroy(&h);
    return std::string();
  };
  for (const LinkInput& in : inputs) {
    // PTX goes in with its terminating NUL.
    std::string ptx;
    const void* data = in.data.data();
    std::size_t size = in.data.size();
    if (in.kind == LinkInput::Kind::Ptx) {
      ptx.assign(in.data);
      data = ptx.c_str();
      size = ptx.size() + 1;
    }
    if (api_->addData(h, in.kind == LinkInput::Kind::Ptx ? kInputPtx : kInputCubin, data, size,
                      in.name) != 0)
      return failed(std::string("on ") + in.name);
  }
  if (api_->complete(h) != 0) return failed("to link");
  std::size_t n = 0;
  api_->cubinSize(h, &n);
  std::string cubin(n, '\0');
  if (n) api_->cubin(h, cubin.data());
  api_->destroy(&h);
  return cubin;
}

}  // namespace star::cuda
