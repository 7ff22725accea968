// Ctrl-C: a signal handler sets the flag; long-running work polls it (the interpreter at loop
// back-edges, calls and hand-overs to the device engine, the engines at their polls, the parser
// at every rule, long primitives and blocking reads) and stops with "interrupted".
#pragma once

#include <atomic>
#include <stdexcept>

namespace star {

inline std::atomic<bool> gInterruptRequested{false};

// Thrown where a long primitive or a blocking read notices the flag; the interpreter locates it
// like any other run-time error ("runtime error: interrupted" at the statement).
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted") {}
};

inline void throwIfInterrupted() {
  if (gInterruptRequested.load(std::memory_order_relaxed)) throw Interrupted();
}

}  // namespace star
