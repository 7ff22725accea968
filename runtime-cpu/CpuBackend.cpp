// The CPU backend. Every value is a std::vector<uint64_t> in a slot of a dense table indexed by
// Handle; primitives work a 64-bit word at a time and run synchronously.
#include "runtime-cpu/CpuBackend.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <fstream>
#include <limits>
#include <new>
#include <utility>

#include "core/Interrupt.h"
#include "core/MemoryLimit.h"
#include "runtime-cpu/ClosureUpdate.h"
#include "runtime-cpu/NBodyReference.h"
#include "runtime-cpu/ParallelRun.h"
#include "runtime-cpu/RowSort.h"
#include "runtime-cpu/TableWords.h"
#include "runtime-cpu/ThreadEngine.h"
#include "vm/backend/HandleTable.h"
#include "vm/backend/NativeKernels.h"
#include "vm/backend/ParallelPlan.h"

namespace star {
namespace {

using Word = std::uint64_t;
// out[0, wordsForBits(len)) := bits [from, from + len) of src (n words); no overlap.
void extract(const Word* src, std::uint64_t n, std::uint64_t from, Word* out, std::uint64_t len) {
  const std::uint64_t nw = wordsForBits(len);
  if (nw == 0) return;
  const std::uint64_t q0 = from / 64;
  const unsigned s = from % 64;
  if (s == 0) {
    std::copy_n(src + q0, nw, out);
  } else {
    for (std::uint64_t k = 0; k < nw; ++k) {
      const std::uint64_t q = q0 + k;  // < n: bit from + 64k lies inside src
      Word w = src[q] >> s;
      if (q + 1 < n) w |= src[q + 1] << (64 - s);
      out[k] = w;
    }
  }
  out[nw - 1] &= tailMask(len);
}

// Bits [from, from + len) of dst := the len bits of src; no overlap.
void deposit(Word* dst, std::uint64_t from, const Word* src, std::uint64_t len) {
  const unsigned s = from % 64;
  Word* out = dst + from / 64;
  const std::uint64_t nw = wordsForBits(len);
  for (std::uint64_t k = 0; k < nw; ++k) {
    const std::uint64_t nb = std::min<std::uint64_t>(64, len - 64 * k);
    const Word m = nb == 64 ? kAllOnes : (Word{1} << nb) - 1;
    const Word v = src[k];  // bits above nb are 0
    out[k] = (out[k] & ~(m << s)) | (v << s);
    if (s != 0 && s + nb > 64) out[k + 1] = (out[k + 1] & ~(m >> (64 - s))) | (v >> (64 - s));
  }
}

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto begin = line.find_first_not_of(" \t", colon + 1);
    if (begin != std::string::npos) return line.substr(begin);
  }
  return "host CPU";
}

// A value: its words and shape.
struct Value {
  std::vector<Word> words;
  std::uint64_t length = 0;   // bits of a vector, rows of a table
  std::uint64_t cols = 0;     // tables only
  std::uint64_t counted = 0;  // bytes of words' capacity counted against the memory limit

  Value() = default;
  Value(Value&& o) noexcept
      : words(std::move(o.words)),
        length(o.length),
        cols(o.cols),
        counted(std::exchange(o.counted, 0)) {}
  Value& operator=(Value&& o) noexcept {
    if (this != &o) {
      releaseMemory(counted);
      words = std::move(o.words);
      length = o.length;
      cols = o.cols;
      counted = std::exchange(o.counted, 0);
    }
    return *this;
  }
  ~Value() { releaseMemory(counted); }
};

// Resizes without touching the surviving words; reallocates only when capacity must grow.
void resizeWords(std::vector<Word>& words, std::uint64_t n) {
  try {
    words.resize(n);
  } catch (const std::bad_alloc&) {
    throw BackendError("cpu backend: out of memory");
  } catch (const std::length_error&) {
    throw BackendError("cpu backend: value too large");
  }
}

