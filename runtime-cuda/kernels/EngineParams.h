// What a launch of the device engine gets (Engine.cu's kernel and compiled code's,
// CompiledKernels.cuh): the program, the region layout and where the state goes in and out.
// Plain data, without the CUDA runtime's headers, so that NVRTC compiles it too.
#pragma once

#include <cstdint>

#include "vm/engine/EngineLayout.h"

namespace star::cuda {

struct EngineParams {
  engine::Program program;        // device arrays
  engine::Layout layout;
  const std::uint64_t* staging;   // device: the region handed over
  std::uint64_t* regions;         // device: one region per block, layout.total words apart;
                                  // null: each block's region lives in its shared memory
                                  // (layout.total words of dynamic shared memory)
  std::uint64_t* out;             // mapped host: block 0's region after the run (same layout)
  std::uint64_t* partials;        // device: 2 x blocks words (grid form)
  std::uint64_t* host;            // mapped host: [0] the interrupt flag, [1] the ticket
  std::uint64_t ticket;
  unsigned* gridBarrier;          // device: 2 words, zero (compiled code's own grid barrier)
};

}  // namespace star::cuda
