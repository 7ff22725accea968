// The two subjects of a benchmark's --multi mode: one CUDA backend on GPU 0, and the sharded
// backend over every GPU of the machine with the NCCL natives (what `star run --devices=all`
// builds), rows split at `minWords` words. Only in builds with CUDA.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <utility>

#include "runtime-cpu/CpuBackend.h"
#include "runtime-cuda/CudaBackend.h"
#include "runtime-cuda/MultiGpuNatives.h"
#include "runtime-sharded/ShardedBackend.h"

namespace star::bench {

struct OneAndAllGpus {
  int devices = 0;
  std::unique_ptr<Backend> one, all;
};

// Nothing (after saying so) on a machine with fewer than two GPUs.
inline std::optional<OneAndAllGpus> oneAndAllGpus(std::uint64_t minWords = kShardMinWords) {
  const int devices = cudaDeviceCount();
  if (devices < 2) {
    std::printf("fewer than two GPUs: nothing to compare\n");
    return std::nullopt;
  }
  OneAndAllGpus r;
  r.devices = devices;
  r.one = makeCudaBackend(0);
  ShardedParts parts;
  for (int g = 0; g < devices; ++g) parts.devices.push_back(makeCudaBackend(g));
  parts.host = makeCpuBackend();
  parts.minWords = minWords;
  parts.natives = makeMultiGpuNatives(devices);
  r.all = makeShardedBackend(std::move(parts));
  return r;
}

}  // namespace star::bench
