#include "runtime-sharded/ShardedBackend.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime-sharded/ShardLayout.h"
#include "vm/backend/HandleTable.h"
#include "vm/backend/NativeKernels.h"

namespace star {
namespace {

class ShardedBackend final : public Backend, public NativeKernels {
 public:
  explicit ShardedBackend(ShardedParts parts)
      : dev_(std::move(parts.devices)),
        host_(std::move(parts.host)),
        natives_(std::move(parts.natives)) {
    if (dev_.empty() || dev_.size() > kMaxShards)
      throw BackendError("sharded backend: 1 to " + std::to_string(kMaxShards) + " devices");
    layout_.shards = static_cast<unsigned>(dev_.size());
    layout_.minWords = std::max<std::uint64_t>(parts.minWords, 1);
    for (unsigned g = 0; g < shards(); ++g) scratch_.push_back(on(g).createBits());
    hostA_ = host_->createBits();
    hostB_ = host_->createBits();
    hostD_ = host_->createBits();
  }

  // Each device's backend is torn down with its device current (its stream, pool, memory).
  ~ShardedBackend() override {
    natives_.reset();
    for (std::size_t g = dev_.size(); g-- > 0;) {  // device 0 last: it stays the current one
      dev_[g]->makeCurrent();
      dev_[g].reset();
    }
  }

  std::string name() const override { return dev_[0]->name(); }
  std::string device() const override {
    return std::to_string(shards()) + " x " + dev_[0]->device() + " (rows split across " +
           std::to_string(shards()) + " devices)";
  }
  std::uint64_t deviceMemory() const override {
    std::uint64_t total = 0;
    for (const auto& d : dev_) total += d->deviceMemory();
    return total;
  }

  // ---- storage ---------------------------------------------------------------------------
  Handle createBits() override { return create(HandleKind::Bits); }
  Handle createTable() override { return create(HandleKind::Table); }

  void destroy(Handle h) override {
    Value& v = values_.at(h);
    for (unsigned g = 0; g < shards(); ++g)
      if (v.part[g] != kNoHandle) on(g).destroy(v.part[g]);
    values_.release(h);
  }

  void resizeBits(Handle h, std::uint64_t length) override {
    Value& v = values_.bits(h);
    for (unsigned g = 0; g < shards(); ++g) on(g).resizeBits(v.part[g], layout_.length(length, g));
    v.rows = length;
  }

  void resizeTable(Handle h, std::uint64_t rows, std::uint64_t cols) override {
    Value& v = values_.table(h);
    for (unsigned g = 0; g < shards(); ++g)
      on(g).resizeTable(v.part[g], layout_.length(rows, g), cols);
    v.rows = rows;
    v.cols = cols;
  }

  std::uint64_t length(Handle h) const override { return values_.at(h).rows; }
  std::uint64_t rows(Handle h) const override { return values_.at(h).rows; }
  std::uint64_t cols(Handle h) const override { return values_.at(h).cols; }

  // ---- element-wise: every device on its own block ---------------------------------------------
  void fill(Handle h, bool bit) override {
    const Value& v = values_.at(h);
    for (unsigned g = 0; g < shards(); ++g) on(g).fill(v.part[g], bit);
  }

  void copyBits(Handle dst, Handle src) override {
    each2(dst, src, [](Backend& b, Handle d, Handle s) { b.copyBits(d, s); });
    values_.at(dst).rows = values_.at(src).rows;
  }

  void bitwise(BitOp op, Handle dst, Handle a, Handle b) override {
    const Value& x = values_.at(a);
    const Value& y = values_.at(b);
    Value& d = values_.at(dst);
    for (unsigned g = 0; g < shards(); ++g) on(g).bitwise(op, d.part[g], x.part[g], y.part[g]);
    d.rows = x.rows;
  }

  void bitNot(Handle dst, Handle a) override {
    each2(dst, a, [](Backend& b, Handle d, Handle s) { b.bitNot(d, s); });
    values_.at(dst).rows = values_.at(a).rows;
  }

  void copyTable(Handle dst, Handle src) override {
    each2(dst, src, [](Backend& b, Handle d, Handle s) { b.copyTable(d, s); });
    values_.at(dst).rows = values_.at(src).rows;
    values_.at(dst).cols = values_.at(src).cols;
  }

