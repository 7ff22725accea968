// Index and population reductions over packed bit vectors of n 64-bit elements (n > 0).
//
// Each entry point is ONE kernel launch, with no memset before it and no copy after it:
//  * a launch small enough for one block reduces in that block and stores the result directly;
//  * a larger one reduces per block and combines the blocks through atomics on the context's
//    ReduceState; the last block to finish (a self-wrapping atomicInc ticket) reads the final
//    value, restores the accumulator to its idle value for the next launch, and finishes the
//    primitive (stores the result, clears the found bit, ...).
// Results that the host needs go to mapped pinned host memory (ResultTarget): the value, then,
// after a system-scope fence, the launch's ticket. The host spins until the ticket appears and
// reads the value, so a synchronising primitive costs one launch and no stream synchronisation.
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/Launch.h"

namespace star::cuda {

// The index reported when there is no 1 (and the idle value of ReduceState::min_index).
inline constexpr std::uint64_t kNotFound = ~std::uint64_t{0};

// Device-side accumulators of the multi-block reductions, one per DeviceContext (never shared
// between backends). Between launches they hold kReduceStateIdle; every launch that uses them
// leaves them so (the launches of one context are serialised by its stream).
struct ReduceState {
  unsigned long long min_index;  // atomicMin target; kNotFound when idle
  unsigned long long sum;        // atomicAdd target; 0 when idle
  unsigned int done;             // blocks of the running launch that have published; 0 when idle
  unsigned int unused;
};
static_assert(sizeof(ReduceState) == 24);
inline constexpr ReduceState kReduceStateIdle{kNotFound, 0, 0, 0};

// Words of the mapped host result area.
inline constexpr int kTicketWord = 0;  // the ticket of the launch whose value is in kValueWord
inline constexpr int kValueWord = 1;

struct ResultTarget {
  ReduceState* state = nullptr;   // device memory
  std::uint64_t* host = nullptr;  // device address of the mapped host result area
  std::uint64_t ticket = 0;       // stored to host[kTicketWord] after host[kValueWord]
};

// Each of these stores its result to host[kValueWord], then target.ticket to host[kTicketWord].
// result := index of the first 1 of a, or kNotFound.
void launchFindFirst(const Launch& launch, const ResultTarget& target, const std::uint64_t* a,
                       std::uint64_t n);
// The same, and that bit of v is cleared (STEP), in the same launch.
void launchStep(const Launch& launch, const ResultTarget& target, std::uint64_t* v,
                 std::uint64_t n);
// result := number of 1s of a.
void launchCount(const Launch& launch, const ResultTarget& target, const std::uint64_t* a,
                  std::uint64_t n);
// result := compare(a, b) as an int64 (-1, 0, 1): bit 0 is the most significant, so the
// first bit where they differ decides.
void launchCompare(const Launch& launch, const ResultTarget& target, const std::uint64_t* a,
                    const std::uint64_t* b, std::uint64_t n);

// dst (n elements) := only the first 1 of a (FRST); dst may alias a. One launch; nothing goes to
// the host.
void launchFirstOnly(const Launch& launch, ReduceState* state, std::uint64_t* dst,
                       const std::uint64_t* a, std::uint64_t n);

}  // namespace star::cuda
