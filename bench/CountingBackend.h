// A Backend that forwards every call to another and counts them: how many primitives a Star
// program sends, how many of them make the host wait for the result (the synchronisation points
// of Backend.h), and the FND / STEP calls by which a benchmark counts a program's iterations.
// One virtual call and an increment a primitive: nothing the timings can see.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vm/backend/Backend.h"

namespace star::bench {

struct BackendCounts {
  std::uint64_t primitives = 0;  // every call but shape queries, create and destroy
  std::uint64_t syncs = 0;       // the calls that return a value the host waits for
  std::uint64_t finds = 0;       // find_first (FND)
  std::uint64_t steps = 0;       // step (STEP)
};

class CountingBackend final : public Backend {
 public:
  explicit CountingBackend(Backend& inner) : b_(inner) {}
  BackendCounts counts;

  std::string name() const override { return b_.name(); }
  std::string device() const override { return b_.device(); }

  Handle create_bits() override { return b_.create_bits(); }
  Handle create_table() override { return b_.create_table(); }
  void destroy(Handle h) override { b_.destroy(h); }
  void resize_bits(Handle v, std::uint64_t length) override {
    prim();
    b_.resize_bits(v, length);
  }
  void resize_table(Handle t, std::uint64_t rows, std::uint64_t cols) override {
    prim();
    b_.resize_table(t, rows, cols);
  }
  std::uint64_t length(Handle v) const override { return b_.length(v); }
  std::uint64_t rows(Handle t) const override { return b_.rows(t); }
  std::uint64_t cols(Handle t) const override { return b_.cols(t); }

  void fill(Handle v, bool bit) override {
    prim();
    b_.fill(v, bit);
  }
  void copy_bits(Handle dst, Handle src) override {
    prim();
    b_.copy_bits(dst, src);
  }
  void bitwise(BitOp op, Handle dst, Handle a, Handle b) override {
    prim();
    b_.bitwise(op, dst, a, b);
  }
  void bit_not(Handle dst, Handle a) override {
    prim();
    b_.bit_not(dst, a);
  }
  void first_only(Handle dst, Handle a) override {
    prim();
    b_.first_only(dst, a);
  }
  bool get_bit(Handle v, std::uint64_t i) override {
    sync();
    return b_.get_bit(v, i);
  }
  void set_bit(Handle v, std::uint64_t i, bool bit) override {
    prim();
    b_.set_bit(v, i, bit);
  }
  std::int64_t find_first(Handle v) override {
    sync();
    ++counts.finds;
    return b_.find_first(v);
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

  void copy_table(Handle dst, Handle src) override {
    prim();
    b_.copy_table(dst, src);
  }
  void get_col(Handle dst, Handle t, std::uint64_t j) override {
    prim();
    b_.get_col(dst, t, j);
  }
  void set_col(Handle t, std::uint64_t j, Handle src) override {
    prim();
    b_.set_col(t, j, src);
  }
  void get_row(Handle dst, Handle t, std::uint64_t i) override {
    prim();
    b_.get_row(dst, t, i);
  }
  void set_row(Handle t, std::uint64_t i, Handle src) override {
    prim();
    b_.set_row(t, i, src);
  }

  void read_bits(Handle v, std::vector<std::uint64_t>& out) override {
    sync();
    b_.read_bits(v, out);
  }
  void write_bits(Handle v, std::uint64_t length, const std::uint64_t* words) override {
    sync();
    b_.write_bits(v, length, words);
  }
  void read_table(Handle t, std::vector<std::uint64_t>& out) override {
    sync();
    b_.read_table(t, out);
  }
  void write_table(Handle t, std::uint64_t rows, std::uint64_t cols,
                   const std::uint64_t* words) override {
    sync();
    b_.write_table(t, rows, cols, words);
  }
  void synchronize() override {
    sync();
    b_.synchronize();
  }

  bool transitive_closure(Handle t) override {
    prim();
    return b_.transitive_closure(t);
  }
  bool extreme_rows(Handle t, Handle x, std::uint64_t first, std::uint64_t len, bool max,
                    Handle z) override {
    prim();
    return b_.extreme_rows(t, x, first, len, max, z);
  }
  bool add_field(Handle t, Handle x, std::uint64_t first, Handle v, bool subtract) override {
    prim();
    return b_.add_field(t, x, first, v, subtract);
  }
  bool sort_rows(Handle t, Handle x, std::uint64_t first, std::uint64_t len, KeyKind kind,
                 bool descending) override {
    prim();
    return b_.sort_rows(t, x, first, len, kind, descending);
  }
  bool segsort_rows(Handle t, Handle x, Handle heads, std::uint64_t first, std::uint64_t len,
                    KeyKind kind, bool descending) override {
    prim();
    return b_.segsort_rows(t, x, heads, first, len, kind, descending);
  }
  bool nbody_forces(const NBodySystem& s, std::vector<double>& fx, std::vector<double>& fy,
                    std::vector<double>& fz) override {
    sync();
    return b_.nbody_forces(s, fx, fy, fz);
  }
  bool nbody_verlet(NBodySystem& s, double dt, std::uint64_t steps) override {
    sync();
    return b_.nbody_verlet(s, dt, steps);
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