// A value's words resized to n; growing the capacity counts against the memory limit (the new
// buffer is counted before it is allocated, the old one released after).
// `describe` names the value for messages (called only when the capacity grows: steady state
// allocates nothing, not even a message).
template <typename Describe>
void resizeValue(Value& s, std::uint64_t n, Describe describe) {
  if (n > s.words.capacity()) {
    const std::string what = describe();
    if (n > s.words.max_size()) throw BackendError("cpu backend: " + what + " is too large");
    const std::uint64_t wanted = n * sizeof(Word);
    reserveMemory(wanted, what);  // throws OutOfMemory
    try {
      s.words.reserve(n);
    } catch (const std::exception&) {
      releaseMemory(wanted);
      throw BackendError("cpu backend: out of memory (" + what + ")");
    }
    releaseMemory(s.counted);
    s.counted = wanted;
  }
  s.words.resize(n);
}

// Sets a vector's length; the contents are unspecified (callers overwrite every word).
void shapeBits(Value& s, std::uint64_t length) {
  resizeValue(s, wordsForBits(length), [&] { return describeBits(length); });
  s.length = length;
}

void shapeTable(Value& s, std::uint64_t rows, std::uint64_t cols) {
  const std::uint64_t wpc = wordsForBits(rows);
  if (cols != 0 && wpc > std::numeric_limits<std::uint64_t>::max() / cols) {
    throw BackendError("cpu backend: table too large");
  }
  resizeValue(s, wpc * cols, [&] { return describeTable(rows, cols); });
  s.length = rows;
  s.cols = cols;
}

