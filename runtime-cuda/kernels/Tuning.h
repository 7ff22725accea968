// The kernels' tuning: launch shapes and per-thread work, one policy per execution regime, kept
// apart from the algorithms as CUB keeps its tuning policies. A value here changes speed, never a
// result (the ties an algorithm relies on are static_asserts next to it). Algorithmic constants
// (the warp's width, a value's bits, sort size classes) stay with their algorithms. Plain C++:
// host code includes it too.
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/Warp.h"
#include "vm/engine/EngineLayout.h"

namespace star::cuda {

// Grid-stride kernels over elements (Launch.h's gridFor and every kernel of no other policy).
struct ElementwisePolicy {
  // 8 warps: small enough for several resident blocks, large enough to hide load latency.
  static constexpr unsigned kBlockThreads = 256;
  // Resident blocks of that size per SM on sm_90 (2,048 threads): grids are capped at this many
  // per SM (DeviceContext's launch limits).
  static constexpr unsigned kBlocksPerSm = 8;
  // Work per thread when the grid is not capped: pairs of elements (16-byte loads) for the
  // element-wise operations (Elementwise.cu), columns for row reads and writes (Rows.cu),
  // destination elements for shifts (Shift.cu).
  static constexpr std::uint64_t kPairsPerThread = 4;
  static constexpr std::uint64_t kColumnsPerThread = 4;
  static constexpr std::uint64_t kShiftElementsPerThread = 4;
};

// ADDW / SUBW (Arith.cu): one block scans the whole word, limbs from the least significant end.
struct ArithPolicy {
  // The largest block: words are short, so most take one chunk and no carry hand-over.
  static constexpr unsigned kThreads = 1024;
};

// Device-wide find-first and count (Search.cu).
struct SearchPolicy {
  // Independent loads a thread has in flight per pass of its grid-stride loop.
  static constexpr int kUnroll = 4;
  // Up to two passes of one block: no atomics, no last-block hand-over below this many elements.
  static constexpr std::uint64_t kSingleBlockWords =
      2 * ElementwisePolicy::kBlockThreads * kUnroll;
};

// MINROW / MAXROW and ADDWF / SUBWF (Fields.cu).
struct FieldsPolicy {
  // The one-block extreme search: the largest block, so that the most columns need no launches.
  static constexpr unsigned kBlockMaxThreads = 1024;
  // Its candidate elements per thread, at most: they live in registers.
  static constexpr int kMaxPer = 8;
  // Columns a thread of the field addition loads at once: loads in flight against registers.
  static constexpr unsigned kAddBatch = 8;
};

// Row sorts: the tiled extract / write-back of RowSort.cu, the one-block small sort of
// RowSortSmall.cu and the segmented sort of SegmentedSort.cu.
struct SortPolicy {
  struct Rows {
    // Warps of an extract / write-back block; each warp stages its records in shared memory.
    static constexpr unsigned kTileWarps = 4;
    static constexpr unsigned kTileThreads = kTileWarps * kWarp;
    // Blocks per multiprocessor they are built for: as many as their shared memory nearly allows
    // (<= 102 registers).
    static constexpr unsigned kTileBlocksPerSm = 5;
  };
  struct Small {
    // The plan block: kSmallSortRows rows, two a thread (RowSortSmall.cu asserts the product).
    static constexpr unsigned kPlanThreads = 1024;
    // The move blocks: a warp a column, 8 columns a block.
    static constexpr unsigned kMoveThreads = 256;
  };
  struct Segmented {
    // Tile blocks of the short-segment kernel and their items per thread (a tile in shared memory).
    static constexpr unsigned kTileThreads = 256;
    static constexpr unsigned kTilePerThread = 8;
    // Blocks of the warp and block kernels (SegmentedSort.cu asserts the block size class).
    static constexpr unsigned kGroupThreads = 256;
  };
};

// Transitive closure steps (Closure.cu).
struct ClosurePolicy {
  // A step block: warp 0 closes the diagonal tile while the other 15 stage the pivot rows.
  static constexpr unsigned kStepThreads = 512;
  static constexpr unsigned kStepWarps = kStepThreads / kWarp;
  // Step blocks resident per multiprocessor: the grid is one wave of them.
  static constexpr unsigned kBlocksPerSm = 2;
  // Elements of a row per lane, at most (T): bounded by a block's shared memory.
  static constexpr unsigned kMaxPerLane = 4;
};

// The device engine (Engine.cu, CudaEngine.cpp).
struct EnginePolicy {
  // The largest block, the engine kernel's launch bound; a grid runs blocks of this size.
  static constexpr unsigned kMaxThreads = 1024;
  // Above this many words in one value's column (or vector), the engine runs as a grid
  // (about 10^6 rows); below it, as one block.
  static constexpr std::uint64_t kGridWords = 16384;
  // Words of the largest value per thread in one block of compiled code. Every thread of compiled
  // code runs the scalar code and each instruction's checks (the interpreter's other threads wait
  // at a barrier meanwhile), so a block of more warps than the words need only competes for issue
  // slots: DIJKSTRA on 10^4 vertices (619 words), H200: 1.75 ms a step with 640 threads, 1.10 with
  // 256, 1.04 with 64.
  // Compiled code's owned loops keep as many words a thread (engine::kOwnedWords).
  static constexpr std::uint64_t kCompiledWordsPerThread = engine::kOwnedWords;
};

// N-body pair forces (NBodyForces.cu).
struct NBodyPolicy {
  // The square loop: kSpan i particles a block, kSpan / 64 = 4 per thread; 8 blocks a
  // multiprocessor for its launch bound.
  static constexpr unsigned kSquareThreads = 64;
  static constexpr unsigned kSquareBlocksPerSm = 8;
  // The triangular loop: 4 warps a block, each taking items; 4 blocks a multiprocessor.
  static constexpr unsigned kTriThreads = 128;
  static constexpr unsigned kTriBlocksPerSm = 4;
};

}  // namespace star::cuda
