// The CUDA executor of parallel loop bodies (vm/backend/ParallelPlan.h): one kernel in which each
// warp runs whole iterations, one after another (a grid-stride loop over the candidate indices:
// a warp whose index is not selected moves on), the body's instructions interpreted from a plan
// passed by value (it lives in the constant bank: every lane reads the same instruction), vector
// operations spread over the lanes. Private values live in a per-warp scratch area; cells written
// at the iteration's index are updated with atomics where iterations share a word (rows,
// components). Nothing goes back to the host unless the host needs a value: a fault (only for
// bodies that can fault), a scalar needed after the loop, the last index, the iteration count.
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/Launch.h"

namespace star::cuda {

inline constexpr unsigned kMaxDeviceOps = 40;
inline constexpr unsigned kMaxDeviceSlots = 12;

struct DeviceOperand {
  std::uint64_t* data = nullptr;  // a shared bit vector or table; BCONST's words
  std::uint64_t rows = 0;         // a vector's length, a table's rows, a constant's length
  std::uint64_t cols = 0;
  std::uint64_t value = 0;        // a shared scalar or an immediate
  std::uint32_t slot = 0;
  std::uint8_t source = 0;        // star::Source
};

enum : std::uint8_t { kFuseNone = 0, kFuseCol = 1, kFuseRow = 2 };

struct DeviceOp {
  DeviceOperand a[4];
  std::uint32_t target = 0;
  std::uint8_t op = 0;       // star::Op
  std::uint8_t fused = 0;    // this op and the next two run as one in-place update
  std::uint8_t keep = 0;     // fused: the private vector is read later, so it is written too
  std::uint8_t checked = 0;  // its run-time checks are needed (they may fail)
};

// Device memory the executor keeps between runs; idle values between runs (every run that uses a
// field restores it before it ends).
struct ParallelState {
  unsigned long long faultIteration;  // the lowest failing iteration; ~0 when idle
  unsigned long long faultInfo[4];    // op, kind, values[0], values[1]
  unsigned int lock;                  // guards the fault record; 0 when idle
  unsigned int unused;
  unsigned long long iterations;      // counted when asked; 0 when idle
  unsigned long long lastIndex;       // the largest iteration; 0 when idle
  unsigned long long lastWriter[kMaxDeviceSlots * 2];  // (iteration << 24 | warp) + 1; 0 idle
};

struct DevicePlan {
  DeviceOp ops[kMaxDeviceOps];
  std::uint64_t bitsLength[kMaxDeviceSlots];
  std::uint64_t bitsOffset[kMaxDeviceSlots];  // words into a warp's area
  // liveOut entry -> its handle's data (bits of the right length already); 0: the finish kernel
  // tells the host where the value is, and the host reshapes the handle and copies it.
  std::uint64_t liveOutTarget[kMaxDeviceSlots * 2];
  std::uint32_t liveOutSlot[kMaxDeviceSlots * 2];
  std::uint8_t liveOutBits[kMaxDeviceSlots * 2];
  std::uint32_t liveOuts = 0;
  std::uint32_t nOps = 0, scalarSlots = 0, bitsSlots = 0;
  std::uint64_t warpWords = 0;   // scratch words per warp: scalars, then the vectors
  std::uint64_t* scratch = nullptr;
  std::uint64_t* selector = nullptr;
  std::uint64_t from = 1, to = 0;  // 1-based, inclusive
  ParallelState* state = nullptr;
  std::uint8_t clearSelector = 0, countIterations = 0, wantLastIndex = 0;
};

// Runs the plan's iterations; `warps` warps of the grid (kBlockThreads-thread blocks).
void launchParallelBody(const Launch& launch, const DevicePlan& plan, unsigned warps);
// The whole-loop form of `v := ROW(i, T); v := v op x; COL..`: a body that is only that, with x
// the same in every iteration: every column j of t at once, with the mask of the selected rows
// (the selector's bits from..to). op is BAND/BOR/BXOR's opcode.
void launchRowUpdateAll(const Launch& launch, std::uint64_t* table, std::uint64_t rows,
                        std::uint64_t cols, const std::uint64_t* x, const std::uint64_t* selector,
                        std::uint64_t from, std::uint64_t to, std::uint8_t op);
// After the body: the live-out vectors copied out of the winning warps' areas, the values the
// host needs stored to `host` (mapped memory: [0] faultIteration, [1..4] faultInfo, [5]
// iterations, [6] lastIndex, from [8] a (written, value) pair per live-out scalar; then `ticket`
// to host[kParallelTicketWord]), and the state made idle again.
inline constexpr int kParallelTicketWord = 7;
inline constexpr int kParallelHostWords = 8 + 2 * 2 * kMaxDeviceSlots;
void launchParallelFinish(const Launch& launch, const DevicePlan& plan, std::uint64_t* host,
                          std::uint64_t ticket);

}  // namespace star::cuda
