// The CPU backend's executor of parallel loop bodies (vm/backend/ParallelPlan.h): instruction by
// instruction over all the iterations (each instruction dispatched once per chunk of iterations,
// its operation a tight loop over raw words), so that a loop costs its memory traffic rather
// than an interpreter's dispatch per iteration and instruction.
#pragma once

#include <cstdint>

#include "vm/backend/ParallelPlan.h"

namespace star::cpu {

// What the executor needs of the backend's storage.
class Storage {
 public:
  virtual ~Storage() = default;
  virtual std::uint64_t* wordsOf(Handle h) = 0;       // a bit vector's or a table's words
  virtual std::uint64_t rowsOf(Handle h) = 0;          // a table's rows, a bit vector's length
  virtual std::uint64_t colsOf(Handle h) = 0;          // a table's columns
  virtual void assignBits(Handle h, std::uint64_t length, const std::uint64_t* words) = 0;
};

bool runParallel(const ParallelPlan& plan, ParallelOutcome& outcome, Storage& storage);

}  // namespace star::cpu
