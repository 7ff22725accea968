// The device engine from the interpreter's side: before an instruction worth running on the
// device, the interpreter's whole state is handed to the backend's engine, which runs until an
// instruction it leaves to the host; the state comes back, and the interpreter executes that
// instruction itself (so I/O, strings, errors and allocation keep exactly the host's behaviour),
// then hands over again.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <ostream>

#include "core/MemoryLimit.h"
#include "vm/backend/DeviceEngine.h"
#include "vm/bytecode/Decode.h"
#include "vm/interp/EngineLoops.h"
#include "vm/interp/Interpreter.h"
#include "vm/interp/StringPool.h"

namespace star {

namespace {

const char* reasonName(engine::StopReason r) {
  switch (r) {
    case engine::StopReason::Output: return "output";
    case engine::StopReason::Text: return "strings";
    case engine::StopReason::File: return "files";
    case engine::StopReason::Native: return "native procedures";
    case engine::StopReason::Error: return "run-time errors";
    case engine::StopReason::Storage: return "growing values";
    case engine::StopReason::Pools: return "growing handle pools";
    case engine::StopReason::Room: return "stack room";
    case engine::StopReason::Loop: return "parallel loops";
    case engine::StopReason::Math: return "EXP/LN/SIN/COS/ARCTAN/POWER";
    case engine::StopReason::Poll: return "interrupt or budget";
    case engine::StopReason::End: return "end of run";
    case engine::StopReason::Other: return "other";
    default: return "none";
  }
}

}  // namespace

void EngineStats::print(std::ostream& out) const {
  out << "device engine: " << instructions << " instructions on the device in " << launches
      << (launches == 1 ? " launch" : " launches");
  if (!shape.empty()) out << " (last: " << shape << ")";
  out << '\n';
  bool any = false;
  for (int r = 1; r < engine::kStopReasons; ++r) {
    if (!handedBack[r]) continue;
    out << (any ? ", " : "handed to the host: ") << reasonName(static_cast<engine::StopReason>(r)) << ' '
        << handedBack[r];
    any = true;
  }
  if (any) out << '\n';
  if (compiled.hits + compiled.misses > 0) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f", compiled.seconds);
    out << "compiled code: " << compiled.hits + compiled.misses << " program"
        << (compiled.hits + compiled.misses == 1 ? "" : "s") << " (" << compiled.misses << " compiled, "
        << compiled.hits << " from the cache) in " << seconds << " s\n";
    if (ownedLoops) out << "compiled code: " << ownedLoops << " owned loop" << (ownedLoops == 1 ? "" : "s") << " run on kept words\n";
  }
}

EngineStats EngineStats::since(const EngineStats& before) const {
  EngineStats d = *this;
  d.instructions -= before.instructions;
  d.launches -= before.launches;
  d.ownedLoops -= before.ownedLoops;
  for (int r = 0; r < engine::kStopReasons; ++r) d.handedBack[r] -= before.handedBack[r];
  if (d.launches == 0) d.shape.clear();
  d.compiled.hits -= before.compiled.hits;
  d.compiled.misses -= before.compiled.misses;
  d.compiled.seconds -= before.compiled.seconds;
  return d;
}

void Interpreter::enableDeviceEngine(bool on) {
  engine_ = on ? backend_.deviceEngine() : nullptr;
  compiledOn_ = false;
  engineModule_ = nullptr;  // another engine may have loaded the program
}

bool Interpreter::enableCompiledEngine(bool useCache, bool background) {
  engine_ = backend_.compiledEngine(useCache);
  if (engine_) engine_->compileInBackground(background);
  compiledOn_ = engine_ != nullptr;
  engineModule_ = nullptr;  // the other engine has not loaded the program
  return engine_ != nullptr;
}

// The instructions the engine always hands back are not worth a launch.
bool Interpreter::deviceRuns(Op op) { return !isHostOp(op) && !isHostMathOp(op); }