  void getCol(Handle dst, Handle t, std::uint64_t j) override {
    each2(dst, t, [j](Backend& b, Handle d, Handle s) { b.getCol(d, s, j); });
    values_.at(dst).rows = values_.at(t).rows;
  }

  void setCol(Handle t, std::uint64_t j, Handle src) override {
    each2(t, src, [j](Backend& b, Handle d, Handle s) { b.setCol(d, j, s); });
  }

  // ---- reductions: queued on every device, then combined -------------------------------------
  std::int64_t findFirst(Handle h) override {
    const Value& v = values_.at(h);
    queue(v, Reduction::FindFirst);
    std::int64_t found = -1;
    for (unsigned g = 0; g < queued_; ++g) {
      const std::int64_t local = on(g).reductionResult();
      if (found < 0 && local >= 0)
        found = static_cast<std::int64_t>(layout_.first(v.rows, g)) + local;
    }
    return found;
  }

  std::int64_t step(Handle h) override {
    const std::int64_t i = findFirst(h);
    if (i >= 0) setBit(h, static_cast<std::uint64_t>(i), false);
    return i;
  }

  std::uint64_t count(Handle h) override {
    queue(values_.at(h), Reduction::Count);
    std::uint64_t total = 0;
    for (unsigned g = 0; g < queued_; ++g)
      total += static_cast<std::uint64_t>(on(g).reductionResult());
    return total;
  }

  bool any(Handle h) override { return findFirst(h) >= 0; }

  int compare(Handle a, Handle b) override {
    queue(values_.at(a), Reduction::Compare, &values_.at(b));
    int verdict = 0;
    for (unsigned g = 0; g < queued_; ++g) {
      const auto local = static_cast<int>(on(g).reductionResult());
      if (verdict == 0) verdict = local;
    }
    return verdict;
  }

  // Only the device with the first 1 keeps a bit; the others clear their block.
  void firstOnly(Handle dst, Handle a) override {
    const std::int64_t i = findFirst(a);
    const std::uint64_t rows = values_.at(a).rows;
    const unsigned keeper = i < 0 ? shards() : layout_.owner(rows, static_cast<std::uint64_t>(i));
    const Value& x = values_.at(a);
    Value& d = values_.at(dst);
    for (unsigned g = 0; g < shards(); ++g) {
      if (g == keeper)
        on(g).firstOnly(d.part[g], x.part[g]);
      else
        on(g).resizeBits(d.part[g], layout_.length(rows, g));  // all zeros
    }
    d.rows = rows;
  }

  // ---- single bits and rows: the owning device ------------------------------------------------
  bool getBit(Handle h, std::uint64_t i) override {
    const Value& v = values_.at(h);
    const unsigned g = layout_.owner(v.rows, i);
    return on(g).getBit(v.part[g], i - layout_.first(v.rows, g));
  }

  void setBit(Handle h, std::uint64_t i, bool bit) override {
    const Value& v = values_.at(h);
    const unsigned g = layout_.owner(v.rows, i);
    on(g).setBit(v.part[g], i - layout_.first(v.rows, g), bit);
  }

  void getRow(Handle dst, Handle t, std::uint64_t i) override {
    const Value& table = values_.table(t);
    const unsigned g = layout_.owner(table.rows, i);
    const std::uint64_t local = i - layout_.first(table.rows, g);
    if (g == 0 && layout_.whole(table.cols)) {
      on(0).getRow(values_.at(dst).part[0], table.part[0], local);
      settle(dst, table.cols);
      return;
    }
    Backend& owner = on(g);
    owner.getRow(scratch_[g], table.part[g], local);
    owner.readBits(scratch_[g], row_);
    scatter(dst, table.cols, row_.data());
  }

  void setRow(Handle t, std::uint64_t i, Handle src) override {
    const Value& table = values_.table(t);
    const Value& s = values_.at(src);
    const unsigned g = layout_.owner(table.rows, i);
    const std::uint64_t local = i - layout_.first(table.rows, g);
    if (g == 0 && layout_.whole(s.rows)) {
      on(0).setRow(table.part[0], local, s.part[0]);
      return;
    }
    gather(src, row_);
    Backend& owner = on(g);
    owner.writeBits(scratch_[g], s.rows, row_.data());
    owner.setRow(table.part[g], local, scratch_[g]);
  }

