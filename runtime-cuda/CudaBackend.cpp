// The Backend implementation: host-side bookkeeping (shapes, handles, capacity) and the order of
// launches for each primitive. Every primitive is queued on the context's single stream, so
// program order is stream order; only the primitives that return a value wait for the device.
// Each primitive is one kernel launch (none for empty values), except the host transfers, getBit
// (an 8-byte copy) and resize (a memset, after a pool allocation when it grows). A primitive that
// returns a value is that one launch, which stores the value and a ticket in mapped host memory,
// and a host spin on the ticket (DeviceContext::result): no memset, no copy, no stream sync.
//
//   DeviceValue.h       handle -> shape, capacity, device pointer (host only)
//   DeviceContext.*     stream, stream-ordered memory pool, reduction accumulators + the mapped
//                       host words that synchronising kernels store their result in
//   CudaCheck.*         CUDA errors -> BackendError
//   DeviceProbe.cu      cudaBackendAvailable
//   kernels/            device-wide entry points, one family per file (Launch.h: grid sizing,
//                       BitMath.h: element arithmetic shared with host checks)
#include "runtime-cuda/CudaBackend.h"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/MemoryLimit.h"
#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/CompiledEngine.h"
#include "runtime-cuda/CudaEngine.h"
#include "runtime-cuda/CudaParallel.h"
#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/DeviceValue.h"
#include "runtime-cuda/kernels/Arith.h"
#include "runtime-cuda/kernels/BitMath.h"
#include "runtime-cuda/kernels/Closure.h"
#include "runtime-cuda/kernels/Elementwise.h"
#include "runtime-cuda/kernels/Fields.h"
#include "runtime-cuda/kernels/NBody.h"
#include "runtime-cuda/kernels/RowSort.h"
#include "runtime-cuda/kernels/Rows.h"
#include "runtime-cuda/kernels/Search.h"
#include "runtime-cuda/kernels/Shift.h"
#include "vm/backend/HandleTable.h"
#include "vm/backend/NativeKernels.h"
#include "vm/backend/ParallelPlan.h"

namespace star {
namespace {

using cuda::check;
using cuda::DeviceValue;

constexpr std::size_t kElementBytes = sizeof(std::uint64_t);

class CudaBackend final : public Backend, public NativeKernels, public ParallelExecutor {
 public:
  CudaBackend() = default;
  ~CudaBackend() override {
    values_.forEachLive([&](DeviceValue& s) { free(s); });
    ctx_.release(closure_scratch_);
    ctx_.release(fields_scratch_);
  }

  std::string name() const override { return "cuda"; }
  std::string device() const override { return ctx_.deviceName(); }
  std::uint64_t deviceMemory() const override { return ctx_.deviceMemory(); }

  // ---- storage ---------------------------------------------------------------------------
  Handle createBits() override { return values_.create(HandleKind::Bits); }
  Handle createTable() override {
    Handle h = values_.create(HandleKind::Table);
    values_.at(h).cols = 0;  // an empty table has no columns; an empty bit vector has one
    return h;
  }

  void destroy(Handle h) override {
    free(values_.at(h));
    values_.release(h);
  }

  void resizeBits(Handle v, std::uint64_t length) override {
    DeviceValue& s = values_.at(v);
    reshapeBits(s, length);
    zero(s);
  }

  void resizeTable(Handle t, std::uint64_t rows, std::uint64_t cols) override {
    DeviceValue& s = values_.at(t);
    reshapeTable(s, rows, cols);
    zero(s);
  }

  std::uint64_t length(Handle v) const override { return values_.at(v).rows; }
  std::uint64_t rows(Handle t) const override { return values_.at(t).rows; }
  std::uint64_t cols(Handle t) const override { return values_.at(t).cols; }

  // ---- bit vectors -------------------------------------------------------------------------
  void fill(Handle v, bool bit) override {
    const DeviceValue& s = values_.at(v);
    cuda::launchFill(launch(), s.data, s.words(), bit, tailMask(s.rows));
  }

  void copyBits(Handle dst, Handle src) override {
    if (dst == src) return;
    const DeviceValue& a = values_.at(src);
    DeviceValue& d = values_.at(dst);
    reshapeBits(d, a.rows);
    cuda::launchCopy(launch(), d.data, a.data, a.words());
  }

