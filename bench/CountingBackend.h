// A Backend that forwards every call to another and counts them: how many primitives a Star
// program sends, how many of them make the host wait for the result (the synchronisation points
// of Backend.h), and the FND / STEP calls by which a benchmark counts a program's iterations.
// One virtual call and an increment a primitive: nothing the timings can see.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vm/backend/Backend.h"
#include "vm/backend/NativeKernels.h"

namespace star::bench {

struct BackendCounts {
  std::uint64_t primitives = 0;  // every call but shape queries, create and destroy
  std::uint64_t syncs = 0;       // the calls that return a value the host waits for
  std::uint64_t finds = 0;       // findFirst (FND)
  std::uint64_t steps = 0;       // step (STEP)
  std::uint64_t compares = 0;    // compare (the word comparisons: LESS, EQ, ...)
};

class CountingBackend final : public Backend, public NativeKernels {
 public:
  explicit CountingBackend(Backend& inner) : b_(inner) {}
  BackendCounts counts;

  std::string name() const override { return b_.name(); }
  std::string device() const override { return b_.device(); }

  Handle createBits() override { return b_.createBits(); }
  Handle createTable() override { return b_.createTable(); }
  void destroy(Handle h) override { b_.destroy(h); }
  void resizeBits(Handle v, std::uint64_t length) override {
    prim();
    b_.resizeBits(v, length);
  }
  void resizeTable(Handle t, std::uint64_t rows, std::uint64_t cols) override {
    prim();
    b_.resizeTable(t, rows, cols);
  }
  std::uint64_t length(Handle v) const override { return b_.length(v); }
  std::uint64_t rows(Handle t) const override { return b_.rows(t); }
  std::uint64_t cols(Handle t) const override { return b_.cols(t); }

  void fill(Handle v, bool bit) override {
    prim();
    b_.fill(v, bit);
  }
  void copyBits(Handle dst, Handle src) override {
    prim();
    b_.copyBits(dst, src);
  }
  void bitwise(BitOp op, Handle dst, Handle a, Handle b) override {
    prim();
    b_.bitwise(op, dst, a, b);
  }
  void bitNot(Handle dst, Handle a) override {
    prim();
    b_.bitNot(dst, a);
  }
  void firstOnly(Handle dst, Handle a) override {
    prim();
    b_.firstOnly(dst, a);
  }
  bool getBit(Handle v, std::uint64_t i) override {
    sync();
    return b_.getBit(v, i);
  }
  void setBit(Handle v, std::uint64_t i, bool bit) override {
    prim();
    b_.setBit(v, i, bit);
  }
  std::int64_t findFirst(Handle v) override {
    sync();
    ++counts.finds;
    return b_.findFirst(v);
  }
  std::int64_t step(Handle v) override {
    sync();
    ++counts.steps;
    return b_.step(v);
  }
  std::uint64_t count(Handle v) override {
    sync();
    return b_.count(v);
  }
  bool any(Handle v) override {
    sync();
    return b_.any(v);
  }
  void trim(Handle dst, Handle w, std::uint64_t from, std::uint64_t len) override {
    prim();
    b_.trim(dst, w, from, len);
  }
  void replace(Handle w, std::uint64_t from, Handle v) override {
    prim();
    b_.replace(w, from, v);
  }
  int compare(Handle a, Handle b) override {
    sync();
    ++counts.compares;
    return b_.compare(a, b);
  }
  void add(Handle dst, Handle a, Handle b) override {
    prim();
    b_.add(dst, a, b);
  }
  void sub(Handle dst, Handle a, Handle b) override {
    prim();
    b_.sub(dst, a, b);
  }

  void copyTable(Handle dst, Handle src) override {
    prim();
    b_.copyTable(dst, src);
  }
  void getCol(Handle dst, Handle t, std::uint64_t j) override {
    prim();
    b_.getCol(dst, t, j);
  }
  void setCol(Handle t, std::uint64_t j, Handle src) override {
    prim();
    b_.setCol(t, j, src);
  }
  void getRow(Handle dst, Handle t, std::uint64_t i) override {
    prim();
    b_.getRow(dst, t, i);
  }
  void setRow(Handle t, std::uint64_t i, Handle src) override {
    prim();
    b_.setRow(t, i, src);
  }

  void readBits(Handle v, std::vector<std::uint64_t>& out) override {
    sync();
    b_.readBits(v, out);
  }
  void writeBits(Handle v, std::uint64_t length, const std::uint64_t* words) override {
    sync();
    b_.writeBits(v, length, words);
  }
  void readTable(Handle t, std::vector<std::uint64_t>& out) override {
    sync();
    b_.readTable(t, out);
  }
  void writeTable(Handle t, std::uint64_t rows, std::uint64_t cols,
                  const std::uint64_t* words) override {
    sync();
    b_.writeTable(t, rows, cols, words);
  }
  void synchronize() override {
    sync();
    b_.synchronize();
  }

  // Natives are counted as one primitive (a host round trip where they return data).
  NativeKernels* nativeKernels() override { return b_.nativeKernels() ? this : nullptr; }
  bool transitiveClosure(Handle t) override {
    prim();
    return b_.nativeKernels()->transitiveClosure(t);
  }
  bool extremeRows(Handle t, Handle x, std::uint64_t first, std::uint64_t len, bool max,
                   Handle z) override {
    prim();
    return b_.nativeKernels()->extremeRows(t, x, first, len, max, z);
  }
  bool addField(Handle t, Handle x, std::uint64_t first, Handle v, bool subtract) override {
    prim();
    return b_.nativeKernels()->addField(t, x, first, v, subtract);
  }
  bool sortRows(Handle t, Handle x, std::uint64_t first, std::uint64_t len, KeyKind kind,
                bool descending) override {
    prim();
    return b_.nativeKernels()->sortRows(t, x, first, len, kind, descending);
  }
  bool segsortRows(Handle t, Handle x, Handle heads, std::uint64_t first, std::uint64_t len,
                   KeyKind kind, bool descending) override {
    prim();
    return b_.nativeKernels()->segsortRows(t, x, heads, first, len, kind, descending);
  }
  bool nbodyForces(const NBodySystem& s, std::vector<double>& fx, std::vector<double>& fy,
                   std::vector<double>& fz) override {
    sync();
    return b_.nativeKernels()->nbodyForces(s, fx, fy, fz);
  }
  bool nbodyVerlet(NBodySystem& s, double dt, std::uint64_t steps) override {
    sync();
    return b_.nativeKernels()->nbodyVerlet(s, dt, steps);
  }

 private:
  void prim() { ++counts.primitives; }
  void sync() {
    ++counts.primitives;
    ++counts.syncs;
  }

  Backend& b_;
};

}  // namespace star::bench
