#include "runtime-cuda/CudaEngine.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/Interrupt.h"
#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/Engine.h"
#include "runtime-cuda/kernels/Tuning.h"
#include "vm/engine/EnginePack.h"

namespace star::cuda {
namespace {

// Room to grow that a region held in shared memory keeps (registers, frames, owned handles).
constexpr std::uint64_t kSharedStackRoom = 4096, kSharedFramesRoom = 128, kSharedOwnedRoom = 256;

template <class T>
std::uint64_t appendWords(std::vector<std::uint64_t>& words, const std::vector<T>& items) {
  const std::uint64_t at = words.size();
  const std::uint64_t n = (items.size() * sizeof(T) + 7) / 8;
  words.resize(at + n, 0);
  if (!items.empty()) std::memcpy(words.data() + at, items.data(), items.size() * sizeof(T));
  return at;
}

}  // namespace

CudaEngine::~CudaEngine() {
  ctx_.release(programWords_);
  ctx_.release(staging_);
  ctx_.release(regions_);
  ctx_.release(partials_);
  ctx_.release(gridBarrier_);
  if (pinned_ != nullptr) {
    cudaStreamSynchronize(ctx_.stream());
    cudaFreeHost(pinned_);
  }
}

void CudaEngine::hostBuffer(std::uint64_t words) {
  if (words <= pinnedWords_) return;
  ctx_.synchronize();  // no launch may still write the old buffer
  if (pinned_ != nullptr) cudaFreeHost(pinned_);
  pinned_ = pinnedOnDevice_ = nullptr;
  pinnedWords_ = 0;
  words = std::max<std::uint64_t>(words, pinnedWords_ * 2);
  void* host = nullptr;
  checkAlloc(cudaHostAlloc(&host, words * sizeof(std::uint64_t), cudaHostAllocMapped),
             words * sizeof(std::uint64_t));
  pinned_ = static_cast<std::uint64_t*>(host);
  void* device = nullptr;
  check(cudaHostGetDevicePointer(&device, host, 0), "cudaHostGetDevicePointer");
  pinnedOnDevice_ = static_cast<std::uint64_t*>(device);
  pinnedWords_ = words;
}

void CudaEngine::load(const EngineProgramImage& image) {
  std::vector<std::uint64_t> words;
  const std::uint64_t code = appendWords(words, image.code);
  const std::uint64_t functions = appendWords(words, image.functions);
  const std::uint64_t params = appendWords(words, image.params);
  const std::uint64_t owned = appendWords(words, image.ownedRegs);
  const std::uint64_t constValue = appendWords(words, image.constValue);
  const std::uint64_t constBits = appendWords(words, image.constBits);
  const std::uint64_t constLength = appendWords(words, image.constLength);
  const std::uint64_t constWords = appendWords(words, image.constWords);
  const std::uint64_t loops = appendWords(words, image.loops);
  std::uint64_t* base = ctx_.grow(programWords_, programCapacity_, words.size());
  check(cudaMemcpyAsync(base, words.data(), words.size() * sizeof(std::uint64_t),
                        cudaMemcpyHostToDevice, ctx_.stream()),
        "device engine program");
  ctx_.synchronize();  // `words` goes away
  program_.code = reinterpret_cast<const std::uint32_t*>(base + code);
  program_.functions = reinterpret_cast<const engine::FunctionInfo*>(base + functions);
  program_.nFunctions = static_cast<std::uint32_t>(image.functions.size());
  program_.params = reinterpret_cast<const engine::ParamInfo*>(base + params);
  program_.ownedRegs = reinterpret_cast<const engine::OwnedReg*>(base + owned);
  program_.constValue = base + constValue;
  program_.constBits = base + constBits;
  program_.constLength = base + constLength;
  program_.constWords = base + constWords;
  program_.loops = reinterpret_cast<const engine::LoopInfo*>(base + loops);
  kernels_ = &interpreterKernels();
  pending_.forget();
  if (!build_) return;
  if (!background_) {
    if (EngineKernels* k = build_(image, compileStats_)(compileStats_)) kernels_ = k;
    return;
  }
  // The image is copied for the build: the caller's goes away.
  pending_.start([build = build_, image](CompileStats& stats) { return build(image, stats); });
}

void CudaEngine::run(EngineRun& r) {
  if (!kernels_) kernels_ = &interpreterKernels();
  // A hand-over: compiled code built meanwhile takes the run from here.
  if (KernelInstaller install; pending_.takeAtHandOver(install, compileStats_))
    if (EngineKernels* k = install(compileStats_)) kernels_ = k;
  engine::Header& h = r.header;
  h.handles = values_.size();
  h.poolCap = h.handles;
  // Each block's region in its shared memory when it fits there with less room to grow than the
  // VM asks for (a call beyond that room stops the run, which the host resumes with more): the
  // leader's every load of a register or shape is then a shared-memory one, not an L2 round trip.
  engine::Header small = h;
  small.stackCap =
      h.stackSize + std::min<std::uint64_t>(h.stackCap - h.stackSize, kSharedStackRoom);
  small.framesCap = h.frames + std::min<std::uint64_t>(h.framesCap - h.frames, kSharedFramesRoom);
  small.ownedCap = h.owned + std::min<std::uint64_t>(h.ownedCap - h.owned, kSharedOwnedRoom);
  const bool shared =
      !std::getenv("STAR_ENGINE_GLOBAL_REGION") &&
      engine::layoutOf(small).total * sizeof(std::uint64_t) <= kernels_->sharedLimit();
  if (shared) h = small;
  const engine::Layout l = engine::layoutOf(h);
  hostBuffer(l.total + 8);
  std::uint64_t* flags = pinned_ + l.total;  // [0] interrupt, [1] ticket
  std::uint64_t work = 0;                    // the most words one step of one value may touch
  // Whole tables count only for a run that may reach a loop the engine runs over one: a program
  // that merely links such a loop (DIJKSTRA beside WARSHALL_C in graphs) keeps one block.
  const bool loops = (h.flags & engine::kFlagEngineLoopsReachable) != 0;
  engine::packRegion(r, l, pinned_, [&](std::uint32_t hd) {
    if (!values_.live(hd)) return engine::Shape{};
    DeviceValue& v = values_.at(hd);
    const bool table = values_.kind(hd) == HandleKind::Table;
    work = std::max(work, table ? std::max(v.colWords(), wordsForBits(v.cols)) : v.capacity);
    // A parallel loop the engine runs may update every word of a table in one step.
    if (table && loops) work = std::max(work, v.words());
    return engine::Shape{v.data, v.rows, table ? v.cols : 1, v.capacity, table ? 2u : 1u, 0};
  });
  flags[0] = 0;

  // The used parts of the region, to the device.
  std::uint64_t* staging = ctx_.grow(staging_, stagingCapacity_, l.total);
  auto send = [&](std::uint64_t offset, std::uint64_t words) {
    if (words)
      check(cudaMemcpyAsync(staging + offset, pinned_ + offset, words * sizeof(std::uint64_t),
                            cudaMemcpyHostToDevice, ctx_.stream()),
            "device engine state");
  };
  send(0, l.stack + h.stackSize);
  send(l.frames, engine::wordsFor(h.frames * sizeof(engine::Frame)));
  send(l.owned, engine::wordsFor(h.owned * sizeof(engine::Owned)));
  send(l.freeBits, engine::wordsFor(h.freeBits * sizeof(std::uint32_t)));
  send(l.freeTables, engine::wordsFor(h.freeTables * sizeof(std::uint32_t)));
  send(l.shapes, engine::wordsFor(h.handles * sizeof(engine::Shape)) + h.globals);

  const char* forced = std::getenv("STAR_ENGINE_MODE");
  // Compiled code keeps kCompiledWordsPerThread words of a vector per thread in its owned loops
  // (engine::kOwnedWords): a block holds at most that many a thread, a grid the rest.
  const std::uint64_t gridWords =
      kernels_->compiled() ? EnginePolicy::kCompiledWordsPerThread * engine::kCompiledMaxThreads
                           : EnginePolicy::kGridWords;
  const bool grid = forced ? std::strcmp(forced, "grid") == 0 : work > gridWords;
  // STAR_ENGINE_THREADS caps a block's threads (a tuning experiment: fewer warps run the scalar
  // code that every thread of compiled code repeats).
  static const unsigned maxThreads = [] {
    const char* v = std::getenv("STAR_ENGINE_THREADS");
    const unsigned long n = v ? std::strtoul(v, nullptr, 10) : 0;
    return n >= 32 && n < EnginePolicy::kMaxThreads ? static_cast<unsigned>(n / 32 * 32)
                                                    : EnginePolicy::kMaxThreads;
  }();
  unsigned blocks = 1, threads;
  const unsigned teamMax =
      kernels_->compiled() ? std::min(maxThreads, engine::kCompiledMaxThreads) : maxThreads;
  // STAR_ENGINE_BLOCKS caps a grid's blocks (a tuning experiment: a grid barrier's cost grows
  // with the blocks that meet at it).
  static const unsigned maxBlocks = [] {
    const char* v = std::getenv("STAR_ENGINE_BLOCKS");
    return v ? static_cast<unsigned>(std::strtoul(v, nullptr, 10)) : 0u;
  }();
  if (grid) {
    threads = teamMax;
    blocks =
        std::max(1u, kernels_->gridBlocks(threads, shared ? l.total * sizeof(std::uint64_t) : 0));
    if (maxBlocks) blocks = std::min(blocks, maxBlocks);
  } else {
    const std::uint64_t perThread =
        kernels_->compiled() ? EnginePolicy::kCompiledWordsPerThread : 1;
    const std::uint64_t wanted = (work + perThread - 1) / perThread;
    threads =
        static_cast<unsigned>(std::clamp<std::uint64_t>((wanted + 31) / 32 * 32, 32, teamMax));
  }
  EngineParams p{};
  p.program = program_;
  p.layout = l;
  p.staging = staging;
  p.regions = shared ? nullptr : ctx_.grow(regions_, regionsCapacity_, l.total * blocks);
  p.out = pinnedOnDevice_;
  p.partials = ctx_.grow(partials_, partialsCapacity_, 2 * std::uint64_t{blocks});
  p.host = pinnedOnDevice_ + l.total;
  p.ticket = ctx_.nextTicket();
  if (kernels_->compiled()) {
    if (!gridBarrier_) {
      ctx_.grow(gridBarrier_, gridBarrierCapacity_, 1);
      check(cudaMemsetAsync(gridBarrier_, 0, sizeof(std::uint64_t), ctx_.stream()), "grid barrier");
    }
    p.gridBarrier = reinterpret_cast<unsigned*>(gridBarrier_);
  }
  if (grid)
    blocks = kernels_->launchGrid(ctx_.stream(), p, blocks, threads);
  else
    kernels_->launchBlock(ctx_.stream(), p, threads);
  ++launches_;
  shape_ = grid ? std::to_string(blocks) + " blocks x " + std::to_string(threads) +
                      " threads (cooperative grid)"
                : "1 block x " + std::to_string(threads) + " threads";
  if (!shared) shape_ += ", state in global memory";
  ctx_.waitTicket(&flags[1], p.ticket, &flags[0]);

  engine::unpackRegion(pinned_, l, r,
                       [&](std::uint32_t hd, std::uint64_t rows, std::uint64_t cols) {
                         DeviceValue& v = values_.at(hd);
                         v.rows = rows;
                         v.cols = values_.kind(hd) == HandleKind::Table ? cols : 1;
                       });
}

}  // namespace star::cuda
