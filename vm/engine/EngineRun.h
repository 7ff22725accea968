// What the device engine runs and the state it runs on, as host arrays: the program (a module
// flattened, EngineLayout.h's Program) and the interpreter's state between two instructions. The
// host interpreter keeps its frames, owned handles, free pools and fixed flags in these types, so
// that a hand-over moves its vectors rather than converting them (vm/interp/InterpreterDeviceEngine.cpp);
// EnginePack.h packs a run into a device region and back.
#pragma once

#include <array>
#include <cstdint>
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
  // The function the runs start in (Interpreter::run's entry): a run can only be in it or in a
  // function it calls, directly or not; the compiled tier compiles those.
  std::uint32_t entry = 0;
  // The runs count instructions per opcode (--stats): compiled code counts only where this says so
  // (the counting costs a third of its build time).
  bool countOps = false;
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

}  // namespace star
