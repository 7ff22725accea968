#include "runtime-cuda/CompiledBuild.h"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <optional>
#include <span>
#include <thread>
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

// Sources of `code`'s build in `pieces` parts, each compiled by NVRTC on a thread of its own and
// linked together (the generated functions are separate device functions, STAR_CFN, so a part
// needs the others' declarations only): the functions dealt out by size, largest first, to the
// part with the least so far; each part instantiates its own for the kernel's team, and the first
// holds the trampoline and the kernel.
std::vector<std::string> pieceSources(const compile::GeneratedCpp& code, bool grid,
                                      std::size_t pieces) {
  std::vector<std::size_t> order(code.functions.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return code.functions[a].size() > code.functions[b].size();
  });
  std::vector<std::string> bodies(pieces), instances(pieces);
  std::vector<std::size_t> load(pieces, 0);
  load[0] = code.trampoline.size();
  const std::string team =
      std::string("star::cuda::CompiledTeam<") + (grid ? "true" : "false") + ">";
  for (const std::size_t i : order) {
    const std::size_t p =
        static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    load[p] += code.functions[i].size();
    bodies[p] += code.functions[i];
    const std::string k = std::to_string(code.indices[i]);
    instances[p] += "template Exit f" + k + "<" + team + ">(Compiled<" + team + ">&);\n";
  }
  std::vector<std::string> sources;
  for (std::size_t p = 0; p < pieces; ++p) {
    std::string s =
        "#include \"runtime-cuda/kernels/CompiledTeam.cuh\"\n" + code.prelude + bodies[p];
    if (p == 0) s += code.trampoline;
    s += instances[p] + compile::GeneratedCpp::kNamespaceEnd;
    if (p == 0) s += compiledKernelsEntry(grid);
    sources.push_back(std::move(s));
  }
  return sources;
}

// The cores this process may run on (its affinity; hardware_concurrency counts the machine's).
std::size_t usableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

// How many parts a build of `code` compiles in: one per kPieceBytes of generated text, at most
// one per core and kMaxPieces ($STAR_COMPILE_PIECES sets it, for tests). Each part pays NVRTC's
// parse of the engine's headers (about 0.2 s) and runs its own NVRTC on every core, so small
// programs stay whole and a large machine does not run dozens of NVRTCs at once.
std::size_t piecesFor(const compile::GeneratedCpp& code, unsigned asked) {
  constexpr std::size_t kPieceBytes = 48 * 1024, kMaxPieces = 16;
  if (asked == 0)
    if (const char* e = std::getenv("STAR_COMPILE_PIECES"); e && *e)
      asked = static_cast<unsigned>(std::strtoul(e, nullptr, 10));
  std::size_t bytes = code.trampoline.size();
  for (const std::string& f : code.functions) bytes += f.size();
  const std::size_t n =
      asked ? asked
            : std::min({usableCores(), kMaxPieces, (bytes + kPieceBytes - 1) / kPieceBytes});
  return std::clamp<std::size_t>(
      n, 1, std::min(kMaxPieces, std::max<std::size_t>(1, code.functions.size())));
}

// Compiles each of `sources` with NVRTC, the first on this thread and the others on threads of
// their own (on this one too where no thread can be made); a part that fails, or whose compile
// throws, leaves its program empty with the reason in its error.
void compileParts(const NvrtcCompiler& nvrtc, const std::vector<std::string>& sources,
                  std::span<const EmbeddedFile> headers, int arch,
                  std::vector<std::string>& programs, std::vector<std::string>& errors) {
  programs.assign(sources.size(), std::string());
  errors.assign(sources.size(), std::string());
  // Each part's NVRTC on every core (--split-compile=0): on the GPU machine's 16 cores the graphs
  // unit built in 2.86 s so, and in 3.49 s with the cores shared out among the parts.
  const auto compileOne = [&](std::size_t i) noexcept {
    try {
      programs[i] = nvrtc.compile(sources[i], headers, arch, compiledCodeOptions(), errors[i]);
    } catch (const std::exception& e) {
      programs[i].clear();
      errors[i] = std::string("NVRTC could not compile the generated code: ") + e.what();
    }
  };
  std::vector<std::thread> others;
  std::size_t here = sources.size();  // the first part not given a thread
  try {
    others.reserve(sources.size());
    for (here = 1; here < sources.size(); ++here) others.emplace_back(compileOne, here);
  } catch (const std::exception&) {  // no more threads: the rest on this one
  }
  compileOne(0);
  for (std::size_t i = std::max<std::size_t>(here, 1); i < sources.size(); ++i) compileOne(i);
  for (std::thread& t : others) t.join();
}

// The build of the translation units `sources()` makes, cached under the key of `whole`.
GpuBuild buildSources(const std::string& whole,
                      const std::function<std::vector<std::string>()>& sources, int arch,
                      bool useCache) {
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
  out.key = fnv1a("sm_" + std::to_string(arch), fnv1a(whole, fixedKey(nvrtc)));
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
  const std::vector<std::string> parts = sources();
  out.parts = parts.size();
  const Stopwatch compiling;
  std::vector<std::string> programs, errors;
  compileParts(nvrtc, parts, headers, arch, programs, errors);
  out.compileSeconds = compiling.seconds();
  for (std::size_t i = 0; i < parts.size(); ++i)
    if (programs[i].empty()) {
      out.error = errors[i];
      return out;
    }

  // The library's own cubin where the architecture is the one star was built for; its PTX,
  // compiled by nvJitLink, for any other.
  const CompiledLibrary& library = compiledLibrary();
  const Stopwatch linking;
  std::vector<std::string> names(programs.size());  // alive through the link
  std::vector<LinkInput> inputs;
  for (std::size_t i = 0; i < programs.size(); ++i) {
    names[i] = "star_compiled_" + std::to_string(i) + ".cubin";
    inputs.push_back({LinkInput::Kind::Cubin, programs[i], names[i].c_str()});
  }
  inputs.push_back(
      arch == library.cubinArch
          ? LinkInput{LinkInput::Kind::Cubin, library.cubin, "star_compiled_library.cubin"}
          : LinkInput{LinkInput::Kind::Ptx, library.ptx, "star_compiled_library.ptx"});
  out.cubin = linker.link(inputs, arch, out.error);
  out.linkSeconds = linking.seconds();
  if (!out.cubin.empty()) cache.write(name, out.cubin);
  return out;
}

}  // namespace

GpuBuild buildForGpu(const compile::GeneratedCpp& code, bool grid, int arch, bool useCache,
                     unsigned pieces) {
  const std::string whole = code.text() + compiledKernelsEntry(grid);
  return buildSources(
      whole,
      [&] {
        const std::size_t n = piecesFor(code, pieces);
        return n == 1 ? std::vector<std::string>{whole} : pieceSources(code, grid, n);
      },
      arch, useCache);
}

}  // namespace star::cuda