  void bitwise(BitOp op, Handle dst, Handle a, Handle b) override {
    const DeviceValue& x = values_.at(a);
    const DeviceValue& y = values_.at(b);
    DeviceValue& d = values_.at(dst);
    reshapeBits(d, x.rows);  // a no-op when dst aliases a or b
    cuda::launchBitwise(launch(), op, d.data, x.data, y.data, x.words());
  }

  void bitNot(Handle dst, Handle a) override {
    const DeviceValue& x = values_.at(a);
    DeviceValue& d = values_.at(dst);
    reshapeBits(d, x.rows);
    cuda::launchNot(launch(), d.data, x.data, x.words(), tailMask(x.rows));
  }

  // One launch: the search zeroes dst as it reads, and the last block writes the kept bit.
  void firstOnly(Handle dst, Handle a) override {
    const DeviceValue& x = values_.at(a);
    DeviceValue& d = values_.at(dst);
    reshapeBits(d, x.rows);
    cuda::launchFirstOnly(launch(), ctx_.state(), d.data, x.data, x.words());
  }

  // An 8-byte copy of the element and a stream synchronisation (cheaper than a kernel).
  bool getBit(Handle v, std::uint64_t i) override {
    return (ctx_.readWord(values_.at(v).data + i / 64) >> (i % 64)) & 1;
  }

  void setBit(Handle v, std::uint64_t i, bool bit) override {
    cuda::launchSetBit(launch(), values_.at(v).data, i, bit);
  }

  // findFirst, count and compare are their split forms (queueReduction below) waited for at once.
  std::int64_t findFirst(Handle v) override {
    queueReduction(Reduction::FindFirst, v, kNoHandle);
    return reductionResult();
  }

  // The same launch finds the first 1 and clears it.
  std::int64_t step(Handle v) override {
    const DeviceValue& s = values_.at(v);
    if (s.words() == 0) return -1;
    cuda::launchStep(launch(), ctx_.nextResult(), s.data, s.words());
    return foundIndex();
  }

  std::uint64_t count(Handle v) override {
    queueReduction(Reduction::Count, v, kNoHandle);
    return static_cast<std::uint64_t>(reductionResult());
  }

  bool any(Handle v) override { return findFirst(v) >= 0; }

  void trim(Handle dst, Handle w, std::uint64_t from, std::uint64_t len) override {
    const DeviceValue& src = values_.at(w);
    DeviceValue& d = values_.at(dst);
    reshapeBits(d, len);
    cuda::launchTrim(launch(), d.data, src.data, src.words(), from, len);
  }

  void replace(Handle w, std::uint64_t from, Handle v) override {
    const DeviceValue& src = values_.at(v);
    cuda::launchReplace(launch(), values_.at(w).data, from, src.data, src.rows);
  }

  // First difference as an index reduction, the verdict read from a on the device: one launch,
  // one wait.
  int compare(Handle a, Handle b) override {
    queueReduction(Reduction::Compare, a, b);
    return static_cast<int>(reductionResult());
  }

  void add(Handle dst, Handle a, Handle b) override {
    const DeviceValue& x = values_.at(a);
    const DeviceValue& y = values_.at(b);
    DeviceValue& d = values_.at(dst);
    reshapeBits(d, x.rows);
    cuda::launchAdd(launch(), d.data, x.data, y.data, x.words());
  }

  void sub(Handle dst, Handle a, Handle b) override {
    const DeviceValue& x = values_.at(a);
    const DeviceValue& y = values_.at(b);
    DeviceValue& d = values_.at(dst);
    reshapeBits(d, x.rows);
    cuda::launchSub(launch(), d.data, x.data, y.data, x.words());
  }

  // ---- tables ------------------------------------------------------------------------------
  void copyTable(Handle dst, Handle src) override {
    if (dst == src) return;
    const DeviceValue& t = values_.at(src);
    DeviceValue& d = values_.at(dst);
    reshapeTable(d, t.rows, t.cols);
    cuda::launchCopy(launch(), d.data, t.data, t.words());
  }

  void getCol(Handle dst, Handle t, std::uint64_t j) override {
    const DeviceValue& table = values_.at(t);
    DeviceValue& d = values_.at(dst);
    reshapeBits(d, table.rows);
    cuda::launchCopy(launch(), d.data, table.data + j * table.colWords(), table.colWords());
  }

