// The compiled tier's GPU build, its second step: nvJitLink (loaded at run time, as NVRTC is)
// links a program's relocatable cubin from NVRTC with the interpreter's code star carries
// (CompiledLibrary.h) into one cubin that the runtime loads. Linking needs no GPU.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace star::cuda {

struct LinkInput {
  enum class Kind { Cubin, Ptx } kind;
  std::string_view data;  // PTX without its terminating NUL
  const char* name;
};

class DeviceLinker {
 public:
  DeviceLinker();
  bool available() const { return api_ != nullptr; }
  const std::string& unavailableReason() const { return reason_; }

  // The linked cubin for sm_<arch>, or "" with `error` set (nvJitLink's log).
  std::string link(std::span<const LinkInput> inputs, int arch, std::string& error) const;

 private:
  struct Api;
  const Api* api_ = nullptr;
  std::string reason_;
};

}  // namespace star::cuda
