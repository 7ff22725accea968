// The bytecode interpreter: scalar control flow on the host, every slice, word and table
// primitive dispatched to a Backend. Runtime errors carry the Star source location.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/Interrupt.h"
#include "core/SourceLoc.h"
#include "vm/backend/Backend.h"
#include "vm/backend/DeviceEngine.h"
#include "vm/engine/EngineLayout.h"
#include "vm/engine/EngineRun.h"
#include "vm/bytecode/Module.h"
#include "vm/interp/ParallelBody.h"

namespace star {

// Where a procedure or function was called from; `times` > 1 stands for that many consecutive
// frames called from the same place (recursion).
struct CallSite {
  SourceLoc loc;
  std::uint64_t times = 1;
};

// A note after a run-time error and its call trace: where something that explains it happened (a
// sized variable's declaration), or, without a line, how to fix it.
struct RuntimeNote {
  SourceLoc loc;
  std::string message;
};

// A Star runtime error ("index out of range", "size mismatch", ...), located in the source.
// `callers` is the call trace below the failing routine, innermost first: the call sites that
// led to `loc` (empty for an error in the main program). It keeps kMaxCallers entries;
// `moreCallers` counts the frames left out after them.
struct RuntimeError : std::runtime_error {
  RuntimeError(SourceLoc where, const std::string& message)
      : std::runtime_error(message), loc(where) {}
  SourceLoc loc;
  std::vector<CallSite> callers;
  std::uint64_t moreCallers = 0;
  std::vector<RuntimeNote> notes;
  static constexpr std::size_t kMaxCallers = 10;
};


// Per-opcode execution counts and host time (`star run --stats`).
struct ExecutionStats {
  std::array<std::uint64_t, kOpCount> count{};
  std::array<std::uint64_t, kOpCount> nanos{};
  void print(std::ostream& out, const std::string& backendName, const std::string& device) const;
};

// What the device engine did (`star run --stats`): instructions it executed, its launches, and
// the instructions it handed to the host, by reason.
struct EngineStats {
  std::uint64_t instructions = 0;
  std::uint64_t launches = 0;
  std::uint64_t ownedLoops = 0;  // compiled code's owned loops run on kept words (--stats)
  std::array<std::uint64_t, engine::kStopReasons> handedBack{};
  std::string shape;  // how the last launch was spread
  CompileStats compiled;  // the compiled tier's programs
  void print(std::ostream& out) const;
  // What happened after `before` (the REPL reports each input on its own).
  EngineStats since(const EngineStats& before) const;
};

class DeviceEngine;

class Interpreter {
 public:
  Interpreter(Backend& backend, std::ostream& out);
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  void setArguments(std::vector<std::string> args) { args_ = std::move(args); }
  void enableStats(bool on) { statsOn_ = on; }
  // Whether procedures declared `native` may run as their backend's fused implementation
  // (`star run --no-native` turns this off: every procedure runs its Star body).
  void enableNatives(bool on) { nativesOn_ = on; }
  // Whether PFOR runs parallel loops on the backend's executor (`--no-parallel-loops` turns it off:
  // every loop runs its sequential code, the reference).
  void enableParallelLoops(bool on) { parallelLoopsOn_ = on; }
  struct ParallelStats {
    std::uint64_t parallel = 0;    // loops run in parallel
    std::uint64_t iterations = 0;  // their iterations
    std::uint64_t sequential = 0;  // PFORs that ran their sequential code instead
  };
  const ParallelStats& parallelStats() const { return parallelStats_; }
  // Runs on the backend's device engine wherever it can (false: the host runs every instruction,
  // the reference). Without a device engine this does nothing.
  void enableDeviceEngine(bool on);
  // The device engine's compiled tier (Backend::compiledEngine); false when the backend has none.
  // background: build each program while the interpreter runs it (--engine=tiered).
  bool enableCompiledEngine(bool useCache, bool background = false);
  bool deviceEngineOn() const { return engine_ != nullptr; }
  bool compiledEngineOn() const { return engine_ != nullptr && compiledOn_; }
  const EngineStats& engineStats() const { return engineStats_; }
  // Bounds a run to `n` loop iterations (backward jumps) and calls (0: no bound), for fuzzing and
  // generated programs: beyond it the run stops with a runtime error.
  void setBudget(std::uint64_t n) { budget_ = n; }
  std::uint64_t nativeCalls() const { return nativeCalls_; }
  const ExecutionStats& stats() const { return stats_; }
  Backend& backend() { return backend_; }

  // Runs function `entry` of the module (normally m.entry) to completion. The module may have
  // grown since the last call (the REPL appends to it); new globals are allocated. Throws
  // RuntimeError. After an error the interpreter is still usable.
  void run(const Module& m, std::uint32_t entry);

  // Global slots, for the REPL (printing values, moving them between backends).
  union Value {
    std::int64_t i;
    double f;
    std::uint64_t u;  // handles, references, and strings (an index into the string table)
  };
  std::vector<Value>& globals() { return globals_; }
  void writeValue(ValueTag tag, Value v);  // as `write` prints it
  // The text of a string value (a StringPool index); a corrupt index is a runtime error.
  static const std::string& text(Value v);
  void releaseGlobals();                  // hands every global handle back to the backend

  // REPL support: undoing a failed input and moving the session to another backend.
  // Storage for the globals added to the module since the last call (run() does this too).
  void allocateGlobals(const Module& m);
  // Drops the globals from index `count` on (their handles go back to the free pools).
  void truncateGlobals(std::size_t count);
  // Whether a handle's shape was fixed by a sized declaration (`var w: word(8)`).
  bool fixedShape(Handle h) const { return h < fixed_.size() && fixed_[h]; }
  void setFixedShape(Handle h, bool fixed) {
    if (h >= fixed_.size()) fixed_.resize(h + 1, 0);
    fixed_[h] = fixed;
  }

