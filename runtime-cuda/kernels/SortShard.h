// One GPU's block of a SORT whose table is split by rows across GPUs (runtime-sharded/; the
// exchange between the phases is MultiGpuNatives.cpp's, through NCCL). The block's marked rows
// become records as in RowSort.cu (steps 1 and 2) and are sorted on this GPU; SortSplit.h then
// finds where the runs of all GPUs are cut, every GPU sends each other GPU the part of its run
// that belongs to that GPU's marked positions, and each merges what it receives (one sorted run
// per source GPU, merged stably: the earlier GPU's records first on equal keys, as their rows
// come first) and writes it back into its marked rows (RowSort.cu's step 4). Every phase but the
// two that return counts is queued on the context's stream.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "vm/backend/NativeKernels.h"

namespace star::cuda {

class DeviceContext;

class SortShard {
 public:
  // Probes one ranks() round answers (boundaries between GPUs: up to 16 GPUs, --devices' limit).
  static constexpr unsigned kMaxProbes = 15;
  // Whether a block of this shape can take part: the columns outside the key travel in the
  // record (at most 64 of them), and a block's records are numbered with 32 bits.
  static bool handles(std::uint64_t rows, std::uint64_t cols, std::uint64_t len);

  // table: the block (rows x cols, column-major packed bits, Backend.h); x: its rows of the
  // control slice. Key and order as Backend::sortRows.
  SortShard(DeviceContext& ctx, std::uint64_t* table, std::uint64_t rows, std::uint64_t cols,
            const std::uint64_t* x, std::uint64_t first, std::uint64_t len, KeyKind kind,
            bool descending);
  ~SortShard();
  SortShard(const SortShard&) = delete;
  SortShard& operator=(const SortShard&) = delete;

  // 1. The block's marked rows: queueCount() on every GPU, then marked() (waits).
  void queueCount();
  std::uint64_t marked();
  // 2. The marked rows' records, sorted by key on this GPU (sortedKeys/sortedValues).
  void sortLocal();
  // 3. For each probe (a key in the order the records are sorted by, at most kMaxProbes):
  //    {records with a smaller key, records with a key not greater}. Queue on every GPU, then
  //    ranks() (waits).
  void queueRanks(const std::vector<std::uint64_t>& probes);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranks();
  std::uint64_t maxKey() const;  // the greatest key a record can have
  // 4. The exchange: record i is keyBytes() at sortedKeys() + i * keyBytes() and, when
  //    valueBytes() > 0, its value likewise. incoming*: room for marked() records.
  unsigned keyBytes() const;
  unsigned valueBytes() const;
  const void* sortedKeys() const;
  const void* sortedValues() const;
  void* incomingKeys();
  void* incomingValues();
  // 5. The incoming records, one sorted run per source GPU in source order (their lengths sum to
  //    marked()), merged stably (merge: scratch from the pool, so it may throw; run it on every
  //    GPU first), then written into the block's marked rows in order (writeBack: no allocation).
  void merge(const std::vector<std::uint64_t>& runs);
  void writeBack();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace star::cuda