  // ---- words: on device 0 when they fit its block, else through the host ------------------------
  void trim(Handle dst, Handle w, std::uint64_t from, std::uint64_t len) override {
    if (layout_.whole(values_.at(w).rows) && layout_.whole(len)) {
      on(0).trim(values_.at(dst).part[0], values_.at(w).part[0], from, len);
      settle(dst, len);
      return;
    }
    toHost(w, hostA_);
    host_->trim(hostD_, hostA_, from, len);
    fromHost(hostD_, dst);
  }

  void replace(Handle w, std::uint64_t from, Handle v) override {
    if (layout_.whole(values_.at(w).rows)) {  // v is not longer than w
      on(0).replace(values_.at(w).part[0], from, values_.at(v).part[0]);
      return;
    }
    toHost(w, hostA_);
    toHost(v, hostB_);
    host_->replace(hostA_, from, hostB_);
    fromHost(hostA_, w);
  }

  void add(Handle dst, Handle a, Handle b) override { arithmetic(dst, a, b, false); }
  void sub(Handle dst, Handle a, Handle b) override { arithmetic(dst, a, b, true); }

  // ---- host transfers ------------------------------------------------------------------------
  void readBits(Handle v, std::vector<std::uint64_t>& out) override { gather(v, out); }

  void writeBits(Handle v, std::uint64_t length, const std::uint64_t* words) override {
    values_.bits(v);
    scatter(v, length, words);
  }

  // Column j of device g's part goes to words [first/64, first/64 + its words) of column j.
  void readTable(Handle t, std::vector<std::uint64_t>& out) override {
    const Value& v = values_.table(t);
    const std::uint64_t colWords = wordsForBits(v.rows);
    out.assign(v.cols * colWords, 0);
    for (unsigned g = 0; g < shards(); ++g) {
      const std::uint64_t n = layout_.length(v.rows, g);
      if (n == 0) continue;
      on(g).readTable(v.part[g], part_);
      const std::uint64_t partWords = wordsForBits(n);
      const std::uint64_t offset = layout_.first(v.rows, g) / 64;
      for (std::uint64_t j = 0; j < v.cols; ++j)
        std::copy_n(part_.begin() + static_cast<std::ptrdiff_t>(j * partWords), partWords,
                    out.begin() + static_cast<std::ptrdiff_t>(j * colWords + offset));
    }
  }

  void writeTable(Handle t, std::uint64_t rows, std::uint64_t cols,
                  const std::uint64_t* words) override {
    Value& v = values_.table(t);
    const std::uint64_t colWords = wordsForBits(rows);
    for (unsigned g = 0; g < shards(); ++g) {
      const std::uint64_t n = layout_.length(rows, g);
      const std::uint64_t partWords = wordsForBits(n);
      const std::uint64_t offset = layout_.first(rows, g) / 64;
      part_.resize(cols * partWords);
      for (std::uint64_t j = 0; j < cols; ++j)
        std::copy_n(words + j * colWords + offset, partWords,
                    part_.begin() + static_cast<std::ptrdiff_t>(j * partWords));
      on(g).writeTable(v.part[g], n, cols, part_.data());
    }
    v.rows = rows;
    v.cols = cols;
  }

  void synchronize() override {
    for (unsigned g = 0; g < shards(); ++g) on(g).synchronize();
  }

  // ---- native library procedures ---------------------------------------------------------
  // The devices' own natives where a procedure is row-local (addField) or combines per-device
  // results cheaply (extremeRows); the rest (closure, sorts) run on device 0 when the table lies
  // there whole, else on a copy gathered onto device 0 when it fits there, else decline (the Star
  // body runs, across the devices). `natives`, when given, takes the closure and SORT of a split
  // table and the N-body procedures first (NCCL versions).
  NativeKernels* nativeKernels() override { return dev_[0]->nativeKernels() ? this : nullptr; }

  bool transitiveClosure(Handle t) override {
    const Value& table = values_.table(t);
    if (natives_ && table.rows == table.cols && !layout_.whole(table.rows) &&
        natives_->closureParts(blocks(table), table.rows))
      return true;
    return onDeviceZero(t, kNoHandle, kNoHandle, [](NativeKernels& n, Handle tt, Handle, Handle) {
      return n.transitiveClosure(tt);
    });
  }