  void setCol(Handle t, std::uint64_t j, Handle src) override {
    const DeviceValue& table = values_.at(t);
    cuda::launchCopy(launch(), table.data + j * table.colWords(), values_.at(src).data,
                      table.colWords());
  }

  void getRow(Handle dst, Handle t, std::uint64_t i) override {
    const DeviceValue& table = values_.at(t);
    DeviceValue& d = values_.at(dst);
    reshapeBits(d, table.cols);
    cuda::launchGetRow(launch(), d.data, table.data, table.colWords(), table.cols, i);
  }

  void setRow(Handle t, std::uint64_t i, Handle src) override {
    const DeviceValue& table = values_.at(t);
    cuda::launchSetRow(launch(), table.data, table.colWords(), table.cols, i,
                         values_.at(src).data);
  }

  // ---- host transfers ------------------------------------------------------------------------
  void readBits(Handle v, std::vector<std::uint64_t>& out) override { read(values_.at(v), out); }

  void writeBits(Handle v, std::uint64_t length, const std::uint64_t* words) override {
    DeviceValue& s = values_.at(v);
    reshapeBits(s, length);
    write(s, words);
  }

  void readTable(Handle t, std::vector<std::uint64_t>& out) override { read(values_.at(t), out); }

  void writeTable(Handle t, std::uint64_t rows, std::uint64_t cols,
                   const std::uint64_t* words) override {
    DeviceValue& s = values_.at(t);
    reshapeTable(s, rows, cols);
    write(s, words);
  }

  void synchronize() override { ctx_.synchronize(); }

  cuda::DeviceContext& context() { return ctx_; }
  std::uint64_t* data(Handle h) { return values_.at(h).data; }

  void makeCurrent() override { check(cudaSetDevice(ctx_.device()), "cudaSetDevice"); }

  // One launch, which stores its result in mapped host memory; reductionResult() waits for it.
  void queueReduction(Reduction r, Handle a, Handle b) override {
    const DeviceValue& x = values_.at(a);
    pending_ = r;
    pending_empty_ = x.words() == 0;
    if (pending_empty_) return;
    if (r == Reduction::Count) {
      cuda::launchCount(launch(), ctx_.nextResult(), x.data, x.words());
    } else if (r == Reduction::FindFirst) {
      cuda::launchFindFirst(launch(), ctx_.nextResult(), x.data, x.words());
    } else {
      cuda::launchCompare(launch(), ctx_.nextResult(), x.data, values_.at(b).data, x.words());
    }
  }
  std::int64_t reductionResult() override {
    if (pending_empty_) return pending_ == Reduction::FindFirst ? -1 : 0;
    if (pending_ == Reduction::FindFirst) return foundIndex();
    return static_cast<std::int64_t>(ctx_.result());
  }

  // ---- native library procedures ---------------------------------------------------------
  // A blocked Warshall on the device (kernels/Closure.cu): one snapshot launch and one launch per
  // 64 pivots, all queued; the scratch grows only when a larger table needs more.
  NativeKernels* nativeKernels() override { return this; }

  bool transitiveClosure(Handle t) override {
    const DeviceValue& s = values_.at(t);
    if (s.rows != s.cols) return false;
    if (s.rows == 0) return true;
    const std::uint64_t needed = cuda::closureScratchWords(s.rows);
    if (needed > closure_capacity_) {
      ctx_.release(closure_scratch_);
      closure_scratch_ = nullptr;
      closure_capacity_ = 0;
      closure_scratch_ = ctx_.allocate(needed);
      closure_capacity_ = needed;
    }
    cuda::launchTransitiveClosure(launch(), s.data, s.rows, closure_scratch_);
    return true;
  }

  // MINROW / MAXROW (kernels/Fields.cu): one block when a column fits in its registers, else one
  // launch per column deciding on the device; no host round trip either way. x may alias z: its
  // length is rows(t), so the reshape keeps its storage.
  bool extremeRows(Handle t, Handle x, std::uint64_t first, std::uint64_t len, bool max,
                    Handle z) override {
    const DeviceValue& s = values_.at(t);
    DeviceValue& d = values_.at(z);
    reshapeBits(d, s.rows);
    if (s.colWords() == 0) return true;
    const std::uint64_t needed = cuda::extremeScratchWords(s.colWords());
    if (needed > fields_capacity_) {
      ctx_.release(fields_scratch_);
      fields_scratch_ = nullptr;
      fields_capacity_ = 0;
      fields_scratch_ = ctx_.allocate(needed);
      fields_capacity_ = needed;
    }
    cuda::launchExtremeRows(launch(), s.data, s.colWords(), values_.at(x).data, first, len, max,
                              d.data, fields_scratch_);
    return true;
  }

