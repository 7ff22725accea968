// The device engine's team on host threads (vm/engine/EngineTeam.h's Team): blocks and threads
// stand for a GPU's, barriers are std::barrier. The interpreter engine (ThreadEngine.cpp) and
// compiled code built by the host compiler (CompiledThreadEngine.cpp) run on it; the latter is a
// shared object compiled at run time against this header, so it holds nothing process-wide of its
// own.
#pragma once

#include <atomic>
#include <barrier>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "vm/engine/EngineTeam.h"

namespace star::cpu {

// What the threads of one run share: barriers, control slots, reduction slots.
struct TeamShared {
  TeamShared(unsigned b, unsigned t, const std::atomic<bool>& interrupt)
      : blocks(b), threads(t), grid(static_cast<std::ptrdiff_t>(b * t)), interrupt(interrupt) {
    for (unsigned i = 0; i < b; ++i)
      block.push_back(std::make_unique<std::barrier<>>(static_cast<std::ptrdiff_t>(t)));
    ctl.resize(b * 2);
    slots.resize(std::size_t{b} * 2 * t);
    partial.resize(std::size_t{2} * b);
  }
  unsigned blocks, threads;
  std::barrier<> grid;
  std::vector<std::unique_ptr<std::barrier<>>> block;
  std::vector<engine::Ctl> ctl;        // [block][2]
  std::vector<std::uint64_t> slots;    // [block][parity][thread]
  std::vector<std::uint64_t> partial;  // [parity][block]
  // The process's interrupt flag, by address: compiled code in a shared object reaches the
  // executable's flag through it (its own copy of core/Interrupt.h's would never be set).
  const std::atomic<bool>& interrupt;
};

class ThreadTeam {
 public:
  ThreadTeam(TeamShared& s, unsigned block, unsigned thread) : s_(s), b_(block), t_(thread) {}
  bool leader() const { return t_ == 0; }
  bool teamFirst() const { return b_ == 0 && t_ == 0; }
  std::uint64_t rank() const { return std::uint64_t{b_} * s_.threads + t_; }
  std::uint64_t size() const { return std::uint64_t{s_.blocks} * s_.threads; }
  std::uint64_t blockRank() const { return t_; }
  std::uint64_t blockSize() const { return s_.threads; }
  void syncBlock() {
    if (s_.threads > 1) s_.block[b_]->arrive_and_wait();
  }
  void syncData() {
    if (s_.blocks > 1)
      s_.grid.arrive_and_wait();
    else
      syncBlock();
  }
  engine::Ctl* ctl() { return &s_.ctl[std::size_t{b_} * 2]; }
  bool interrupted() const { return s_.interrupt.load(std::memory_order_relaxed); }
  std::uint64_t reduceMin(std::uint64_t v) {
    return reduce(v, [](std::uint64_t x, std::uint64_t y) { return x < y ? x : y; });
  }
  std::uint64_t reduceSum(std::uint64_t v) {
    return reduce(v, [](std::uint64_t x, std::uint64_t y) { return x + y; });
  }
  bool reduceOr(bool v) {
    return reduce(v, [](std::uint64_t x, std::uint64_t y) { return x | y; }) != 0;
  }

 private:
  template <class Op>
  std::uint64_t reduce(std::uint64_t v, Op op) {
    // Alternating slots: a slot is written again two reductions later, after the other's barrier.
    std::uint64_t* mine = &s_.slots[(std::size_t{b_} * 2 + parity_) * s_.threads];
    mine[t_] = v;
    if (s_.threads > 1) s_.block[b_]->arrive_and_wait();
    std::uint64_t r = mine[0];
    for (unsigned t = 1; t < s_.threads; ++t) r = op(r, mine[t]);
    if (s_.blocks > 1) {
      std::uint64_t* part = &s_.partial[std::size_t{parity_} * s_.blocks];
      if (t_ == 0) part[b_] = r;
      s_.grid.arrive_and_wait();
      r = part[0];
      for (unsigned b = 1; b < s_.blocks; ++b) r = op(r, part[b]);
    }
    parity_ ^= 1;
    return r;
  }

  TeamShared& s_;
  unsigned b_, t_;
  unsigned parity_ = 0;
};

}  // namespace star::cpu
