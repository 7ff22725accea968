// The native procedures across the GPUs of this process, for the sharded backend
// (runtime-sharded/, `star run --devices=N`; device g is CUDA device g): the transitive closure
// of a table split by rows (every GPU runs Closure.cu's steps on its own rows, the pivot column
// of each step broadcast by NCCL from the GPU that holds it); SORT of a table split by rows
// (every GPU sorts its own block, the runs are cut exactly where the GPUs' marked positions
// begin, exchanged with NCCL send/receive and merged: kernels/SortShard.h); and the N-body
// forces and Verlet steps, every GPU holding the whole system and computing its share of the
// pairs, NCCL summing the forces (runtime-cuda/Nccl.h). What they decline (no NCCL, a system for
// the square pair loop, an empty one, a sort key with more than 64 other columns) the sharded
// backend runs on device 0.
#pragma once

#include <memory>

#include "vm/backend/ShardedNatives.h"

namespace star {

std::unique_ptr<ShardedNatives> makeMultiGpuNatives(int devices);

}  // namespace star
