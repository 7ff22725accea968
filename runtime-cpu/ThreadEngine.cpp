#include "runtime-cpu/ThreadEngine.h"

#include <barrier>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "core/Interrupt.h"
#include "vm/engine/EngineCore.h"
#include "vm/engine/EnginePack.h"

namespace star::cpu {
namespace {

using engine::Word;

// What the threads of one run share: barriers, control slots, reduction slots.
struct TeamShared {
  TeamShared(unsigned b, unsigned t) : blocks(b), threads(t), grid(static_cast<std::ptrdiff_t>(b * t)) {
    for (unsigned i = 0; i < b; ++i) block.push_back(std::make_unique<std::barrier<>>(static_cast<std::ptrdiff_t>(t)));
    ctl.resize(b * 2);
    slots.resize(std::size_t{b} * 2 * t);
    partial.resize(std::size_t{2} * b);
  }
  unsigned blocks, threads;
  std::barrier<> grid;
  std::vector<std::unique_ptr<std::barrier<>>> block;
  std::vector<engine::Ctl> ctl;        // [block][2]
  std::vector<std::uint64_t> slots;    // [block][parity][thread]
  std::vector<std::uint64_t> partial;  // [parity][block]
};

class ThreadTeam {
 public:
  ThreadTeam(TeamShared& s, unsigned block, unsigned thread) : s_(s), b_(block), t_(thread) {}
  bool leader() const { return t_ == 0; }
  bool teamFirst() const { return b_ == 0 && t_ == 0; }
  std::uint64_t rank() const { return std::uint64_t{b_} * s_.threads + t_; }
  std::uint64_t size() const { return std::uint64_t{s_.blocks} * s_.threads; }
  std::uint64_t blockRank() const { return t_; }
  std::uint64_t blockSize() const { return s_.threads; }
  void syncBlock() {
    if (s_.threads > 1) s_.block[b_]->arrive_and_wait();
  }
  void syncData() {
    if (s_.blocks > 1) s_.grid.arrive_and_wait();
    else syncBlock();
  }
  engine::Ctl* ctl() { return &s_.ctl[std::size_t{b_} * 2]; }
  bool interrupted() const { return gInterruptRequested.load(std::memory_order_relaxed); }
  std::uint64_t reduceMin(std::uint64_t v) { return reduce(v, [](std::uint64_t x, std::uint64_t y) { return x < y ? x : y; }); }
  std::uint64_t reduceSum(std::uint64_t v) { return reduce(v, [](std::uint64_t x, std::uint64_t y) { return x + y; }); }
  bool reduceOr(bool v) { return reduce(v, [](std::uint64_t x, std::uint64_t y) { return x | y; }) != 0; }

 private:
  template <class Op>
  std::uint64_t reduce(std::uint64_t v, Op op) {
    // Alternating slots: a slot is written again two reductions later, after the other's barrier.
    std::uint64_t* mine = &s_.slots[(std::size_t{b_} * 2 + parity_) * s_.threads];
    mine[t_] = v;
    if (s_.threads > 1) s_.block[b_]->arrive_and_wait();
    std::uint64_t r = mine[0];
    for (unsigned t = 1; t < s_.threads; ++t) r = op(r, mine[t]);
    if (s_.blocks > 1) {
      std::uint64_t* part = &s_.partial[std::size_t{parity_} * s_.blocks];
      if (t_ == 0) part[b_] = r;
      s_.grid.arrive_and_wait();
      r = part[0];
      for (unsigned b = 1; b < s_.blocks; ++b) r = op(r, part[b]);
    }
    parity_ ^= 1;
    return r;
  }

  TeamShared& s_;
  unsigned b_, t_;
  unsigned parity_ = 0;
};

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
  explicit ThreadEngine(EngineStorage& storage) : storage_(storage) {}

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
  }

  void run(EngineRun& r) override {
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
    TeamShared shared(blocks, threads);
    auto body = [&](unsigned b, unsigned t) {
      ThreadTeam team(shared, b, t);
      Word* region = regions[b].data();
      engine::copyRegion(team, region, staging.data(), l, *reinterpret_cast<const engine::Header*>(staging.data()));
      team.syncBlock();
      engine::Core<ThreadTeam> core(team, program_, engine::regionAt(region, l));
      core.run();
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

 private:
  EngineStorage& storage_;
  EngineProgramImage image_;
  engine::Program program_;
  std::string shape_;
  std::uint64_t launches_ = 0;
  std::vector<Word> staging_, result_;
  std::vector<std::vector<Word>> regions_;
};

}  // namespace

std::unique_ptr<DeviceEngine> makeThreadEngine(EngineStorage& storage) {
  return std::make_unique<ThreadEngine>(storage);
}

}  // namespace star::cpu