  // ADDWF / SUBWF: one launch, v read on the device.
  bool addField(Handle t, Handle x, std::uint64_t first, Handle v, bool subtract) override {
    const DeviceValue& s = values_.at(t);
    const DeviceValue& w = values_.at(v);
    cuda::launchAddField(launch(), s.data, s.colWords(), values_.at(x).data, first, w.data,
                           w.rows, subtract);
    return true;
  }

  bool sortRows(Handle t, Handle x, std::uint64_t first, std::uint64_t len, KeyKind kind,
                 bool descending) override {
    DeviceValue& s = values_.at(t);
    return cuda::sortTableRows(ctx_, s.data, s.rows, s.cols, values_.at(x).data, nullptr, first,
                                 len, kind, descending);
  }

  bool segsortRows(Handle t, Handle x, Handle heads, std::uint64_t first, std::uint64_t len,
                    KeyKind kind, bool descending) override {
    DeviceValue& s = values_.at(t);
    return cuda::sortTableRows(ctx_, s.data, s.rows, s.cols, values_.at(x).data,
                                 values_.at(heads).data, first, len, kind, descending);
  }

  bool nbodyForces(const NBodySystem& s, std::vector<double>& fx, std::vector<double>& fy,
                    std::vector<double>& fz) override {
    return cuda::nbodyForces(ctx_, s, fx, fy, fz);
  }

  bool nbodyVerlet(NBodySystem& s, double dt, std::uint64_t steps) override {
    return cuda::nbodyVerlet(ctx_, s, dt, steps);
  }

  // ---- parallel loops ----------------------------------------------------------------------
  // One kernel over all candidate iterations (runtime-cuda/CudaParallel.h).
  ParallelExecutor* parallelExecutor() override { return this; }
  bool runParallel(const ParallelPlan& plan, ParallelOutcome& outcome) override {
    return parallel_.run(plan, outcome);
  }

  // ---- the device engine (runtime-cuda/CudaEngine.h) -----------------------------------------
  DeviceEngine* deviceEngine() override { return &engine_; }
  // Its compiled tier (runtime-cuda/CompiledEngine.h).
  DeviceEngine* compiledEngine(bool useCache) override {
    if (!compiled_) compiled_ = cuda::makeCompiledCudaEngine(ctx_, values_, useCache);
    return compiled_.get();
  }

 private:
  const cuda::Launch& launch() const { return ctx_.launch(); }

  // Gives s its shape and at least the capacity it needs; the contents are unspecified. Grows
  // only when the capacity is too small, so steady state allocates nothing. Allocation and
  // release are stream-ordered: the old buffer goes back to the pool after the work queued on it.
  void reshapeBits(DeviceValue& s, std::uint64_t length) { reshape(s, length, 1, false); }
  static std::string describe(std::uint64_t rows, std::uint64_t cols, bool table) {
    return table ? describeTable(rows, cols) : describeBits(rows);
  }
  // Gives a value's device memory back (stream-ordered) and its bytes to the memory limit.
  void free(DeviceValue& s) {
    ctx_.release(s.data);
    releaseMemory(s.capacity * kElementBytes);
    s.data = nullptr;
    s.capacity = 0;
  }
  void reshapeTable(DeviceValue& s, std::uint64_t rows, std::uint64_t cols) {
    reshape(s, rows, cols, true);
  }
  void reshape(DeviceValue& s, std::uint64_t rows, std::uint64_t cols, bool table) {
    const std::uint64_t wpc = wordsForBits(rows);
    if (cols != 0 && wpc > ~std::uint64_t{0} / kElementBytes / cols)
      throw BackendError("cuda backend: " + describe(rows, cols, table) + " is too large");
    // (describe() builds a string: only on these rare paths, steady state allocates nothing)
    const std::uint64_t needed = cols * wpc;
    if (needed > s.capacity) {
      free(s);
      s.rows = 0;  // stays a valid empty value if the allocation throws
      s.cols = table ? 0 : 1;
      reserveMemory(needed * kElementBytes, describe(rows, cols, table));  // the memory limit
      try {
        s.data = ctx_.allocate(needed);
      } catch (...) {
        releaseMemory(needed * kElementBytes);
        throw;
      }
      s.capacity = needed;
    }
    s.rows = rows;
    s.cols = cols;
  }

