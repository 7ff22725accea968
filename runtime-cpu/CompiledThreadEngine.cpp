// The compiled tier on host threads: each program the engine loads becomes C++ (vm/compile/), built
// by the host's C++ compiler into a shared object (HostCompiler.h) whose entry runs on the same
// ThreadTeam as the interpreter engine. CI runs every golden test this way, without a GPU.
#include <iostream>
#include <memory>
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
  auto compiler = std::make_shared<HostCompiler>();
  return makeThreadEngine(
      storage,
      [compiler, useCache](const EngineProgramImage& image, CompileStats& stats) -> TeamRun {
        const std::string source = compile::emitCpp(image) + kHostEntry;
        std::vector<EmbeddedFile> headers(compile::engineHeaders().begin(),
                                          compile::engineHeaders().end());
        for (const EmbeddedFile& f : threadTeamHeaders()) headers.push_back(f);
        std::string error;
        void* entry = compiler->compile(source, headers, "star_compiled_run", useCache, error);
        stats.hits = compiler->stats().hits;
        stats.misses = compiler->stats().misses;
        stats.seconds = compiler->stats().seconds;
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
