// A backend over several backends of one kind, one per device, each holding a contiguous block of
// every value's rows (ShardLayout.h; docs/ARCHITECTURE.md §6). Element-wise primitives and column
// reads and writes run on every device at once with no communication; the reductions (findFirst,
// step, count, any, compare, firstOnly) are queued on every device before any is waited for and
// combined on the host; a table row or a single bit goes to the device that owns it. The few
// primitives on words longer than a block (TRIM, REP, ADD, SUBT of words of more than
// 64 x minWords bits) gather their operands into `host`, a CPU backend, run there, and scatter the
// result back: the reference's code, not a second copy of it.
//
// With CUDA backends (one per GPU) this is `star run --devices=N`; with CPU backends it splits the
// rows of host memory the same way, which lets the tests run the sharded paths on any machine.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime-sharded/ShardLayout.h"
#include "vm/backend/Backend.h"
#include "vm/backend/NativeKernels.h"
#include "vm/backend/ShardedNatives.h"

namespace star {

inline constexpr unsigned kMaxShards = 16;

struct ShardedParts {
  std::vector<std::unique_ptr<Backend>> devices;  // 1..kMaxShards, device g holds block g
  std::unique_ptr<Backend> host;                  // a CPU backend for the rare gathered primitive
  std::uint64_t minWords = kShardMinWords;        // ShardLayout::minWords
  // The fused procedures across the devices (runtime-cuda's NCCL natives), or null: device 0's
  // run them where they can (vm/backend/ShardedNatives.h).
  std::unique_ptr<ShardedNatives> natives;
};

std::unique_ptr<Backend> makeShardedBackend(ShardedParts parts);

}  // namespace star
