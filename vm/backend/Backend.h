// The backend interface: storage and primitives of the STAR-machine's associative processor.
//
// The VM runs scalar control flow on the host and sends every slice, word and table primitive
// here. Two backends implement it: runtime-cpu/ (bit-parallel on the host; the executable
// reference) and runtime-cuda/ (kernels on an NVIDIA GPU).
//
// Contract (the VM guarantees the preconditions; backends do not re-check them):
//  * Values live in backend storage and are named by Handles (small integers, 0 = none). A handle
//    is either a bit vector (a slice or a word: the same storage, the type is the compiler's
//    business) or a table. Handles are created empty and reshaped with resize_*.
//  * Indices here are 0-based (the language's are 1-based; the VM converts and range-checks).
//  * Bit i of a bit vector is bit (i % 64) of 64-bit element i / 64; unused high bits of the last
//    element are always 0 (every primitive keeps them 0). A table of n rows and k columns is
//    column-major: k bit vectors of n bits (column j is a slice of the table).
//  * As a binary number (EQ..GREATEQ, ADD, SUBT, VAL, BIN) bit 0 of a word is the MOST significant
//    bit, as the language writes words left to right.
//  * Shapes (length, rows, cols) are host-side metadata: querying them never waits for a device.
//  * Primitives that return a value the host must branch on (findFirst, step, count, any,
//    compare, getBit, read_*) are synchronisation points. Every other primitive may be queued
//    and run asynchronously, in program order; a backend must make its results visible to later
//    primitives without the VM doing anything.
//  * Operands may alias (dst == a, dst == b): `V := V or W` is bitwise(Or, V, V, W).
//  * Steady-state primitives must not allocate: resize_* only grows capacity when needed.
//  * Failures of the backend itself (out of memory, a device fault) throw BackendError; the VM
//    turns them into runtime errors with the Star source location.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/BitLayout.h"

namespace star {

using Handle = std::uint32_t;
inline constexpr Handle kNoHandle = 0;

enum class BitOp : std::uint8_t { And, Or, Xor };
// The synchronising reductions a caller may start on several backends before waiting for any
// (Backend::queueReduction).
enum class Reduction : std::uint8_t { FindFirst, Count, Compare };

class NativeKernels;     // vm/backend/NativeKernels.h
class ParallelExecutor;  // vm/backend/ParallelPlan.h
class DeviceEngine;      // vm/backend/DeviceEngine.h

struct BackendError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Backend {
 public:
  virtual ~Backend() = default;

  // "cpu" or "cuda"; device() names the processor ("NVIDIA H100 80GB HBM3", "host CPU").
  virtual std::string name() const = 0;
  virtual std::string device() const = 0;
  // The memory of the device that holds the values, in bytes; 0 when it is the host's memory.
  virtual std::uint64_t deviceMemory() const { return 0; }

  // ---- storage ---------------------------------------------------------------------------
  virtual Handle createBits() = 0;   // an empty bit vector (length 0)
  virtual Handle createTable() = 0;  // an empty table (0 x 0)
  virtual void destroy(Handle h) = 0;
  // Reshape; the contents become all zeros.
  virtual void resizeBits(Handle v, std::uint64_t length) = 0;
  virtual void resizeTable(Handle t, std::uint64_t rows, std::uint64_t cols) = 0;
  virtual std::uint64_t length(Handle v) const = 0;
  virtual std::uint64_t rows(Handle t) const = 0;
  virtual std::uint64_t cols(Handle t) const = 0;

