// The device engine a backend may offer (Backend::deviceEngine()): it runs the interpreter's own
// state, handed over between instructions, on the device until it reaches an instruction it
// leaves to the host (vm/engine/EngineLayout.h says which and why). The VM packs its state into
// an EngineRun, the engine runs it and gives it back changed; the backend fills in and takes
// back the handles' shapes itself, since it owns them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "vm/engine/EngineLayout.h"

namespace star {

// A module flattened for the engine (EngineLayout.h's Program, as host arrays).
struct EngineProgramImage {
  std::vector<std::uint32_t> code;
  std::vector<engine::FunctionInfo> functions;
  std::vector<engine::ParamInfo> params;
  std::vector<engine::OwnedReg> ownedRegs;
  std::vector<engine::Word> constValue;
  std::vector<std::uint64_t> constBits;
  std::vector<std::uint64_t> constLength;
  std::vector<engine::Word> constWords;
  std::vector<engine::LoopInfo> loops;
};

// The interpreter's state between two instructions. The header's capacities for the stack,
// frames and owned handles are what the VM asks for; the backend sets poolCap and handles.
struct EngineRun {
  engine::Header header{};
  std::vector<engine::Word> stack;
  std::vector<engine::Frame> frames;
  std::vector<engine::Owned> owned;
  std::vector<std::uint32_t> freeBits, freeTables;
  std::vector<std::uint8_t> fixed;  // per handle (may be shorter than the handle table: 0 beyond)
  std::vector<engine::Word> globals;
  std::array<std::uint64_t, engine::kOpCounters> opCounts{};  // added to by each run (--stats)
};

class DeviceEngine {
 public:
  virtual ~DeviceEngine() = default;
  // The program the next runs execute (called again when the module changes).
  virtual void load(const EngineProgramImage& image) = 0;
  // Runs until the engine stops; `run` then holds the state, and header.stop says why.
  virtual void run(EngineRun& run) = 0;
  // How the last run was spread ("1 block x 256 threads"), and launches so far.
  virtual std::string shape() const = 0;
  virtual std::uint64_t launches() const = 0;
};

}  // namespace star