  // On device 0 when both tables lie there whole; else the Star body runs across the devices.
  bool closureInsert(Handle a, Handle c, std::uint64_t u, std::uint64_t v) override {
    return closureUpdate(a, c, [&](NativeKernels& n, Handle aa, Handle cc) {
      return n.closureInsert(aa, cc, u, v);
    });
  }
  bool closureDelete(Handle a, Handle c, std::uint64_t u, std::uint64_t v) override {
    return closureUpdate(a, c, [&](NativeKernels& n, Handle aa, Handle cc) {
      return n.closureDelete(aa, cc, u, v);
    });
  }
  template <class F>
  bool closureUpdate(Handle a, Handle c, F run) {
    const Value& adjacency = values_.table(a);
    const Value& closure = values_.table(c);
    if (!layout_.whole(adjacency.rows) || !layout_.whole(closure.rows)) return false;
    NativeKernels* n = on(0).nativeKernels();
    return n && run(*n, adjacency.part[0], closure.part[0]);
  }

  bool sortRows(Handle t, Handle x, std::uint64_t first, std::uint64_t len, KeyKind kind,
                bool descending) override {
    const Value& table = values_.table(t);
    if (natives_ && !layout_.whole(table.rows) &&
        natives_->sortParts(blocks(table), blocks(values_.bits(x)), table.cols, first, len, kind,
                            descending))
      return true;
    return onDeviceZero(t, x, kNoHandle, [&](NativeKernels& n, Handle tt, Handle xx, Handle) {
      return n.sortRows(tt, xx, first, len, kind, descending);
    });
  }

  bool segsortRows(Handle t, Handle x, Handle heads, std::uint64_t first, std::uint64_t len,
                   KeyKind kind, bool descending) override {
    return onDeviceZero(t, x, heads, [&](NativeKernels& n, Handle tt, Handle xx, Handle hh) {
      return n.segsortRows(tt, xx, hh, first, len, kind, descending);
    });
  }

  // Row-local: every device adds v (copied to it once) to its own rows' fields.
  bool addField(Handle t, Handle x, std::uint64_t first, Handle v, bool subtract) override {
    const Value& table = values_.table(t);
    const Value& marks = values_.bits(x);
    const std::uint64_t vlen = values_.at(v).rows;
    const bool vWhole = layout_.whole(vlen);
    if (!vWhole || !layout_.whole(table.rows)) gather(v, row_);
    for (unsigned g = 0; g < shards() && (g == 0 || layout_.length(table.rows, g) > 0); ++g) {
      Backend& b = on(g);
      NativeKernels* n = b.nativeKernels();
      Handle field = values_.at(v).part[0];
      if (g > 0 || !vWhole) {
        b.writeBits(scratch_[g], vlen, row_.data());
        field = scratch_[g];
      }
      if (!n || !n->addField(table.part[g], marks.part[g], first, field, subtract)) {
        if (g == 0) return false;  // nothing changed yet: the Star body runs
        throw BackendError("sharded backend: device " + std::to_string(g) +
                           " declined a field addition that device 0 ran");
      }
    }
    return true;
  }

  // Each device finds its own extreme rows; then the devices whose extreme is not the best clear
  // theirs (the field of each device's first marked row, compared on the host).
  bool extremeRows(Handle t, Handle x, std::uint64_t first, std::uint64_t len, bool max,
                   Handle z) override {
    const Value& table = values_.table(t);
    if (layout_.whole(table.rows)) {
      NativeKernels* n = on(0).nativeKernels();
      if (!n || !n->extremeRows(table.part[0], values_.at(x).part[0], first, len, max,
                                values_.at(z).part[0]))
        return false;
      settle(z, table.rows);
      return true;
    }
    for (unsigned g = 0; g < shards(); ++g) {
      Backend& b = on(g);
      NativeKernels* n = b.nativeKernels();
      if (!n || !n->extremeRows(table.part[g], values_.at(x).part[g], first, len, max,
                                values_.at(z).part[g]))
        throw BackendError("sharded backend: device " + std::to_string(g) +
                           " declined a minimum or maximum search");
    }
    values_.at(z).rows = table.rows;
    // Each device's extreme field (from its first marked row; empty: none marked), cut out and
    // compared by the reference backend (TRIM, the word comparison); hostB_ holds the best so far.
    std::vector<std::vector<std::uint64_t>> best(shards());
    int winner = -1;
    for (unsigned g = 0; g < shards(); ++g) {
      Backend& b = on(g);
      const std::int64_t r = b.findFirst(values_.at(z).part[g]);
      if (r < 0) continue;
      b.getRow(scratch_[g], table.part[g], static_cast<std::uint64_t>(r));
      b.readBits(scratch_[g], row_);
      host_->writeBits(hostA_, table.cols, row_.data());
      host_->trim(hostD_, hostA_, first, len);
      host_->readBits(hostD_, best[g]);
      if (winner >= 0) {
        const int c = host_->compare(hostD_, hostB_);
        if (!(max ? c > 0 : c < 0)) continue;
      }
      host_->copyBits(hostB_, hostD_);
      winner = static_cast<int>(g);
    }
    for (unsigned g = 0; g < shards(); ++g)
      if (!best[g].empty() && best[g] != best[static_cast<unsigned>(winner)])
        on(g).resizeBits(values_.at(z).part[g], layout_.length(table.rows, g));  // all zeros
    return true;
  }