class CpuBackend final : public Backend,
                         public NativeKernels,
                         public ParallelExecutor,
                         cpu::Storage,
                         cpu::EngineStorage {
 public:
  CpuBackend() : values_("cpu backend"), device_(cpuModel()) {}

  std::string name() const override { return "cpu"; }
  std::string device() const override { return device_; }

  // ---- storage ---------------------------------------------------------------------------
  Handle createBits() override { return values_.create(HandleKind::Bits); }
  Handle createTable() override { return values_.create(HandleKind::Table); }

  void destroy(Handle h) override {
    values_.release(h);  // the storage's vector releases the memory
  }

  void resizeBits(Handle v, std::uint64_t length) override {
    Value& s = vec(v);
    shapeBits(s, length);
    std::fill(s.words.begin(), s.words.end(), 0);
  }

  void resizeTable(Handle t, std::uint64_t rows, std::uint64_t cols) override {
    Value& s = tab(t);
    shapeTable(s, rows, cols);
    std::fill(s.words.begin(), s.words.end(), 0);
  }

  std::uint64_t length(Handle v) const override { return vec(v).length; }
  std::uint64_t rows(Handle t) const override { return tab(t).length; }
  std::uint64_t cols(Handle t) const override { return tab(t).cols; }

  // ---- bit vectors -------------------------------------------------------------------------
  void fill(Handle v, bool bit) override {
    Value& s = vec(v);
    std::fill(s.words.begin(), s.words.end(), bit ? kAllOnes : 0);
    if (bit && !s.words.empty()) s.words.back() &= tailMask(s.length);
  }

  void copyBits(Handle dst, Handle src) override {
    if (dst == src) return;
    const Value& a = vec(src);
    Value& d = vec(dst);
    shapeBits(d, a.length);
    std::copy(a.words.begin(), a.words.end(), d.words.begin());
  }

  void bitwise(BitOp op, Handle dst, Handle a, Handle b) override {
    const Value& sa = vec(a);
    const Value& sb = vec(b);
    Value& d = vec(dst);
    shapeBits(d, sa.length);  // no-op when dst aliases a or b
    const Word* pa = sa.words.data();
    const Word* pb = sb.words.data();
    Word* pd = d.words.data();
    const std::size_t n = d.words.size();
    switch (op) {
      case BitOp::And:
        for (std::size_t i = 0; i < n; ++i) pd[i] = pa[i] & pb[i];
        break;
      case BitOp::Or:
        for (std::size_t i = 0; i < n; ++i) pd[i] = pa[i] | pb[i];
        break;
      case BitOp::Xor:
        for (std::size_t i = 0; i < n; ++i) pd[i] = pa[i] ^ pb[i];
        break;
    }
  }

  void bitNot(Handle dst, Handle a) override {
    const Value& sa = vec(a);
    Value& d = vec(dst);
    shapeBits(d, sa.length);
    for (std::size_t i = 0; i < d.words.size(); ++i) d.words[i] = ~sa.words[i];
    if (!d.words.empty()) d.words.back() &= tailMask(d.length);
  }

  void firstOnly(Handle dst, Handle a) override {
    const Value& sa = vec(a);
    Value& d = vec(dst);
    shapeBits(d, sa.length);
    bool found = false;
    for (std::size_t i = 0; i < d.words.size(); ++i) {
      const Word w = sa.words[i];  // read before the write: dst may alias a
      d.words[i] = found ? 0 : w & (~w + 1);
      found = found || w != 0;
    }
  }

  bool getBit(Handle v, std::uint64_t i) override { return (vec(v).words[i / 64] >> (i % 64)) & 1; }

  void setBit(Handle v, std::uint64_t i, bool bit) override {
    Word& w = vec(v).words[i / 64];
    const Word m = Word{1} << (i % 64);
    w = bit ? w | m : w & ~m;
  }

  std::int64_t findFirst(Handle v) override {
    const std::vector<Word>& w = vec(v).words;
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (w[i] != 0) return static_cast<std::int64_t>(i * 64 + std::countr_zero(w[i]));
    }
    return -1;
  }

  std::int64_t step(Handle v) override {
    std::vector<Word>& w = vec(v).words;
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (w[i] == 0) continue;
      const int b = std::countr_zero(w[i]);
      w[i] &= w[i] - 1;  // clears the lowest 1
      return static_cast<std::int64_t>(i * 64 + b);
    }
    return -1;
  }

  std::uint64_t count(Handle v) override {
    std::uint64_t n = 0;
    for (Word w : vec(v).words) n += std::popcount(w);
    return n;
  }

  bool any(Handle v) override {
    const std::vector<Word>& w = vec(v).words;
    return std::any_of(w.begin(), w.end(), [](Word x) { return x != 0; });
  }

  void trim(Handle dst, Handle w, std::uint64_t from, std::uint64_t len) override {
    const Value& sw = vec(w);
    Value& d = vec(dst);
    shapeBits(d, len);
    extract(sw.words.data(), sw.words.size(), from, d.words.data(), len);
  }

  void replace(Handle w, std::uint64_t from, Handle v) override {
    const Value& sv = vec(v);
    deposit(vec(w).words.data(), from, sv.words.data(), sv.length);
  }

  int compare(Handle a, Handle b) override {
    const std::vector<Word>& wa = vec(a).words;
    const std::vector<Word>& wb = vec(b).words;
    // Word 0 holds the most significant bits, and within a word the lowest bit is the most
    // significant, so the first differing bit decides.
    for (std::size_t i = 0; i < wa.size(); ++i) {
      const Word diff = wa[i] ^ wb[i];
      if (diff != 0) return (wa[i] >> std::countr_zero(diff)) & 1 ? 1 : -1;
    }
    return 0;
  }

  // Reversed, the last (partial) word has its used bits at the top and zeros below, so the
  // carry out of bit 63 is the carry into the previous word and the unused bits stay 0.
  void add(Handle dst, Handle a, Handle b) override {
    const Value& sa = vec(a);
    const Value& sb = vec(b);
    Value& d = vec(dst);
    shapeBits(d, sa.length);
    Word carry = 0;
    for (std::size_t i = d.words.size(); i-- > 0;) {
      const Word x = reverseBits(sa.words[i]);
      const Word y = reverseBits(sb.words[i]);
      const Word s1 = x + y;
      const Word s = s1 + carry;
      carry = (s1 < x) | (s < s1);
      d.words[i] = reverseBits(s);
    }
  }

  void sub(Handle dst, Handle a, Handle b) override {
    const Value& sa = vec(a);
    const Value& sb = vec(b);
    Value& d = vec(dst);
    shapeBits(d, sa.length);
    Word borrow = 0;
    for (std::size_t i = d.words.size(); i-- > 0;) {
      const Word x = reverseBits(sa.words[i]);
      const Word y = reverseBits(sb.words[i]);
      const Word d1 = x - y;
      const Word r = d1 - borrow;
      borrow = (x < y) | (d1 < borrow);
      d.words[i] = reverseBits(r);
    }
  }

  // ---- tables ------------------------------------------------------------------------------
  void copyTable(Handle dst, Handle src) override {
    if (dst == src) return;
    const Value& s = tab(src);
    Value& d = tab(dst);
    shapeTable(d, s.length, s.cols);
    std::copy(s.words.begin(), s.words.end(), d.words.begin());
  }

  void getCol(Handle dst, Handle t, std::uint64_t j) override {
    const Value& s = tab(t);
    Value& d = vec(dst);
    shapeBits(d, s.length);
    std::copy_n(s.words.data() + j * d.words.size(), d.words.size(), d.words.data());
  }

  void setCol(Handle t, std::uint64_t j, Handle src) override {
    Value& s = tab(t);
    const std::vector<Word>& w = vec(src).words;
    std::copy(w.begin(), w.end(), s.words.data() + j * w.size());
  }

  void getRow(Handle dst, Handle t, std::uint64_t i) override {
    const Value& s = tab(t);
    Value& d = vec(dst);
    shapeBits(d, s.cols);
    if (s.cols == 0) return;  // a table of no columns has no words to point into
    cpu::gatherRow(s.words.data(), wordsForBits(s.length), s.cols, i, d.words.data());
  }

  void setRow(Handle t, std::uint64_t i, Handle src) override {
    Value& s = tab(t);
    if (s.cols == 0) return;  // a table of no columns has no words to point into
    const Word* in = vec(src).words.data();
    const std::uint64_t wpc = wordsForBits(s.length);
    const Word m = Word{1} << (i % 64);
    Word* col = s.words.data() + i / 64;
    for (std::uint64_t j = 0; j < s.cols; ++j, col += wpc) {
      const Word bit = (in[j / 64] >> (j % 64)) & 1;
      *col = (*col & ~m) | ((Word{0} - bit) & m);
    }
  }

  // ---- host transfers ----------------------------------------------------------------------
  void readBits(Handle v, std::vector<std::uint64_t>& out) override { read(vec(v), out); }

  void writeBits(Handle v, std::uint64_t length, const std::uint64_t* words) override {
    Value& s = vec(v);
    shapeBits(s, length);
    std::copy_n(words, s.words.size(), s.words.data());
    if (!s.words.empty()) s.words.back() &= tailMask(length);  // keep the invariant
  }

  void readTable(Handle t, std::vector<std::uint64_t>& out) override { read(tab(t), out); }

  void writeTable(Handle t, std::uint64_t rows, std::uint64_t cols,
                  const std::uint64_t* words) override {
    Value& s = tab(t);
    shapeTable(s, rows, cols);
    std::copy_n(words, s.words.size(), s.words.data());
    const std::uint64_t wpc = wordsForBits(rows);
    for (std::uint64_t j = 0; j < cols && wpc != 0; ++j)
      s.words[j * wpc + wpc - 1] &= tailMask(rows);
  }

  void synchronize() override {}

  // ---- native library procedures ---------------------------------------------------------
  // Warshall on the columns, as WARSHALL_C (docs/PAPERS.md, Listing 2) does it: for each pivot k,
  // column i |= column k for every i with P(k, i) = 1. During step k neither column k (only
  // `column k |= column k` could touch it) nor row k (bit k of column i becomes 1 only where it
  // already is) changes, so row k is gathered once, before the column updates.
  NativeKernels* nativeKernels() override { return this; }

  // ---- parallel loops (runtime-cpu/ParallelRun.cpp) -----------------------------------------
  ParallelExecutor* parallelExecutor() override { return this; }
  bool runParallel(const ParallelPlan& plan, ParallelOutcome& outcome) override {
    return cpu::runParallel(plan, outcome, *this);
  }
  std::uint64_t* wordsOf(Handle h) override { return values_.at(h).words.data(); }
  std::uint64_t rowsOf(Handle h) override { return values_.at(h).length; }
  std::uint64_t colsOf(Handle h) override { return values_.at(h).cols; }
  void assignBits(Handle h, std::uint64_t length, const std::uint64_t* w) override {
    writeBits(h, length, w);
  }

  // ---- the device engine on host threads (runtime-cpu/ThreadEngine.h) ----------------------
  DeviceEngine* deviceEngine() override {
    if (!engine_) engine_ = cpu::makeThreadEngine(*this);
    return engine_.get();
  }
  DeviceEngine* compiledEngine(bool useCache) override {
    if (!compiled_) compiled_ = cpu::makeCompiledThreadEngine(*this, useCache);
    return compiled_.get();
  }
  std::uint32_t handleCount() override { return static_cast<std::uint32_t>(values_.size()); }
  engine::Shape shapeOf(std::uint32_t h) override {
    if (!values_.live(h)) return engine::Shape{};
    Value& v = values_.at(h);
    const bool table = values_.kind(h) == HandleKind::Table;
    // The engine never grows a value: it may use the words the vector has room for. They are made
    // part of the vector (zeros beyond the value's own words, as the layout requires) so that
    // setShape can keep what the engine wrote there; setShape trims the vector again.
    v.words.resize(v.words.capacity(), 0);
    return engine::Shape{v.words.data(), v.length,        table ? v.cols : 1,
                         v.words.size(), table ? 2u : 1u, 0};
  }
  void setShape(std::uint32_t h, std::uint64_t rows, std::uint64_t cols) override {
    Value& v = values_.at(h);
    const bool table = values_.kind(h) == HandleKind::Table;
    v.length = rows;
    if (table) v.cols = cols;
    v.words.resize((table ? cols : 1) * wordsForBits(rows));  // never beyond what it had
  }

  // CLOSURE_INSERT / CLOSURE_DELETE (ClosureUpdate.h), on the tables' words; their scratch (six
  // n-bit slices) grows only, here, where running out of memory is a backend error.
  Word* closureScratch(std::uint64_t n) {
    const std::uint64_t words = cpu::kClosureUpdateSlices * wordsForBits(n);
    if (closure_row_.size() < words) resizeWords(closure_row_, words);
    return closure_row_.data();
  }
  bool closureInsert(Handle a, Handle c, std::uint64_t u, std::uint64_t v) override {
    const std::uint64_t n = tab(c).length;
    return cpu::closureInsertWords(tab(a).words.data(), tab(c).words.data(), n, u, v,
                                   closureScratch(n));
  }
  bool closureDelete(Handle a, Handle c, std::uint64_t u, std::uint64_t v) override {
    const std::uint64_t n = tab(c).length;
    return cpu::closureDeleteWords(tab(a).words.data(), tab(c).words.data(), n, u, v,
                                   closureScratch(n));
  }

  bool transitiveClosure(Handle t) override {
    Value& s = tab(t);
    const std::uint64_t n = s.length;
    if (n != s.cols) return false;
    const std::uint64_t wpc = wordsForBits(n);
    if (closure_row_.size() < wpc) resizeWords(closure_row_, wpc);  // grows only
    Word* const row = closure_row_.data();
    Word* const base = s.words.data();
    for (std::uint64_t k = 0; k < n; ++k) {
      throwIfInterrupted();                  // n^3/64 word operations: minutes for large tables
      cpu::gatherRow(base, wpc, n, k, row);  // row bit i := P(k, i)
      const Word* pivot = base + k * wpc;
      for (std::uint64_t q = 0; q < wpc; ++q) {
        for (Word x = row[q]; x != 0; x &= x - 1) {
          const std::uint64_t i = 64 * q + static_cast<unsigned>(std::countr_zero(x));
          if (i != k) cpu::orInto(base + i * wpc, pivot, wpc);  // i == k would be a no-op
        }
      }
    }
    return true;
  }

  // MINROW / MAXROW as the model does it, one whole column at a time: for each column of the
  // field, most significant first, keep the candidates with a 0 (max: a 1) there if any has one.
  bool extremeRows(Handle t, Handle x, std::uint64_t first, std::uint64_t len, bool max,
                   Handle z) override {
    const Value& st = tab(t);
    const std::uint64_t wpc = wordsForBits(st.length);
    const std::vector<Word>& xs = vec(x).words;
    if (column_a_.size() < wpc) resizeWords(column_a_, wpc);  // grows only
    if (column_b_.size() < wpc) resizeWords(column_b_, wpc);
    Word* cand = column_a_.data();
    Word* next = column_b_.data();
    std::copy_n(xs.data(), wpc, cand);  // x may alias z
    for (std::uint64_t j = first; j < first + len; ++j) {
      const Word* col = st.words.data() + j * wpc;
      Word any = 0;
      for (std::uint64_t e = 0; e < wpc; ++e) {
        next[e] = cand[e] & (max ? col[e] : ~col[e]);  // cand's unused high bits are 0
        any |= next[e];
      }
      if (any) std::swap(cand, next);
    }
    Value& sz = vec(z);
    shapeBits(sz, st.length);
    std::copy_n(cand, wpc, sz.words.data());
    return true;
  }

  // ADDWF / SUBWF as the model does it: a ripple carry (borrow) slice through the field's
  // columns from the least significant, each step one pass over a whole column.
  bool addField(Handle t, Handle x, std::uint64_t first, Handle v, bool subtract) override {
    Value& st = tab(t);
    const std::uint64_t wpc = wordsForBits(st.length);
    const Value& sv = vec(v);
    const std::vector<Word>& mask = vec(x).words;
    if (column_a_.size() < wpc) resizeWords(column_a_, wpc);  // the carry slice
    Word* carry = column_a_.data();
    std::fill_n(carry, wpc, Word{0});
    for (std::uint64_t j = sv.length; j-- > 0;) {
      const bool bit = (sv.words[j / 64] >> (j % 64)) & 1;
      Word* col = st.words.data() + (first + j) * wpc;
      for (std::uint64_t e = 0; e < wpc; ++e) {
        const Word a = col[e], c = carry[e];
        col[e] = a ^ (mask[e] & (bit ? ~c : c));
        if (!subtract)
          carry[e] = bit ? (a | c) : (a & c);
        else
          carry[e] = bit ? (c | ~a) : (c & ~a);
      }
    }
    return true;
  }

  bool sortRows(Handle t, Handle x, std::uint64_t first, std::uint64_t len, KeyKind kind,
                bool descending) override {
    Value& st = tab(t);
    return cpu::sortTableRows(st.words.data(), st.length, st.cols, vec(x).words.data(), nullptr,
                              first, len, kind, descending);
  }

  bool segsortRows(Handle t, Handle x, Handle heads, std::uint64_t first, std::uint64_t len,
                   KeyKind kind, bool descending) override {
    Value& st = tab(t);
    return cpu::sortTableRows(st.words.data(), st.length, st.cols, vec(x).words.data(),
                              vec(heads).words.data(), first, len, kind, descending);
  }

  bool nbodyForces(const NBodySystem& s, std::vector<double>& fx, std::vector<double>& fy,
                   std::vector<double>& fz) override {
    cpu::nbodyForces(s, fx, fy, fz);
    return true;
  }

  bool nbodyVerlet(NBodySystem& s, double dt, std::uint64_t steps) override {
    cpu::nbodyVerlet(s, dt, steps);
    return true;
  }

 private:
  static void read(const Value& s, std::vector<std::uint64_t>& out) {
    try {
      out.assign(s.words.begin(), s.words.end());
    } catch (const std::bad_alloc&) {
      throw BackendError("cpu backend: out of memory");
    }
  }

  // Always checked (one compare each): a corrupt module must get an error, never a wild access.
  const Value& vec(Handle h) const { return values_.bits(h); }
  Value& vec(Handle h) { return values_.bits(h); }
  const Value& tab(Handle h) const { return values_.table(h); }
  Value& tab(Handle h) { return values_.table(h); }

  HandleTable<Value> values_;
  std::string device_;
  std::vector<Word> closure_row_;  // transitiveClosure's gathered pivot row (capacity kept)
  // Whole-column scratch of the native procedures (candidates, carries); capacity kept.
  std::vector<Word> column_a_, column_b_;
  std::unique_ptr<DeviceEngine> engine_;
  std::unique_ptr<DeviceEngine> compiled_;
};

}  // namespace

std::unique_ptr<Backend> makeCpuBackend() {
  return std::make_unique<CpuBackend>();
}

}  // namespace star
