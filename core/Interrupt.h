// Ctrl-C: a signal handler sets the flag; long-running work polls it (the interpreter at loop
// back-edges and calls, the parser at every rule) and stops with "interrupted".
#pragma once

#include <atomic>

namespace star {

inline std::atomic<bool> gInterruptRequested{false};

}  // namespace star
