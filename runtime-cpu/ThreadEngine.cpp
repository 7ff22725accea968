#include "runtime-cpu/ThreadEngine.h"

#include <barrier>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "core/Interrupt.h"
#include "runtime-cpu/ThreadTeam.h"
#include "vm/backend/BackgroundBuild.h"
#include "vm/engine/EngineCore.h"
#include "vm/engine/EnginePack.h"

namespace star::cpu {
namespace {

using engine::Word;

// "BxT" from the environment, each at least 1 (and at most 64).
void teamShape(unsigned& blocks, unsigned& threads) {
  blocks = threads = 1;
  const char* spec = std::getenv("STAR_ENGINE_TEAM");
  if (!spec) return;
  char* end = nullptr;
  const unsigned long b = std::strtoul(spec, &end, 10);
  if (!end || *end != 'x') return;
  const unsigned long t = std::strtoul(end + 1, nullptr, 10);
  if (b >= 1 && b <= 64 && t >= 1 && t <= 64) {
    blocks = static_cast<unsigned>(b);
    threads = static_cast<unsigned>(t);
  }
}

class ThreadEngine final : public DeviceEngine {
 public:
  ThreadEngine(EngineStorage& storage, ProgramCompiler compiler)
      : storage_(storage), compiler_(std::move(compiler)) {}

  void load(const EngineProgramImage& image) override {
    image_ = image;
    program_.code = image_.code.data();
    program_.functions = image_.functions.data();
    program_.nFunctions = static_cast<std::uint32_t>(image_.functions.size());
    program_.params = image_.params.data();
    program_.ownedRegs = image_.ownedRegs.data();
    program_.constValue = image_.constValue.data();
    program_.constBits = image_.constBits.data();
    program_.constLength = image_.constLength.data();
    program_.constWords = image_.constWords.data();
    program_.loops = image_.loops.data();
    compiled_ = nullptr;
    build_.forget();
    if (!compiler_) return;
    if (!background_) {
      compiled_ = compiler_(image_, compileStats_);
      return;
    }
    // The image is copied for the build: a later load replaces image_.
    build_.start([compiler = compiler_, image = image_](CompileStats& stats) {
      return compiler(image, stats);
    });
  }
  void compileInBackground(bool on) override { background_ = on && compiler_; }

  void run(EngineRun& r) override {
    // A hand-over: compiled code built meanwhile takes the run from here.
    if (TeamRun built = nullptr; build_.takeAtHandOver(built, compileStats_)) compiled_ = built;
    engine::Header& h = r.header;
    h.handles = storage_.handleCount();
    h.poolCap = h.handles;
    const engine::Layout l = engine::layoutOf(h);
    // The buffers stay between runs: a run is one hand-over, and a program makes thousands.
    std::vector<Word>& staging = staging_;
    staging.assign(l.total, 0);
    engine::packRegion(r, l, staging.data(), [&](std::uint32_t hd) { return storage_.shapeOf(hd); });

    unsigned blocks, threads;
    teamShape(blocks, threads);
    shape_ = std::to_string(blocks) + (blocks == 1 ? " block x " : " blocks x ") + std::to_string(threads) +
             (threads == 1 ? " thread (host)" : " threads (host)");
    std::vector<std::vector<Word>>& regions = regions_;
    regions.resize(blocks);
    for (auto& region : regions) region.assign(l.total, 0);
    std::vector<Word>& result = result_;
    result.assign(l.total, 0);
    TeamShared shared(blocks, threads, gInterruptRequested);
    auto body = [&](unsigned b, unsigned t) {
      ThreadTeam team(shared, b, t);
      Word* region = regions[b].data();
      engine::copyRegion(team, region, staging.data(), l, *reinterpret_cast<const engine::Header*>(staging.data()));
      team.syncBlock();
      if (compiled_) {
        compiled_(team, program_, engine::regionAt(region, l));
      } else {
        engine::Core<ThreadTeam> core(team, program_, engine::regionAt(region, l));
        core.run();
      }
      if (b != 0) return;
      team.syncBlock();  // the leader's last writes to the header
      // Not into `staging`: another block may still be copying its start from there.
      engine::copyRegion(team, result.data(), region, l, *reinterpret_cast<const engine::Header*>(region));
    };
    if (blocks * threads == 1) {
      body(0, 0);
    } else {
      std::vector<std::thread> pool;
      for (unsigned b = 0; b < blocks; ++b)
        for (unsigned t = 0; t < threads; ++t) pool.emplace_back(body, b, t);
      for (auto& th : pool) th.join();
    }
    ++launches_;
    engine::unpackRegion(result.data(), l, r, [&](std::uint32_t hd, std::uint64_t rows, std::uint64_t cols) {
      storage_.setShape(hd, rows, cols);
    });
  }

  std::string shape() const override { return shape_; }
  std::uint64_t launches() const override { return launches_; }
  CompileStats compileStats() const override { return compileStats_; }

 private:
  EngineStorage& storage_;
  ProgramCompiler compiler_;
  TeamRun compiled_ = nullptr;  // the image's compiled code, or null: the interpreter runs it
  bool background_ = false;
  BackgroundBuild<TeamRun> build_;
  CompileStats compileStats_;
  EngineProgramImage image_;
  engine::Program program_;
  std::string shape_;
  std::uint64_t launches_ = 0;
  std::vector<Word> staging_, result_;
  std::vector<std::vector<Word>> regions_;
};

}  // namespace

std::unique_ptr<DeviceEngine> makeThreadEngine(EngineStorage& storage, ProgramCompiler compiler) {
  return std::make_unique<ThreadEngine>(storage, std::move(compiler));
}

}  // namespace star::cpu