  // ---- bit vectors (slices and words) ------------------------------------------------------
  virtual void fill(Handle v, bool bit) = 0;                        // SET (true) / CLR (false)
  virtual void copyBits(Handle dst, Handle src) = 0;               // dst takes src's length
  virtual void bitwise(BitOp op, Handle dst, Handle a, Handle b) = 0;  // len(a) == len(b)
  virtual void bitNot(Handle dst, Handle a) = 0;
  virtual void firstOnly(Handle dst, Handle a) = 0;                // FRST: keep the first 1
  virtual bool getBit(Handle v, std::uint64_t i) = 0;              // sync
  virtual void setBit(Handle v, std::uint64_t i, bool bit) = 0;
  virtual std::int64_t findFirst(Handle v) = 0;  // sync: index of the first 1, or -1
  virtual std::int64_t step(Handle v) = 0;        // sync: findFirst, then clear that bit
  virtual std::uint64_t count(Handle v) = 0;      // sync: number of 1s
  virtual bool any(Handle v) = 0;                 // sync: at least one 1
  // dst := bits [from, from + len) of w (dst may not alias w).
  virtual void trim(Handle dst, Handle w, std::uint64_t from, std::uint64_t len) = 0;
  // bits [from, from + len(v)) of w := v (v may not alias w).
  virtual void replace(Handle w, std::uint64_t from, Handle v) = 0;
  // Unsigned comparison of equal-length words, bit 0 most significant: -1, 0 or 1 (sync).
  virtual int compare(Handle a, Handle b) = 0;
  // Modulo 2^len arithmetic on equal-length words, bit 0 most significant.
  virtual void add(Handle dst, Handle a, Handle b) = 0;
  virtual void sub(Handle dst, Handle a, Handle b) = 0;

  // ---- tables ------------------------------------------------------------------------------
  virtual void copyTable(Handle dst, Handle src) = 0;  // dst takes src's shape
  virtual void getCol(Handle dst, Handle t, std::uint64_t j) = 0;  // dst := column j (rows bits)
  virtual void setCol(Handle t, std::uint64_t j, Handle src) = 0;  // len(src) == rows(t)
  virtual void getRow(Handle dst, Handle t, std::uint64_t i) = 0;  // dst := row i (cols bits)
  virtual void setRow(Handle t, std::uint64_t i, Handle src) = 0;  // len(src) == cols(t)

  // ---- host transfers (sync) ------------------------------------------------------------------
  // Packed as described above: ceil(length / 64) elements.
  virtual void readBits(Handle v, std::vector<std::uint64_t>& out) = 0;
  virtual void writeBits(Handle v, std::uint64_t length, const std::uint64_t* words) = 0;
  // Column-major: cols * ceil(rows / 64) elements, column j at offset j * ceil(rows / 64).
  virtual void readTable(Handle t, std::vector<std::uint64_t>& out) = 0;
  virtual void writeTable(Handle t, std::uint64_t rows, std::uint64_t cols,
                           const std::uint64_t* words) = 0;

  // Wait until every queued primitive has finished (for timing and before exit).
  virtual void synchronize() = 0;

  // ---- several backends at once (runtime-sharded/: one backend per GPU) ----------------------
  // Makes this backend's device the calling thread's current one before a run of primitives on
  // it (a CUDA backend on GPU g selects g); nothing for a backend on the host.
  virtual void makeCurrent() {}
  // A split form of findFirst(a), count(a) and compare(a, b): queueReduction starts it, and
  // reductionResult() waits for the last one queued and returns its value (findFirst: -1 for
  // none). One result per queue. A caller that queues on every GPU before waiting on any has the
  // GPUs reduce at once. By default the reduction runs at queue time.
  virtual void queueReduction(Reduction r, Handle a, Handle b = kNoHandle) {
    pending_ = r == Reduction::Count       ? static_cast<std::int64_t>(count(a))
               : r == Reduction::FindFirst ? findFirst(a)
                                           : compare(a, b);
  }
  virtual std::int64_t reductionResult() { return pending_; }

  // ---- native library procedures ---------------------------------------------------------
  // The fused implementations this backend offers (vm/backend/NativeKernels.h), or null: the VM
  // then runs every native procedure's Star body.
  virtual NativeKernels* nativeKernels() { return nullptr; }

  // ---- parallel loops ----------------------------------------------------------------------
  // The executor of parallel loop bodies (vm/backend/ParallelPlan.h), or null: the VM then runs
  // every loop's sequential code.
  virtual ParallelExecutor* parallelExecutor() { return nullptr; }

  // ---- the device engine -------------------------------------------------------------------
  // An engine that runs whole stretches of bytecode on the device (vm/backend/DeviceEngine.h),
  // or null: the host interpreter then runs every instruction.
  virtual DeviceEngine* deviceEngine() { return nullptr; }
  // The compiled tier of that engine (vm/compile/: the program compiled, the same protocol), or
  // null when the backend has none. useCache: keep compiled code in the disk cache.
  virtual DeviceEngine* compiledEngine(bool useCache) {
    (void)useCache;
    return nullptr;
  }

 private:
  std::int64_t pending_ = 0;  // the default queueReduction's value
};

}  // namespace star
