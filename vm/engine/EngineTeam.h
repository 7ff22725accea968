// The team that runs the device engine (EngineCore.h), and the data-parallel pieces every
// instruction on the bits is made of. A team is the threads of one GPU block, of a whole
// cooperative grid, or host threads standing for them in tests; its threads are grouped in
// blocks, and each block has one interpreting thread, its leader. The pieces here are free
// function templates over the Team, so that code other than the interpreter (generated kernels)
// can use them the same way.
//
// What a Team type must provide (runtime-cuda/kernels/Engine.cu's GpuTeam, runtime-cpu/
// ThreadEngine.cpp's ThreadTeam). The collective ones (barriers, reductions) are called by every
// thread of the team together, in the same order:
//   bool leader()                  this thread is its block's interpreting thread
//   bool teamFirst()               one thread of the whole team (writes single words of shared data)
//   u64 rank(), size()             this thread's place in the team (0 .. size - 1), the team's size
//   u64 blockRank(), blockSize()   the same within its block; size() is a multiple of blockSize()
//   void syncBlock()               a barrier of this block
//   void syncData()                a barrier of the whole team: bits written by any thread before it
//                                  are visible to all after it, and every thread is done reading
//                                  the state, which the leader may then change (a shape's length,
//                                  a result register)
//   u64 reduceMin(u64), u64 reduceSum(u64), bool reduceOr(bool)
//                                  over the whole team, the result to every thread (each contains
//                                  the barriers it needs; a reduction's slots may be written again
//                                  only after the next one, so they alternate)
//   Ctl* ctl()                     this block's two control slots (shared by the block's threads)
//   bool interrupted()             the host asks the run to stop (read by leaders only)
#pragma once

#include <bit>
#include <concepts>
#include <cstdint>

#include "core/BitLayout.h"
#include "vm/bytecode/Opcodes.h"
#include "vm/engine/EngineLayout.h"

