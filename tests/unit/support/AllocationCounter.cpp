#include "tests/unit/support/AllocationCounter.h"

#include <cstdlib>
#include <new>

std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};

// noinline keeps GCC from pairing an inlined free() with `new` (-Wmismatched-new-delete).
[[gnu::noinline]] void* operator new(std::size_t n) {
  if (g_counting) ++g_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
