// Counts heap allocations (through a replaced global operator new) while g_counting is set, so
// tests can check that steady-state primitives and VM loops do not allocate. Link
// tests/unit/support/AllocationCounter.cpp into the test executable.
#pragma once

#include <atomic>

extern std::atomic<bool> g_counting;
extern std::atomic<long> g_allocations;