namespace star::engine {

#if !defined(__CUDA_ARCH__)
static_assert(std::endian::native == std::endian::little, "gatherRow writes words byte by byte");
#endif

// Where the next step of a block is. Two slots alternate between steps, so that the leader's
// writes for step s + 1 never meet a slow thread still reading the slot of step s.
struct Ctl {
  std::uint32_t pc;
  std::uint32_t function;
  std::uint64_t base;
  std::uint32_t stop;  // StopReason: the block stops at (pc, function, base)
  std::uint32_t mode;  // kRun, kCheck (agree on the interrupt flag first), kChecked
  std::uint32_t jobs;  // CopyJobs to run first
  std::uint32_t reads;  // the leader read bits in the step before (grids: settle before writes)
};
inline constexpr std::uint32_t kRun = 0, kCheck = 1, kChecked = 2;

// The requirements above, as far as a signature says them.
template <class T>
concept EngineTeam = requires(T& t, const T& c, std::uint64_t v, bool b) {
  { c.leader() } -> std::convertible_to<bool>;
  { c.teamFirst() } -> std::convertible_to<bool>;
  { c.rank() } -> std::convertible_to<std::uint64_t>;
  { c.size() } -> std::convertible_to<std::uint64_t>;
  { c.blockRank() } -> std::convertible_to<std::uint64_t>;
  { c.blockSize() } -> std::convertible_to<std::uint64_t>;
  t.syncBlock();
  t.syncData();
  { t.reduceMin(v) } -> std::convertible_to<std::uint64_t>;
  { t.reduceSum(v) } -> std::convertible_to<std::uint64_t>;
  { t.reduceOr(b) } -> std::convertible_to<bool>;
  { t.ctl() } -> std::same_as<Ctl*>;
  { c.interrupted() } -> std::convertible_to<bool>;
};

inline constexpr std::uint64_t kNone = ~std::uint64_t{0};

// Words of a shape's value (a table's columns, or a bit vector).
STAR_HD std::uint64_t valueWords(const Shape& s) { return s.cols * wordsForBits(s.rows); }

// ---- data-parallel pieces: every thread of the team calls them together and does its share of
// the words. None ends with a barrier unless it says so: the caller's syncData() makes what they
// wrote visible to the team (several may share one when none reads what another writes).

// d[0 .. n) = s[0 .. n) (nothing when they are the same words).
template <class Team>
STAR_HD void copyWords(Team& t, Word* d, const Word* s, std::uint64_t n) {
  if (d == s) return;
  for (std::uint64_t w = t.rank(); w < n; w += t.size()) d[w] = s[w];
}

template <class Team>
STAR_HD void fillWords(Team& t, Word* d, std::uint64_t n, Word v) {
  for (std::uint64_t w = t.rank(); w < n; w += t.size()) d[w] = v;
}

// Row k (0-based) of table tb, as a bit vector of tb.cols bits: a thread per byte of the result
// (its eight loads independent of each other), so that a long row is gathered by many threads.
template <class Team>
STAR_HD void gatherRow(Team& t, Word* D, const Shape& tb, std::uint64_t k) {
  const std::uint64_t wpc = wordsForBits(tb.rows), bytes = wordsForBits(tb.cols) * 8;
  if (bytes == 0) return;  // no columns: no storage either
  const Word* column = tb.data + k / 64;  // word k / 64 of column 0; column j is wpc words on
  const unsigned shift = static_cast<unsigned>(k % 64);
  auto* out = reinterpret_cast<unsigned char*>(D);
  for (std::uint64_t y = t.rank(); y < bytes; y += t.size()) {
    unsigned v = 0;
    for (unsigned b = 0; b < 8; ++b) {
      const std::uint64_t j = y * 8 + b;
      if (j < tb.cols) v |= static_cast<unsigned>((column[j * wpc] >> shift) & 1) << b;
    }
    out[y] = static_cast<unsigned char>(v);  // bytes of a little-endian word: bits 8y..8y+7
  }
}

// The first 1 of n words (a bit index), or kNone; to every thread, after a reduction (so every
// read of x is done when it returns).
template <class Team>
STAR_HD std::uint64_t findFirst(Team& t, const Word* x, std::uint64_t n) {
  std::uint64_t mine = kNone;
  for (std::uint64_t w = t.rank(); w < n; w += t.size())
    if (x[w]) {
      mine = w * 64 + static_cast<std::uint64_t>(countTrailingZeros(x[w]));
      break;
    }
  return t.reduceMin(mine);
}

// x op y for the bitwise instructions (BAND, BOR, BXOR).
STAR_HD Word combine(Op op, Word x, Word y) {
  return op == Op::BAND ? x & y : op == Op::BOR ? x | y : x ^ y;
}

// The n copies the leader left (by-value parameters, a function's bit-vector result: CALL and
// RET), then a barrier of the team.
template <class Team>
STAR_HD void runJobs(Team& t, const CopyJob* jobs, const Shape* shapes, std::uint32_t n) {
  for (std::uint32_t j = 0; j < n; ++j) {
    const CopyJob job = jobs[j];
    const Shape& src = shapes[job.src];
    copyWords(t, shapes[job.dst].data, src.data, valueWords(src));
  }
  t.syncData();
}

// Copies the parts of a region in use (the header and each array's prefix) with the threads of a
// block: into a block's region before a run, and out of block 0's after it.
template <class Team>
STAR_HD_FN void copyRegion(Team& t, Word* to, const Word* from, const Layout& l, const Header& h) {
  auto copy = [&](std::uint64_t offset, std::uint64_t words) {
    for (std::uint64_t w = t.blockRank(); w < words; w += t.blockSize()) to[offset + w] = from[offset + w];
  };
  copy(0, wordsFor(sizeof(Header)));
  copy(l.stack, h.stackSize);
  copy(l.frames, wordsFor(h.frames * sizeof(Frame)));
  copy(l.owned, wordsFor(h.owned * sizeof(Owned)));
  copy(l.freeBits, wordsFor(h.freeBits * sizeof(std::uint32_t)));
  copy(l.freeTables, wordsFor(h.freeTables * sizeof(std::uint32_t)));
  copy(l.shapes, wordsFor(h.handles * sizeof(Shape)));
  copy(l.globals, h.globals);
  if (h.flags & kFlagStats) copy(l.opCounts, kOpCounters);
}

}  // namespace star::engine
