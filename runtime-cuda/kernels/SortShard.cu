// SortShard.h. The records and kernels are RowSort.cu's (RowSortKernels.cuh); what is new is the
// rank search (one thread per bound, binary search in the sorted run) and the merge of the
// incoming runs: pairwise, adjacent runs first, with thrust::merge_by_key (thrust::merge for
// keys alone), which thrust documents as stable — the first range's element first among equals
// (cub::DeviceMerge, which it runs on, promises no order among equals) — so merging adjacent
// runs level by level keeps the earlier GPU's records first. Its scratch comes from the
// context's stream-ordered pool and it does not wait for the stream (par_nosync).
#include <thrust/merge.h>
#include <thrust/system/cuda/execution_policy.h>

#include <cstddef>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <stdexcept>

#include "runtime-cuda/kernels/RowSortKernels.cuh"
#include "runtime-cuda/kernels/SortShard.h"

namespace star::cuda {
namespace {

struct Probes {
  std::uint64_t key[SortShard::kMaxProbes];
  unsigned count;
};

// host[1 + 2 b] := keys below probe b, host[2 + 2 b] := keys not above it (keys sorted, n of
// them); then host[0] := ticket. One thread per bound.
template <class K>
__global__ void rankKernel(const K* __restrict__ keys, std::uint64_t n, Probes probes,
                           std::uint64_t* host, std::uint64_t ticket) {
  const unsigned i = threadIdx.x;
  if (i < 2 * probes.count) {
    const std::uint64_t p = probes.key[i / 2];
    const bool notAbove = (i & 1) != 0;
    std::uint64_t lo = 0, hi = n;
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      const std::uint64_t k = keys[mid];
      if (notAbove ? k <= p : k < p) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    reinterpret_cast<volatile std::uint64_t*>(host)[1 + i] = lo;
    __threadfence_system();
  }
  __syncthreads();
  if (i == 0) {
    __threadfence_system();  // every bound before the ticket
    reinterpret_cast<volatile std::uint64_t*>(host)[0] = ticket;
  }
}

// thrust's temporary storage, from the context's stream-ordered pool.
struct PoolAllocator {
  using value_type = char;
  DeviceContext* ctx;
  char* allocate(std::ptrdiff_t bytes) {
    return reinterpret_cast<char*>(ctx->allocate((static_cast<std::uint64_t>(bytes) + 15) / 8));
  }
  void deallocate(char* p, std::size_t) { ctx->release(reinterpret_cast<std::uint64_t*>(p)); }
};

}  // namespace

struct SortShard::Impl {
  virtual ~Impl() = default;
  virtual void queueCount() = 0;
  virtual std::uint64_t marked() = 0;
  virtual void sortLocal() = 0;
  virtual void queueRanks(const std::vector<std::uint64_t>& probes) = 0;
  virtual std::vector<std::pair<std::uint64_t, std::uint64_t>> ranks() = 0;
  virtual std::uint64_t maxKey() const = 0;
  virtual unsigned keyBytes() const = 0;
  virtual unsigned valueBytes() const = 0;
  virtual const void* sortedKeys() const = 0;
  virtual const void* sortedValues() const = 0;
  virtual void* incomingKeys() = 0;
  virtual void* incomingValues() = 0;
  virtual void merge(const std::vector<std::uint64_t>& runs) = 0;
  virtual void writeBack() = 0;
};

namespace {

// K: the key's record type (32 or 64 bits); V: the value's, unused when the table is the key.
template <class K, class V>
class Records final : public SortShard::Impl {
 public:
  Records(DeviceContext& ctx, std::uint64_t* table, std::uint64_t rows, std::uint64_t cols,
          const std::uint64_t* x, std::uint64_t first, std::uint64_t len, const KeyOrder& order)
      : ctx_(ctx),
        elements_((rows + 63) / 64),
        keysOnly_(cols == len),
        payload_{static_cast<unsigned>((cols - len + 31) / 32), false},
        prefix_(ctx, (elements_ + 1) * sizeof(std::uint64_t)),
        view_{reinterpret_cast<std::uint32_t*>(table),
              2 * elements_,
              rows,
              cols,
              first,
              len,
              reinterpret_cast<const std::uint32_t*>(x),
              prefix_.as<std::uint64_t>(),
              order},
        x_(x) {}

  void queueCount() override {
    if (elements_ == 0) return;
    const cudaStream_t stream = ctx_.stream();
    std::uint64_t* prefix = prefix_.as<std::uint64_t>();
    countKernel<<<gridFor(ctx_.launch(), elements_ + 1), kBlockThreads, 0, stream>>>(
        x_, nullptr, elements_, prefix);
    checkLaunch("count_kernel");
    cubCall(ctx_, "cub::DeviceScan::ExclusiveSum", [&](void* temp, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(temp, bytes, prefix, elements_ + 1, stream);
    });
  }