 private:
  // The device engine's layout (vm/engine/EngineLayout.h), so that a hand-over moves these
  // vectors instead of converting them: function, pc (where the caller goes on), resultDst (the
  // caller's operand for a function result), base (first register in stack_), ownedBegin (first
  // entry of the frame in owned_).
  using Frame = engine::Frame;
  using Owned = engine::Owned;  // a handle a live frame owns, and its SlotKind

  void execute(const Module& m);  // the dispatch loop: scalars, control, calls (Interpreter.cpp)
  // The instructions on slices and words (InterpreterBits.cpp), on tables and the data files
  // (InterpreterTables.cpp): false when op is not one of theirs.
  bool bitsOp(const Module& m, Op op, const std::uint32_t* a);
  bool tableOp(Op op, const std::uint32_t* a);
  Value& reg(std::uint32_t operand) {
    return (operand & kGlobalBit) ? globals_[operand & ~kGlobalBit] : stack_[base_ + operand];
  }
  Value& deref(std::uint64_t ref);
  std::uint64_t makeRef(std::uint32_t operand);
  void pushFrame(const Module& m, std::uint32_t fn, std::size_t argBase, std::uint32_t resultDst);
  void popFrame(const Module& m);
  // Fills e's call trace from the frames below frames_[depth - 1] (the failing routine's).
  void traceCallers(const Module& m, std::size_t depth, RuntimeError& e) const;
  // After a size mismatch of handle h at instruction `pc` of `fn`: notes on the sized declaration
  // that fixed h's size, when the instruction's operand names a variable declared with one.
  void noteSizedDeclaration(const Module& m, const Function& fn, std::uint32_t pc, Handle h,
                            RuntimeError& e);
  Handle acquire(SlotKind kind);
  void release(Handle h, SlotKind kind);

  // checked helpers (throw std::runtime_error; execute() adds the location)
  std::uint64_t index(std::int64_t i, std::uint64_t limit, const char* what);
  void requireSameLength(Handle a, Handle b, const char* op);
  void reshapeBits(Handle dst, std::uint64_t length);  // honours fixed sizes
  void requireBitsFit(Handle dst, std::uint64_t length);
  void requireTableFits(Handle dst, std::uint64_t rows, std::uint64_t cols);
  void writeBitsValue(Handle h);
  void writeTableValue(Handle h);
  void requireOutput();
  void loadTable(Handle t, const std::string& path);
  void saveTable(Handle t, const std::string& path);
  void bitsFromConstant(Handle dst, const std::string& bits);
  Handle scratchBits();  // a VM-owned bit vector for primitives whose operands may not alias
  Handle scratch_bits_ = kNoHandle;

  Backend& backend_;
  std::ostream& out_;
  SourceLoc lastOutput_;  // the last WRITE or WRITELN: where a failed final flush is reported
  std::vector<std::string> args_;
  // Strings are StringPool indices; constStrings_ maps a constant to its index, argStrings_ a
  // program argument.
  std::vector<std::uint64_t> constStrings_;
  std::vector<std::uint64_t> argStrings_;
  void indexStrings(const Module& m);
  std::vector<Value> globals_;
  std::vector<SlotKind> globalKinds_;
  std::vector<Value> stack_;
  std::vector<Frame> frames_;
  std::vector<Owned> owned_;                        // handles owned by live frames
  std::vector<Handle> freeBits_, freeTables_;       // released handles, kept with their capacity
  std::vector<std::uint8_t> fixed_;                 // per handle: shape fixed by a declaration
  std::size_t base_ = 0;
  const Module* lastModule_ = nullptr;
  bool statsOn_ = false;
  bool nativesOn_ = true;
  std::uint64_t budget_ = 0, budgetLeft_ = 0;
  bool parallelLoopsOn_ = true;
  ParallelStats parallelStats_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, ParallelBody> parallelBodies_;  // (function, loop)
  bool runParallel(const Module& m, const Function& fn, std::uint32_t loop, std::uint32_t pforPc);
  // What the VM proved about loop `loopIndex` of function `fnIndex` (analysed once, then cached).
  const ParallelBody& parallelBody(const Module& m, std::uint32_t fnIndex, std::uint32_t loopIndex);
  void poll();  // at back-edges and calls: Ctrl-C and the budget
  // The device engine (vm/interp/InterpreterDeviceEngine.cpp): the state handed over and back.
  static bool deviceRuns(Op op);  // instructions worth handing to the device engine
  void runOnDevice(const Module& m, const Function*& fn, const std::uint32_t*& code,
                   std::uint32_t& pc);
  void loadProgram(const Module& m);
  DeviceEngine* engine_ = nullptr;
  bool compiledOn_ = false;
  std::uint32_t entry_ = 0;           // the function the current run started in
  EngineStats engineStats_;
  bool engineWantsStorage_ = false;  // the engine's last stop was for storage: grow the pools
  void growPoolsForEngine();
  bool mayReachEngineLoops() const;
  std::vector<bool> reachesEngineLoop_;  // per function of the loaded module (reachesEngineLoops)
  const Module* engineModule_ = nullptr;
  std::uint64_t nativeCalls_ = 0;
  ExecutionStats stats_;
  std::vector<std::uint64_t> scratch_;
  static constexpr std::size_t kMaxFrames = 100000;
};

}  // namespace star
