// The peer of the primitive benchmark: what any host-driven GPU VM pays per primitive, measured
// in the same run (bench/RESULTS.md peers: empty kernel back to back, kernel + 8-byte read-back).
#pragma once

namespace star::bench {

struct LaunchFloor {
  double emptyKernelUs = 0;      // back-to-back launches, per launch
  double roundTripUs = 0;        // launch + 8-byte device-to-host copy + stream sync
  double copyGBps = 0;           // device-to-device cudaMemcpyAsync of `bytes`, GB/s
};

// Returns false when there is no usable GPU.
bool measureLaunchFloor(LaunchFloor& out, unsigned long long copyBytes);

}  // namespace star::bench
