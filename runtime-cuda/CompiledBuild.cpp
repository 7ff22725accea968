#include "runtime-cuda/CompiledBuild.h"

#include <optional>
#include <vector>

#include "core/DiskCache.h"
#include "core/Stopwatch.h"
#include "runtime-cuda/CompiledLibrary.h"
#include "runtime-cuda/DeviceLinker.h"
#include "runtime-cuda/NvrtcCompiler.h"
#include "vm/compile/EmitCpp.h"

namespace star::cuda {

namespace {

// Everything besides the program and the architecture that changes the build: the generator
// and the engine's headers, the kernels' headers, the linked library, NVRTC's version. Hashed once
// (the library alone is 1.8 MB).
std::uint64_t fixedKey(const NvrtcCompiler& nvrtc) {
  static const std::uint64_t key = [&] {
    const CompiledLibrary& library = compiledLibrary();
    std::uint64_t k = fnv1a(library.cubin, fnv1a(library.ptx, compile::generatorKey()));
    for (const EmbeddedFile& h : compiledKernelHeaders()) k = fnv1a(h.text, fnv1a(h.path, k));
    return fnv1a(nvrtc.version(), k);
  }();
  return key;
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
  out.key = fnv1a("sm_" + std::to_string(arch), fnv1a(source, fixedKey(nvrtc)));
  const std::string name = cacheEntryName("cuda", out.key, ".cubin");
  const DiskCache cache(useCache ? cacheDirectory() : "");
  if (std::optional<std::string> hit = cache.read(name)) {
    out.cubin = std::move(*hit);
    out.fromCache = true;
    return out;
  }

  std::vector<EmbeddedFile> headers(compile::engineHeaders().begin(),
                                    compile::engineHeaders().end());
  for (const EmbeddedFile& f : compiledKernelHeaders()) headers.push_back(f);
  const Stopwatch compiling;
  const std::string program =
      nvrtc.compile(source, headers, arch, compiledCodeOptions(), out.error);
  out.compileSeconds = compiling.seconds();
  if (program.empty()) return out;

  // The library's own cubin where the architecture is the one star was built for; its PTX,
  // compiled by nvJitLink, for any other.
  const CompiledLibrary& library = compiledLibrary();
  const Stopwatch linking;
  const LinkInput inputs[] = {
      {LinkInput::Kind::Cubin, program, "star_compiled.cubin"},
      arch == library.cubinArch
          ? LinkInput{LinkInput::Kind::Cubin, library.cubin, "star_compiled_library.cubin"}
          : LinkInput{LinkInput::Kind::Ptx, library.ptx, "star_compiled_library.ptx"}};
  out.cubin = linker.link(inputs, arch, out.error);
  out.linkSeconds = linking.seconds();
  if (!out.cubin.empty()) cache.write(name, out.cubin);
  return out;
}

}  // namespace star::cuda