  std::uint64_t marked() override {
    if (elements_ == 0) return marked_ = 0;
    marked_ = ctx_.readWord(prefix_.as<std::uint64_t>() + elements_) & kLow32;
    keys_[0] = std::make_unique<SortScratch>(ctx_, marked_ * sizeof(K));
    keys_[1] = std::make_unique<SortScratch>(ctx_, marked_ * sizeof(K));
    values_[0] = std::make_unique<SortScratch>(ctx_, keysOnly_ ? 0 : marked_ * sizeof(V));
    values_[1] = std::make_unique<SortScratch>(ctx_, keysOnly_ ? 0 : marked_ * sizeof(V));
    return marked_;
  }

  void sortLocal() override {
    if (marked_ == 0) return;
    const cudaStream_t stream = ctx_.stream();
    extractKernel<K, V><<<tileGrid(ctx_.launch(), view_.words), Policy::kTileThreads, 0, stream>>>(
        view_, payload_, /*fill=*/false, key(0), value(0), nullptr);
    checkLaunch("extract_kernel");
    cub::DoubleBuffer<K> dk(key(0), key(1));
    cub::DoubleBuffer<V> dv(value(0), value(1));
    const auto n = static_cast<std::uint32_t>(marked_);
    const int endBit = static_cast<int>(view_.len);
    if (keysOnly_) {
      cubCall(ctx_, "cub::DeviceRadixSort::SortKeys", [&](void* temp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortKeys(temp, bytes, dk, n, 0, endBit, stream);
      });
    } else {
      cubCall(ctx_, "cub::DeviceRadixSort::SortPairs", [&](void* temp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(temp, bytes, dk, dv, n, 0, endBit, stream);
      });
    }
    sorted_ = dk.selector;  // the pairs move together: keys and values share the selector
  }

  void queueRanks(const std::vector<std::uint64_t>& probes) override {
    if (probes.size() > SortShard::kMaxProbes) throw std::logic_error("SortShard: too many probes");
    Probes p{};
    p.count = static_cast<unsigned>(probes.size());
    for (unsigned b = 0; b < p.count; ++b) p.key[b] = probes[b];
    area_ = ctx_.mappedArea(1 + 2 * SortShard::kMaxProbes);
    ticket_ = ctx_.nextTicket();
    rankKernel<K><<<1, 2 * SortShard::kMaxProbes, 0, ctx_.stream()>>>(
        marked_ == 0 ? nullptr : key(sorted_), marked_, p, area_.device, ticket_);
    checkLaunch("rank_kernel");
    probes_ = p.count;
  }

  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranks() override {
    ctx_.waitTicket(&area_.host[0], ticket_);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> r(probes_);
    for (unsigned b = 0; b < probes_; ++b) r[b] = {area_.host[1 + 2 * b], area_.host[2 + 2 * b]};
    return r;
  }

  std::uint64_t maxKey() const override { return view_.order.mask; }
  unsigned keyBytes() const override { return sizeof(K); }
  unsigned valueBytes() const override { return keysOnly_ ? 0 : sizeof(V); }
  const void* sortedKeys() const override { return key(sorted_); }
  const void* sortedValues() const override { return keysOnly_ ? nullptr : value(sorted_); }
  void* incomingKeys() override { return key(1 - sorted_); }
  void* incomingValues() override { return keysOnly_ ? nullptr : value(1 - sorted_); }

  void merge(const std::vector<std::uint64_t>& runs) override {
    merged_ = 1 - sorted_;
    if (marked_ == 0) return;
    // Runs as [start, end) in the buffer merged_; each level merges neighbours into the other.
    std::vector<std::uint64_t> bounds{0};
    for (std::uint64_t r : runs) bounds.push_back(bounds.back() + r);
    while (bounds.size() > 2) {
      std::vector<std::uint64_t> next{0};
      for (std::size_t i = 0; i + 1 < bounds.size(); i += 2) {
        const std::uint64_t a = bounds[i], b = bounds[i + 1];
        const std::uint64_t c = i + 2 < bounds.size() ? bounds[i + 2] : b;
        mergePair(merged_, a, b, c);
        next.push_back(c);
      }
      bounds = std::move(next);
      merged_ = 1 - merged_;
    }
  }

  void writeBack() override {
    if (marked_ == 0) return;
    writeBackKernel<K, V>
        <<<tileGrid(ctx_.launch(), view_.words), Policy::kTileThreads, 0, ctx_.stream()>>>(
            view_, payload_, key(merged_), keysOnly_ ? nullptr : value(merged_), nullptr);
    checkLaunch("write_back_kernel");
  }

