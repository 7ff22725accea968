// One launch of the device engine, for every kernel that runs it (the interpreter's, Engine.cu;
// compiled code's, CompiledKernels.cuh): each block copies the handed-over state into its region
// (shared memory, or its slice of p.regions), the team runs, and block 0 writes its region back
// to mapped host memory and then the launch's ticket.
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/EngineParams.h"
#include "vm/engine/EngineTeam.h"

namespace star::cuda {

// run(team, region): runs the engine on the block's region until it stops.
template <class Team, class Run>
__device__ void runEngineLaunch(const EngineParams& p, Team& team, engine::Word* sharedRegion, Run run) {
  engine::Word* region = p.regions ? p.regions + std::uint64_t{blockIdx.x} * p.layout.total : sharedRegion;
  engine::copyRegion(team, region, p.staging, p.layout, *reinterpret_cast<const engine::Header*>(p.staging));
  __syncthreads();
  run(team, engine::regionAt(region, p.layout));
  if (blockIdx.x != 0) return;
  __syncthreads();  // the leader's last writes to the header
  engine::copyRegion(team, p.out, region, p.layout, *reinterpret_cast<const engine::Header*>(region));
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) *reinterpret_cast<volatile std::uint64_t*>(p.host + 1) = p.ticket;
}

}  // namespace star::cuda