void Interpreter::loadProgram(const Module& m) {
  EngineProgramImage img;
  for (std::uint32_t fi = 0; fi < m.functions.size(); ++fi) {
    const Function& f = m.functions[fi];
    engine::FunctionInfo info{};
    info.code = static_cast<std::uint32_t>(img.code.size());
    info.codeSize = static_cast<std::uint32_t>(f.code.size());
    info.numRegs = f.numRegs;
    info.params = static_cast<std::uint32_t>(img.params.size());
    info.nParams = static_cast<std::uint32_t>(f.params.size());
    info.owned = static_cast<std::uint32_t>(img.ownedRegs.size());
    info.nOwned = static_cast<std::uint32_t>(f.ownedRegs.size());
    info.resultReg = f.resultReg;
    info.resultKind = static_cast<std::uint32_t>(f.resultKind);
    info.nativeId = f.nativeId;
    info.loops = static_cast<std::uint32_t>(img.loops.size());
    info.nLoops = static_cast<std::uint32_t>(f.parallelLoops.size());
    for (std::uint32_t l = 0; l < f.parallelLoops.size(); ++l)
      img.loops.push_back(engineLoopOf(parallelBody(m, fi, l), f.parallelLoops[l]));
    const std::size_t at = img.code.size();
    img.code.insert(img.code.end(), f.code.begin(), f.code.end());
    for (const Instr& i : instructions(f.code)) img.code[at + i.pc] = engine::engineOpWord(i.op);
    for (const ParamInfo& p : f.params)
      img.params.push_back({static_cast<std::uint32_t>(p.kind), p.byRef ? 1u : 0u});
    for (const auto& [reg, kind] : f.ownedRegs) img.ownedRegs.push_back({reg, static_cast<std::uint32_t>(kind)});
    img.functions.push_back(info);
  }
  reachesEngineLoop_ = reachesEngineLoops(m, img.loops);
  img.entry = entry_;
  img.countOps = statsOn_;
  for (const Constant& k : m.constants) {
    engine::Word value = 0;
    std::uint64_t length = 0;
    img.constBits.push_back(img.constWords.size());
    switch (k.tag) {
      case ValueTag::Real: value = std::bit_cast<engine::Word>(k.realValue); break;
      case ValueTag::String: value = internString(k.text); break;
      case ValueTag::Bits: {
        length = k.text.size();
        std::vector<engine::Word> words(wordsForBits(length), 0);
        for (std::size_t i = 0; i < k.text.size(); ++i)
          if (k.text[i] == '1') words[i / 64] |= engine::Word{1} << (i % 64);
        img.constWords.insert(img.constWords.end(), words.begin(), words.end());
        break;
      }
      default: value = static_cast<engine::Word>(k.intValue); break;
    }
    img.constValue.push_back(value);
    img.constLength.push_back(length);
  }
  engine_->load(img);
  engineModule_ = &m;
}

// Whether the run about to be handed over may reach a parallel loop the engine runs itself: the
// function it is in, or one it returns to (every frame's), has one or calls one that has.
bool Interpreter::mayReachEngineLoops() const {
  for (const Frame& f : frames_)
    if (f.function >= reachesEngineLoop_.size() || reachesEngineLoop_[f.function]) return true;
  return false;
}

// The engine takes the handles of new frames from the pools and never allocates; when it ran out
// (deep recursion with slice or table locals), the pools double, each handle with room for a small
// value, so that a recursion of depth N costs O(log N) hand-overs rather than N.
void Interpreter::growPoolsForEngine() {
  constexpr std::uint64_t kRoomBits = 256;
  std::size_t ownedTables = 0;
  for (const Owned& o : owned_) ownedTables += static_cast<SlotKind>(o.kind) == SlotKind::Table;
  const std::size_t moreBits = std::max<std::size_t>(64, owned_.size() - ownedTables);
  const std::size_t moreTables = std::max<std::size_t>(16, ownedTables);
  auto track = [&](Handle h) {
    if (h >= fixed_.size()) fixed_.resize(h + 1, 0);
  };
  // New handles go beneath the free ones: calls take from the top, so handles that already hold
  // room from earlier calls are used first.
  std::vector<Handle> bits, tables;
  for (std::size_t k = 0; k < moreBits; ++k) {
    const Handle b = backend_.createBits();
    backend_.resizeBits(b, kRoomBits);
    backend_.resizeBits(b, 0);
    bits.push_back(b);
    track(b);
  }
  for (std::size_t k = 0; k < moreTables; ++k) {
    tables.push_back(backend_.createTable());
    track(tables.back());
  }
  freeBits_.insert(freeBits_.begin(), bits.begin(), bits.end());
  freeTables_.insert(freeTables_.begin(), tables.begin(), tables.end());
  engineWantsStorage_ = false;
}