 private:
  K* key(int i) const { return keys_[i] ? keys_[i]->template as<K>() : nullptr; }
  V* value(int i) const { return values_[i] ? values_[i]->template as<V>() : nullptr; }

  // Buffer 1 - at, [a, c) := the stable merge of buffer at's [a, b) and [b, c) (a copy when one
  // of them is empty).
  void mergePair(int at, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    const cudaStream_t stream = ctx_.stream();
    const int to = 1 - at;
    if (a == b || b == c) {
      check(cudaMemcpyAsync(key(to) + a, key(at) + a, (c - a) * sizeof(K), cudaMemcpyDeviceToDevice,
                            stream),
            "cudaMemcpyAsync");
      if (!keysOnly_)
        check(cudaMemcpyAsync(value(to) + a, value(at) + a, (c - a) * sizeof(V),
                              cudaMemcpyDeviceToDevice, stream),
              "cudaMemcpyAsync");
      return;
    }
    PoolAllocator pool{&ctx_};
    const auto policy = thrust::cuda::par_nosync(pool).on(stream);
    const K* k = key(at);
    if (keysOnly_) {
      thrust::merge(policy, k + a, k + b, k + b, k + c, key(to) + a);
    } else {
      const V* v = value(at);
      thrust::merge_by_key(policy, k + a, k + b, k + b, k + c, v + a, v + b, key(to) + a,
                           value(to) + a);
    }
    checkLaunch("thrust::merge");
  }

  DeviceContext& ctx_;
  std::uint64_t elements_;
  bool keysOnly_;
  Payload payload_;
  SortScratch prefix_;
  TableView view_;
  const std::uint64_t* x_;
  std::uint64_t marked_ = 0;
  std::unique_ptr<SortScratch> keys_[2], values_[2];
  int sorted_ = 0;  // the buffer of the locally sorted records
  int merged_ = 0;  // the buffer of the merged records
  DeviceContext::MappedArea area_;
  std::uint64_t ticket_ = 0;
  unsigned probes_ = 0;
};

template <class K>
std::unique_ptr<SortShard::Impl> makeRecords(DeviceContext& ctx, std::uint64_t* table,
                                             std::uint64_t rows, std::uint64_t cols,
                                             const std::uint64_t* x, std::uint64_t first,
                                             std::uint64_t len, const KeyOrder& order) {
  if (cols - len > 32)
    return std::make_unique<Records<K, std::uint64_t>>(ctx, table, rows, cols, x, first, len,
                                                       order);
  return std::make_unique<Records<K, std::uint32_t>>(ctx, table, rows, cols, x, first, len, order);
}

}  // namespace

bool SortShard::handles(std::uint64_t rows, std::uint64_t cols, std::uint64_t len) {
  return rows <= kLow32 && len >= 1 && len <= 64 && cols >= len && cols - len <= 64;
}

SortShard::SortShard(DeviceContext& ctx, std::uint64_t* table, std::uint64_t rows,
                     std::uint64_t cols, const std::uint64_t* x, std::uint64_t first,
                     std::uint64_t len, KeyKind kind, bool descending) {
  const KeyOrder order = makeKeyOrder(len, kind, descending);
  impl_ = len <= 32 ? makeRecords<std::uint32_t>(ctx, table, rows, cols, x, first, len, order)
                    : makeRecords<std::uint64_t>(ctx, table, rows, cols, x, first, len, order);
}

SortShard::~SortShard() = default;

void SortShard::queueCount() {
  impl_->queueCount();
}
std::uint64_t SortShard::marked() {
  return impl_->marked();
}
void SortShard::sortLocal() {
  impl_->sortLocal();
}
void SortShard::queueRanks(const std::vector<std::uint64_t>& probes) {
  impl_->queueRanks(probes);
}
std::vector<std::pair<std::uint64_t, std::uint64_t>> SortShard::ranks() {
  return impl_->ranks();
}
std::uint64_t SortShard::maxKey() const {
  return impl_->maxKey();
}
unsigned SortShard::keyBytes() const {
  return impl_->keyBytes();
}
unsigned SortShard::valueBytes() const {
  return impl_->valueBytes();
}
const void* SortShard::sortedKeys() const {
  return impl_->sortedKeys();
}
const void* SortShard::sortedValues() const {
  return impl_->sortedValues();
}
void* SortShard::incomingKeys() {
  return impl_->incomingKeys();
}
void* SortShard::incomingValues() {
  return impl_->incomingValues();
}
void SortShard::merge(const std::vector<std::uint64_t>& runs) {
  impl_->merge(runs);
}
void SortShard::writeBack() {
  impl_->writeBack();
}

}  // namespace star::cuda
