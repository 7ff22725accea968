// The optional fused implementations of standard-library procedures: what a `native 'name';`
// procedure (core/Natives.def) may run instead of its Star body. A backend offers them through
// Backend::nativeKernels(); adding a native adds a method here, never to the core Backend
// contract. Each method returns false when this backend does not provide it (or declines these
// arguments), and the VM then runs the Star body, which stays the reference (`star run
// --no-native` always runs it). Handles, indices and preconditions are as in Backend.h; the VM
// (vm/natives/) has checked the preconditions named below and declines every case where the
// body would report an error.
#pragma once

#include <cstdint>
#include <vector>

#include "vm/backend/Backend.h"

namespace star {

struct NBodySystem;  // vm/backend/NBodySystem.h

// How a sort key field's bits are read as a number (docs/LANGUAGE.md, "Numeric data in tables").
enum class KeyKind : std::uint8_t { Unsigned = 0, Signed = 1, Float = 2 };

class NativeKernels {
 public:
  virtual ~NativeKernels() = default;

  // Transitive closure of a square table in place, as WARSHALL computes it: afterwards P(i, j) = 1
  // iff there is a path of one or more arcs from i to j (so P(i, i) = 1 iff i lies on a cycle).
  virtual bool transitiveClosure(Handle t) { return false; }
  //
  // CLOSURE_INSERT (unit dynpaths): the arc u -> v inserted into the n x n adjacency table a,
  // whose transitive closure c is kept (0-based u, v; a != c). When a(u, v) = 1 already, nothing
  // changes if c(u, v) = 1, and the method declines (false, nothing changed) if c(u, v) = 0: c is
  // not the closure of a, which the Star body reports. Otherwise a(u, v) := 1 and, unless
  // c(u, v) = 1, every row x with (c(x, u) = 1 or x = u) and c(x, v) = 0 gets a 1 in every column
  // j with c(v, j) = 1 or j = v (the new paths x ->* u -> v ->* j). Preconditions (checked by the
  // VM): a and c are n x n tables, u, v < n, a != c.
  virtual bool closureInsert(Handle a, Handle c, std::uint64_t u, std::uint64_t v) { return false; }
  //
  // CLOSURE_DELETE (unit dynpaths): the arc u -> v deleted from a, c kept its closure, as the
  // Star body computes it step by step (stdlib/dynpaths.star), in its order. Declines (false,
  // nothing changed) when a(u, v) = 0 or c(u, v) = 0, which the body reports. Preconditions as
  // closureInsert.
  virtual bool closureDelete(Handle a, Handle c, std::uint64_t u, std::uint64_t v) { return false; }
  //
  // The bit-serial extreme search of MINROW/MAXROW (and their field forms): z := the rows of x
  // whose field of `len` columns starting at column `first` (0-based) of t holds the least
  // (greatest when `max`) unsigned number among the rows of x, ties all marked; z takes length
  // rows(t). Preconditions (checked by the VM): len(x) == rows(t), first + len <= cols(t).
  virtual bool extremeRows(Handle t, Handle x, std::uint64_t first, std::uint64_t len, bool max,
                           Handle z) {
    return false;
  }
  //
  // The bit-serial field arithmetic of ADDWF/SUBWF (and ADDW/SUBW): in every row of x, the field
  // of len(v) columns starting at column `first` (0-based) of t := field + v (field - v when
  // `subtract`) modulo 2^len(v), v's bit 0 the most significant; other rows and columns keep
  // their bits. Preconditions (checked by the VM): len(x) == rows(t), first + len(v) <= cols(t).
  virtual bool addField(Handle t, Handle x, std::uint64_t first, Handle v, bool subtract) {
    return false;
  }
  //
  // SORT (unit sort): a stable sort of the rows of t marked in x by the key field of `len`
  // columns starting at column `first` (0-based). All columns move together; the marked rows are
  // permuted among the marked positions (the k-th marked position receives the k-th row in key
  // order), unmarked rows keep their place. Equal keys keep their relative order (also when
  // `descending`). The key is read as `kind` says (docs/LANGUAGE.md, "Numeric data in tables"):
  // Unsigned and Signed (two's complement) for 1 <= len <= 64; Float for len 32 or 64 (IEEE-754
  // bit patterns ordered as their totalOrder: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN).
  // Preconditions (checked by the VM): len(x) == rows(t), first + len <= cols(t), len valid.
  virtual bool sortRows(Handle t, Handle x, std::uint64_t first, std::uint64_t len, KeyKind kind,
                        bool descending) {
    return false;
  }
  //
  // SEGSORT (unit sort): sortRows within each group of consecutive rows, independently; a group
  // starts at row 0 and at every row i with heads(i) = 1. Preconditions as sortRows, and
  // len(heads) == rows(t).
  virtual bool segsortRows(Handle t, Handle x, Handle heads, std::uint64_t first, std::uint64_t len,
                           KeyKind kind, bool descending) {
    return false;
  }
  //
  // The N-body module (unit nbody; vm/backend/NBodySystem.h describes the system). Forces:
  // fx/fy/fz (resized to s.n) := the force on each particle, in double precision on the CPU
  // reference, in single precision (then widened) on a GPU. Verlet: `steps` velocity-Verlet steps
  // of length dt in double precision on s, forces as nbodyForces computes them.
  virtual bool nbodyForces(const NBodySystem& s, std::vector<double>& fx, std::vector<double>& fy,
                           std::vector<double>& fz) {
    return false;
  }
  virtual bool nbodyVerlet(NBodySystem& s, double dt, std::uint64_t steps) { return false; }
};

}  // namespace star
