// The device engine on host threads (vm/backend/DeviceEngine.h): the GPU engine's own code
// (vm/engine/EngineCore.h) run by std::threads standing for the GPU's blocks and threads, so that
// the engine's logic — hand-over, stops, the leader and its team, reductions, several blocks in
// step — is tested everywhere, without a GPU. `--engine=device` on the CPU backend uses it;
// STAR_ENGINE_TEAM=BxT (default 1x1) sets B blocks of T threads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "vm/backend/DeviceEngine.h"

namespace star::cpu {

// What the engine needs of the backend's values.
class EngineStorage {
 public:
  virtual ~EngineStorage() = default;
  virtual std::uint32_t handleCount() = 0;  // handles are below it
  // A handle's storage and shape (kind 0 for a free handle); capacity: the words it has now.
  virtual engine::Shape shapeOf(std::uint32_t handle) = 0;
  // The shape the engine left (rows, and cols for a table), within the capacity it was given.
  virtual void setShape(std::uint32_t handle, std::uint64_t rows, std::uint64_t cols) = 0;
};

class ThreadTeam;
// What each thread of the team runs: compiled code's entry (the host build of vm/compile's C++).
using TeamRun = void (*)(ThreadTeam&, const engine::Program&, engine::Region);
// Compiles a program for the team, or gives null: the interpreter (EngineCore.h) runs it.
using ProgramCompiler = std::function<TeamRun(const EngineProgramImage&, CompileStats&)>;

std::unique_ptr<DeviceEngine> makeThreadEngine(EngineStorage& storage, ProgramCompiler compiler = {});
// The same with compiled code (CompiledThreadEngine.cpp): each program the engine loads is
// compiled by the host's C++ compiler; where that fails, star says so once and the interpreter
// runs it. `messages` receives that line.
std::unique_ptr<DeviceEngine> makeCompiledThreadEngine(EngineStorage& storage, bool useCache);

}  // namespace star::cpu