  // cudaMemsetAsync rather than a fill kernel: on an H200 a small memset took about 1 us to issue,
  // a kernel launch 3.2 us.
  void zero(const DeviceValue& s) {
    if (s.words() == 0) return;
    check(cudaMemsetAsync(s.data, 0, s.words() * kElementBytes, ctx_.stream()), "resize");
  }

  // Host transfers go straight to and from the caller's (pageable) memory and then wait for the
  // stream, so the caller may reuse its buffer as soon as the call returns.
  void read(const DeviceValue& s, std::vector<std::uint64_t>& out) {
    out.resize(s.words());
    if (!out.empty()) {
      check(cudaMemcpyAsync(out.data(), s.data, out.size() * kElementBytes, cudaMemcpyDeviceToHost,
                            ctx_.stream()),
            "read");
    }
    ctx_.synchronize();
  }

  // The host's unused high bits are cleared on the device, as the invariant requires.
  void write(const DeviceValue& s, const std::uint64_t* words) {
    if (s.words() == 0) return;
    check(cudaMemcpyAsync(s.data, words, s.words() * kElementBytes, cudaMemcpyHostToDevice,
                          ctx_.stream()),
          "write");
    if (s.rows % 64 != 0) {
      cuda::launchMaskTails(launch(), s.data, s.colWords(), s.cols, tailMask(s.rows));
    }
    ctx_.synchronize();
  }

  // Waits for the search just launched and reads its index.
  std::int64_t foundIndex() {
    const std::uint64_t i = ctx_.result();
    return i == cuda::kNotFound ? -1 : static_cast<std::int64_t>(i);
  }

  Reduction pending_ = Reduction::Count;  // the last queueReduction's kind
  bool pending_empty_ = false;            // ... and whether it had no words (nothing launched)
  cuda::DeviceContext ctx_;  // declared first: destroyed after the slots release their memory
  HandleTable<DeviceValue> values_{"cuda backend"};
  std::uint64_t* closure_scratch_ = nullptr;  // transitiveClosure's snapshots (device)
  std::uint64_t closure_capacity_ = 0;        // elements at closure_scratch_
  std::uint64_t* fields_scratch_ = nullptr;   // extremeRows' candidate buffers (device)
  std::uint64_t fields_capacity_ = 0;         // elements at fields_scratch_
  cuda::CudaParallel parallel_{ctx_, values_, [this](Handle h, std::uint64_t length) {
                                 reshapeBits(values_.bits(h), length);
                               }};
  cuda::CudaEngine engine_{ctx_, values_};
  std::unique_ptr<cuda::CudaEngine> compiled_;
};

}  // namespace

std::unique_ptr<Backend> makeCudaBackend(int device) {
  std::string why;
  if (!cudaBackendAvailable(&why)) throw BackendError("CUDA backend unavailable: " + why);
  if (device < 0) return std::make_unique<CudaBackend>();
  // Made on `device`; the calling thread's current device stays what it was (each backend's own
  // is made current by makeCurrent(), as the sharded backend does before every primitive).
  int previous = 0;
  check(cudaGetDevice(&previous), "cudaGetDevice");
  check(cudaSetDevice(device), "cudaSetDevice");
  std::unique_ptr<Backend> backend;
  try {
    backend = std::make_unique<CudaBackend>();
  } catch (...) {
    cudaSetDevice(previous);
    throw;
  }
  check(cudaSetDevice(previous), "cudaSetDevice");
  return backend;
}

cuda::DeviceContext* cudaContextOf(Backend& backend) {
  auto* b = dynamic_cast<CudaBackend*>(&backend);
  return b ? &b->context() : nullptr;
}

std::uint64_t* cudaDataOf(Backend& backend, Handle value) {
  auto* b = dynamic_cast<CudaBackend*>(&backend);
  return b ? b->data(value) : nullptr;
}

int cudaDeviceCount() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

bool cudaDevicesShareable() {
  const int count = cudaDeviceCount();
  for (int d = 0; d < count; ++d) {
    int mode = cudaComputeModeDefault;
    if (cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, d) != cudaSuccess) {
      cudaGetLastError();
      return false;
    }
    if (mode != cudaComputeModeDefault) return false;
  }
  return true;
}

}  // namespace star
