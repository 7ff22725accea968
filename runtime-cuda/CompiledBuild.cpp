#include "runtime-cuda/CompiledBuild.h"

#include <chrono>
#include <cstdio>
#include <optional>
#include <vector>

#include "core/DiskCache.h"
#include "runtime-cuda/CompiledLibrary.h"
#include "runtime-cuda/DeviceLinker.h"
#include "runtime-cuda/NvrtcCompiler.h"
#include "vm/compile/EmitCpp.h"

namespace star::cuda {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::string hex(std::uint64_t v) {
  char s[17];
  std::snprintf(s, sizeof s, "%016llx", static_cast<unsigned long long>(v));
  return s;
}

}  // namespace

GpuBuild buildForGpu(const std::string& generated, bool grid, int arch, bool useCache) {
  GpuBuild out;
  const NvrtcCompiler nvrtc;
  const DeviceLinker linker;
  if (!nvrtc.available()) {
    out.error = nvrtc.unavailableReason();
    return out;
  }
  if (!linker.available()) {
    out.error = linker.unavailableReason();
    return out;
  }
  const std::string source = generated + compiledKernelsEntry(grid);
  const CompiledLibrary& library = compiledLibrary();
  std::uint64_t key = fnv1a(source, compile::generatorKey());
  key = fnv1a(library.cubin, fnv1a(library.ptx, key));
  for (const EmbeddedFile& h : compiledKernelHeaders()) key = fnv1a(h.text, fnv1a(h.path, key));
  key = fnv1a(nvrtc.version() + "/sm_" + std::to_string(arch), key);
  out.key = key;
  const std::string name = "cuda-" + hex(key) + ".cubin";
  const DiskCache cache(useCache ? cacheDirectory() : "");
  if (std::optional<std::string> hit = cache.read(name)) {
    out.cubin = std::move(*hit);
    out.fromCache = true;
    return out;
  }

  std::vector<EmbeddedFile> headers(compile::engineHeaders().begin(),
                                    compile::engineHeaders().end());
  for (const EmbeddedFile& f : compiledKernelHeaders()) headers.push_back(f);
  auto started = std::chrono::steady_clock::now();
  const std::string program =
      nvrtc.compile(source, headers, arch, compiledCodeOptions(), out.error);
  out.compileSeconds = secondsSince(started);
  if (program.empty()) return out;

  // The library's own cubin where the architecture is the one star was built for; its PTX,
  // compiled by nvJitLink, for any other.
  started = std::chrono::steady_clock::now();
  const LinkInput inputs[] = {
      {LinkInput::Kind::Cubin, program, "star_compiled.cubin"},
      arch == library.cubinArch
          ? LinkInput{LinkInput::Kind::Cubin, library.cubin, "star_compiled_library.cubin"}
          : LinkInput{LinkInput::Kind::Ptx, library.ptx, "star_compiled_library.ptx"}};
  out.cubin = linker.link(inputs, arch, out.error);
  out.linkSeconds = secondsSince(started);
  if (!out.cubin.empty()) cache.write(name, out.cubin);
  return out;
}

}  // namespace star::cuda
