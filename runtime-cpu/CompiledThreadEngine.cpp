// The compiled tier on host threads: each program the engine loads becomes C++ (vm/compile/), built
// by the host's C++ compiler into a shared object (HostCompiler.h) whose entry runs on the same
// ThreadTeam as the interpreter engine. CI runs every golden test this way, without a GPU.
#include <iostream>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime-cpu/HostCompiler.h"
#include "runtime-cpu/ThreadEngine.h"
#include "vm/compile/EmitCpp.h"

namespace star::cpu {

namespace {

// The entry the host build adds to the generated code.
constexpr const char* kHostEntry = R"(
#include "runtime-cpu/ThreadTeam.h"

extern "C" void star_compiled_run(star::cpu::ThreadTeam& t, const star::engine::Program& p,
                                  star::engine::Region s) {
  star_compiled::run(t, p, s);
}
)";

}  // namespace

std::unique_ptr<DeviceEngine> makeCompiledThreadEngine(EngineStorage& storage, bool useCache) {
  // One compiler for the engine's builds, which may run on threads of their own (--engine=tiered):
  // one at a time.
  struct Shared {
    HostCompiler compiler;
    std::mutex mutex;
  };
  auto shared = std::make_shared<Shared>();
  return makeThreadEngine(
      storage,
      [shared, useCache](const EngineProgramImage& image, CompileStats& stats) -> TeamRun {
        const std::string source = compile::emitCpp(image) + kHostEntry;
        std::vector<EmbeddedFile> headers(compile::engineHeaders().begin(),
                                          compile::engineHeaders().end());
        for (const EmbeddedFile& f : threadTeamHeaders()) headers.push_back(f);
        std::string error;
        const std::lock_guard lock(shared->mutex);
        const HostCompileStats before = shared->compiler.stats();
        void* entry = shared->compiler.compile(source, headers, "star_compiled_run", useCache, error);
        const HostCompileStats& after = shared->compiler.stats();
        stats.hits += after.hits - before.hits;
        stats.misses += after.misses - before.misses;
        stats.seconds += after.seconds - before.seconds;
        if (!entry) {
          static bool said = false;
          if (!said)
            std::cerr << "star: no compiled code: " << error
                      << "; the interpreter runs the program\n";
          said = true;
          return nullptr;
        }
        return reinterpret_cast<TeamRun>(entry);
      });
}

}  // namespace star::cpu