  bool nbodyForces(const NBodySystem& s, std::vector<double>& fx, std::vector<double>& fy,
                   std::vector<double>& fz) override {
    if (natives_ && natives_->nbodyForces(s, fx, fy, fz)) return true;
    return on(0).nativeKernels()->nbodyForces(s, fx, fy, fz);
  }

  bool nbodyVerlet(NBodySystem& s, double dt, std::uint64_t steps) override {
    if (natives_ && natives_->nbodyVerlet(s, dt, steps)) return true;
    return on(0).nativeKernels()->nbodyVerlet(s, dt, steps);
  }

 private:
  struct Value {
    std::uint64_t rows = 0;  // a bit vector's length, a table's rows
    std::uint64_t cols = 1;
    std::array<Handle, kMaxShards> part{};  // the value's block on each device
  };

  // A split value's blocks, for the natives that work on them in place.
  ShardedValue blocks(const Value& v) {
    ShardedValue b;
    for (unsigned g = 0; g < shards(); ++g) {
      b.devices.push_back(dev_[g].get());
      b.parts.push_back(v.part[g]);
      b.firstRow.push_back(layout_.first(v.rows, g));
      b.rows.push_back(layout_.length(v.rows, g));
    }
    return b;
  }

  unsigned shards() const { return static_cast<unsigned>(dev_.size()); }
  Backend& on(unsigned g) {
    dev_[g]->makeCurrent();
    return *dev_[g];
  }

  Handle create(HandleKind kind) {
    const Handle h = values_.create(kind);
    Value& v = values_.at(h);
    v.cols = kind == HandleKind::Table ? 0 : 1;
    try {
      for (unsigned g = 0; g < shards(); ++g)
        v.part[g] = kind == HandleKind::Table ? on(g).createTable() : on(g).createBits();
    } catch (...) {
      destroy(h);
      throw;
    }
    return h;
  }

  // f(device, dst's block, src's block) on every device.
  template <class F>
  void each2(Handle dst, Handle src, F f) {
    const Value& s = values_.at(src);
    const Value& d = values_.at(dst);
    for (unsigned g = 0; g < shards(); ++g) f(on(g), d.part[g], s.part[g]);
  }

  // Queues reduction r on every device that holds part of v (a prefix of the devices, as blocks
  // are filled in order); queued_ says how many results to collect.
  void queue(const Value& v, Reduction r, const Value* other = nullptr) {
    queued_ = 0;
    for (unsigned g = 0; g < shards() && layout_.length(v.rows, g) > 0; ++g) {
      on(g).queueReduction(r, v.part[g], other ? other->part[g] : kNoHandle);
      queued_ = g + 1;
    }
  }

  // After device 0 wrote a whole value of `bits` bits: the other devices' blocks of it are empty.
  void settle(Handle h, std::uint64_t bits) {
    Value& v = values_.at(h);
    for (unsigned g = 1; g < shards(); ++g)
      if (on(g).length(v.part[g]) != 0) on(g).resizeBits(v.part[g], 0);
    v.rows = bits;
  }