void Interpreter::runOnDevice(const Module& m, const Function*& fn, const std::uint32_t*& code,
                              std::uint32_t& pc) {
  // Loaded once a run (Interpreter::run forgets the last one): the module cannot change during it.
  if (engineModule_ != &m) loadProgram(m);
  if (engineWantsStorage_) growPoolsForEngine();
  // The hand-over: the frames, owned handles, pools and fixed flags are the engine's own types,
  // moved in and back (also when the engine throws); registers and globals are copied as memory.
  static_assert(sizeof(Value) == sizeof(engine::Word));
  EngineRun r;
  engine::Header& h = r.header;
  h.function = frames_.back().function;
  h.pc = pc;
  h.base = base_;
  r.stack.resize(stack_.size());
  if (!stack_.empty()) std::memcpy(r.stack.data(), stack_.data(), stack_.size() * sizeof(Value));
  r.globals.resize(globals_.size());
  if (!globals_.empty()) std::memcpy(r.globals.data(), globals_.data(), globals_.size() * sizeof(Value));
  struct Lent {
    Interpreter& vm;
    EngineRun& run;
    void swap() {
      std::swap(vm.frames_, run.frames);
      std::swap(vm.owned_, run.owned);
      std::swap(vm.freeBits_, run.freeBits);
      std::swap(vm.freeTables_, run.freeTables);
      std::swap(vm.fixed_, run.fixed);
    }
    ~Lent() { swap(); }
  };
  h.stackSize = r.stack.size();
  h.frames = frames_.size();
  h.owned = owned_.size();
  h.freeBits = freeBits_.size();
  h.freeTables = freeTables_.size();
  // Room to grow on the device before the host must step in.
  h.stackCap = h.stackSize + std::max<std::uint64_t>(h.stackSize, 1u << 15);
  h.framesCap = h.frames + std::max<std::uint64_t>(h.frames, 256);
  h.ownedCap = h.owned + std::max<std::uint64_t>(h.owned, 1024);
  h.globals = r.globals.size();
  h.budgetLeft = budgetLeft_;
  h.maxStack = memoryLimit() / 2;
  h.maxFrames = kMaxFrames;
  h.argCount = args_.size();
  h.stringCount = pooledStringCount();
  h.flags = (nativesOn_ ? engine::kFlagNatives : 0) |
            (parallelLoopsOn_ && backend_.parallelExecutor() ? engine::kFlagParallelLoops : 0) |
            (statsOn_ ? engine::kFlagStats : 0);
  if ((h.flags & engine::kFlagParallelLoops) && mayReachEngineLoops()) h.flags |= engine::kFlagEngineLoopsReachable;
  h.pollsToCheck = engine::kPollsPerCheck;

  {
    Lent lent{*this, r};
    lent.swap();
    engine_->run(r);
  }

  stack_.resize(r.stack.size());
  if (!stack_.empty()) std::memcpy(stack_.data(), r.stack.data(), stack_.size() * sizeof(Value));
  if (!globals_.empty()) std::memcpy(globals_.data(), r.globals.data(), globals_.size() * sizeof(Value));
  base_ = h.base;
  budgetLeft_ = h.budgetLeft;

  engineStats_.instructions += h.instructions;
  engineStats_.ownedLoops += h.ownedLoops;
  parallelStats_.parallel += h.loopsRun;
  parallelStats_.iterations += h.loopIterations;
  engineStats_.launches = engine_->launches();
  engineStats_.shape = engine_->shape();
  engineStats_.compiled = engine_->compileStats();
  if (h.stop < engine::kStopReasons) ++engineStats_.handedBack[h.stop];
  engineWantsStorage_ = h.stop == static_cast<std::uint32_t>(engine::StopReason::Pools);
  if (statsOn_)
    for (std::uint32_t op = 0; op < kOpCount; ++op) stats_.count[op] += r.opCounts[op];

  fn = &m.functions[h.function];
  code = fn->code.data();
  pc = h.pc;
}

}  // namespace star
