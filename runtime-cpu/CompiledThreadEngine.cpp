// The compiled tier on host threads: each program the engine loads becomes C++ (vm/compile/), built
// by the host's C++ compiler into a shared object (HostCompiler.h) whose entry runs on the same
// ThreadTeam as the interpreter engine. CI runs every golden test this way, without a GPU.
#include <iostream>
#include <memory>
#include <vector>

#include "runtime-cpu/HostCompiler.h"
#include "runtime-cpu/ThreadEngine.h"
#include "vm/compile/CompiledIr.h"
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

// The functions of an engine image with plain opcodes again (its op words carry flags).
std::vector<std::vector<std::uint32_t>> plainCode(const EngineProgramImage& image) {
  std::vector<std::vector<std::uint32_t>> out;
  for (const engine::FunctionInfo& f : image.functions) {
    std::vector<std::uint32_t> code(image.code.begin() + f.code,
                                    image.code.begin() + f.code + f.codeSize);
    for (std::size_t pc = 0; pc < code.size();) {
      const std::uint32_t w = code[pc];
      code[pc] = w & engine::kOpcodeMask;
      pc += 1 + ((w >> engine::kOperandCountShift) & engine::kOperandCountMask);
    }
    out.push_back(std::move(code));
  }
  return out;
}

}  // namespace

std::unique_ptr<DeviceEngine> makeCompiledThreadEngine(EngineStorage& storage, bool useCache) {
  auto compiler = std::make_shared<HostCompiler>();
  return makeThreadEngine(
      storage,
      [compiler, useCache](const EngineProgramImage& image, CompileStats& stats) -> TeamRun {
        const std::vector<std::vector<std::uint32_t>> codes = plainCode(image);
        std::vector<compile::FunctionCode> functions;
        for (std::size_t i = 0; i < codes.size(); ++i)
          functions.push_back(
              {"function " + std::to_string(i), codes[i], image.functions[i].numRegs});
        const std::string source =
            compile::emitCpp(compile::buildIr(functions, image.entry)) + kHostEntry;
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