  void arithmetic(Handle dst, Handle a, Handle b, bool subtract) {
    if (layout_.whole(values_.at(a).rows)) {
      Backend& d0 = on(0);
      const Handle d = values_.at(dst).part[0], x = values_.at(a).part[0],
                   y = values_.at(b).part[0];
      subtract ? d0.sub(d, x, y) : d0.add(d, x, y);
      settle(dst, values_.at(a).rows);
      return;
    }
    // The carry crosses the blocks: the reference adds the gathered words.
    toHost(a, hostA_);
    toHost(b, hostB_);
    subtract ? host_->sub(hostD_, hostA_, hostB_) : host_->add(hostD_, hostA_, hostB_);
    fromHost(hostD_, dst);
  }

  // A bit vector's blocks in order: every block but the last non-empty one is whole words.
  void gather(Handle h, std::vector<std::uint64_t>& out) {
    const Value& v = values_.at(h);
    out.clear();
    for (unsigned g = 0; g < shards() && layout_.length(v.rows, g) > 0; ++g) {
      on(g).readBits(v.part[g], part_);
      out.insert(out.end(), part_.begin(), part_.end());
    }
  }

  void scatter(Handle h, std::uint64_t length, const std::uint64_t* words) {
    Value& v = values_.at(h);
    for (unsigned g = 0; g < shards(); ++g)
      on(g).writeBits(v.part[g], layout_.length(length, g), words + layout_.first(length, g) / 64);
    v.rows = length;
  }

  void toHost(Handle h, Handle slot) {
    gather(h, row_);
    host_->writeBits(slot, values_.at(h).rows, row_.data());
  }
  void fromHost(Handle slot, Handle h) {
    host_->readBits(slot, row_);
    scatter(h, host_->length(slot), row_.data());
  }

  // Runs `f` with device 0's natives on t (and the bit vectors x and y, when given): on their
  // blocks when t lies on device 0 whole, else on copies gathered there (when they fit in half of
  // its memory), and the result scattered back. False: the Star body runs.
  template <class F>
  bool onDeviceZero(Handle t, Handle x, Handle y, F f) {
    const Value& table = values_.table(t);
    Backend& d0 = on(0);
    NativeKernels* n = d0.nativeKernels();
    if (!n) return false;
    auto part0 = [&](Handle h) { return h == kNoHandle ? kNoHandle : values_.at(h).part[0]; };
    if (layout_.whole(table.rows)) return f(*n, table.part[0], part0(x), part0(y));
    const std::uint64_t bytes = (table.cols + 2) * wordsForBits(table.rows) * 8;
    if (d0.deviceMemory() != 0 && bytes > d0.deviceMemory() / 2) return false;
    const Handle tt = d0.createTable(), xx = d0.createBits(), yy = d0.createBits();
    bool ran = false;
    try {
      readTable(t, row_);
      on(0).writeTable(tt, table.rows, table.cols, row_.data());
      for (auto [h, copy] : {std::pair{x, xx}, std::pair{y, yy}}) {
        if (h == kNoHandle) continue;
        gather(h, row_);
        on(0).writeBits(copy, values_.at(h).rows, row_.data());
      }
      ran = f(*n, tt, x == kNoHandle ? kNoHandle : xx, y == kNoHandle ? kNoHandle : yy);
      if (ran) {
        on(0).readTable(tt, row_);
        writeTable(t, table.rows, table.cols, row_.data());
      }
    } catch (...) {
      on(0).destroy(tt), on(0).destroy(xx), on(0).destroy(yy);
      throw;
    }
    on(0).destroy(tt), on(0).destroy(xx), on(0).destroy(yy);
    return ran;
  }

  std::vector<std::unique_ptr<Backend>> dev_;
  std::unique_ptr<Backend> host_;
  std::unique_ptr<ShardedNatives> natives_;
  ShardLayout layout_;
  HandleTable<Value> values_{"sharded backend"};
  std::vector<Handle> scratch_;  // a bit vector on each device, for a row moved in or out
  Handle hostA_ = kNoHandle, hostB_ = kNoHandle, hostD_ = kNoHandle;  // on host_
  unsigned queued_ = 0;              // devices with a reduction queued
  std::vector<std::uint64_t> row_;   // gathered words
  std::vector<std::uint64_t> part_;  // one device's block
};

}  // namespace

std::unique_ptr<Backend> makeShardedBackend(ShardedParts parts) {
  return std::make_unique<ShardedBackend>(std::move(parts));
}

}  // namespace star
