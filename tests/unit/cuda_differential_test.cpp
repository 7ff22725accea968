// Differential test of the CUDA backend, and of the sharded backend (rows split across several
// backends: three CPU backends here, which runs without a GPU, and every GPU of a machine with
// two or more), against the CPU backend, the executable reference: every
// primitive runs on identical inputs on both, and the results (read back with readBits /
// readTable, and the scalar results) must be identical. Lengths cover every n mod 64 class and
// several grid sizes; many checks queue several primitives before the first read, which tests that
// the asynchronous GPU work runs in program order. The GPU subjects skip when no GPU is usable
// (two for the sharded one); the sharded ones split at every 64-bit word (the least block), so
// that every primitive meets values that cross the devices.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <ios>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/MemoryLimit.h"
#include "runtime-cpu/CpuBackend.h"
#include "runtime-cuda/CudaBackend.h"
#include "runtime-cuda/MultiGpuNatives.h"
#include "runtime-sharded/ShardedBackend.h"
#include "vm/backend/NativeKernels.h"

namespace star {
namespace {

using Words = std::vector<std::uint64_t>;

// One value, held by both backends.
struct Pair {
  Handle cpu = kNoHandle;
  Handle gpu = kNoHandle;
};

enum class Pattern { Zero, Ones, Half, Dense, Sparse, Single, Last };
constexpr Pattern kPatterns[] = {Pattern::Zero,   Pattern::Ones,   Pattern::Half, Pattern::Dense,
                                 Pattern::Sparse, Pattern::Single, Pattern::Last};
constexpr BitOp kOps[] = {BitOp::And, BitOp::Or, BitOp::Xor};

std::uint64_t tailMask(std::uint64_t bits) {
  return bits % 64 == 0 ? ~std::uint64_t{0} : (std::uint64_t{1} << (bits % 64)) - 1;
}

// The backends compared with the CPU backend.
constexpr const char* kSubjects[] = {"cuda", "sharded_cpu3", "sharded_cuda"};

// Split at every word (the least block), so that every value crosses the devices.
std::unique_ptr<Backend> sharded(std::vector<std::unique_ptr<Backend>> devices,
                                 std::unique_ptr<ShardedNatives> natives = nullptr) {
  return makeShardedBackend({.devices = std::move(devices),
                             .host = makeCpuBackend(),
                             .minWords = 1,
                             .natives = std::move(natives)});
}

class CudaDifferentialTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    const std::string subject = GetParam();
    cpu_ = makeCpuBackend();
    if (subject == "sharded_cpu3") {
      std::vector<std::unique_ptr<Backend>> devices;
      for (int g = 0; g < 3; ++g) devices.push_back(makeCpuBackend());
      gpu_ = sharded(std::move(devices));
      return;
    }
    std::string why;
    if (!cudaBackendAvailable(&why)) GTEST_SKIP() << "no usable CUDA device: " << why;
    if (subject == "cuda") {
      gpu_ = makeCudaBackend();
      return;
    }
    const int n = cudaDeviceCount();
    if (n < 2) GTEST_SKIP() << "the sharded CUDA backend needs two GPUs; this machine has " << n;
    std::vector<std::unique_ptr<Backend>> devices;
    for (int g = 0; g < n; ++g) devices.push_back(makeCudaBackend(g));
    std::unique_ptr<ShardedNatives> natives = makeMultiGpuNatives(n);
    natives_ = natives.get();
    gpu_ = sharded(std::move(devices), std::move(natives));  // the NCCL natives as star has them
  }
  // For the tests of one CUDA backend's own behaviour.
  bool plainCuda() const { return std::string(GetParam()) == "cuda"; }

  // Every n mod 64 class (1..130), element and block boundaries, more than one 1024-limb chunk
  // of the arithmetic kernel (65537), and random lengths up to 200,000.
  // STAR_DIFF_QUICK=1 (set for the compute-sanitizer runs, which are ~500x slower) keeps one
  // length per interesting class.
  std::vector<std::uint64_t> lengths(int random_count = 12) {
    if (std::getenv("STAR_DIFF_QUICK")) return {1u, 2u, 63u, 64u, 65u, 127u, 129u, 1025u, 65537u};
    std::vector<std::uint64_t> v;
    for (std::uint64_t n = 1; n <= 130; ++n) v.push_back(n);
    for (std::uint64_t n : {191u, 192u, 193u, 1023u, 1024u, 1025u, 4097u, 16384u, 65535u, 65536u,
                            65537u, 131073u, 200000u}) {
      v.push_back(n);
    }
    for (int i = 0; i < random_count; ++i) v.push_back(1 + rng_() % 200000);
    return v;
  }

  std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : rng_() % n; }

  Words randomWords(std::uint64_t len, Pattern p) {
    Words w(wordsForBits(len), 0);
    auto set = [&](std::uint64_t i) { w[i / 64] |= std::uint64_t{1} << (i % 64); };
    switch (p) {
      case Pattern::Zero:
        break;
      case Pattern::Ones:
        for (auto& x : w) x = ~std::uint64_t{0};
        break;
      case Pattern::Half:
        for (auto& x : w) x = rng_();
        break;
      case Pattern::Dense:
        for (auto& x : w) x = rng_() | rng_() | rng_();
        break;
      case Pattern::Sparse:
        for (int k = 1 + static_cast<int>(rng_() % 4); k > 0 && len > 0; --k) set(below(len));
        break;
      case Pattern::Single:
        if (len > 0) set(below(len));
        break;
      case Pattern::Last:
        if (len > 0) set(len - 1);
        break;
    }
    if (!w.empty()) w.back() &= tailMask(len);
    return w;
  }

  // ---- values on both backends ------------------------------------------------------------------
  Pair bits() { return {cpu_->createBits(), gpu_->createBits()}; }
  Pair table() { return {cpu_->createTable(), gpu_->createTable()}; }

  void write(Pair v, std::uint64_t len, const Words& w) {
    cpu_->writeBits(v.cpu, len, w.data());
    gpu_->writeBits(v.gpu, len, w.data());
  }

  Pair bits(std::uint64_t len, Pattern p) {
    const Pair v = bits();
    write(v, len, randomWords(len, p));
    return v;
  }

  Pair table(std::uint64_t rows, std::uint64_t cols) {
    const Pair t = table();
    Words w;
    for (std::uint64_t j = 0; j < cols; ++j) {
      const Words c = randomWords(rows, kPatterns[j % std::size(kPatterns)]);
      w.insert(w.end(), c.begin(), c.end());
    }
    cpu_->writeTable(t.cpu, rows, cols, w.data());
    gpu_->writeTable(t.gpu, rows, cols, w.data());
    return t;
  }

  void destroy(Pair v) {
    cpu_->destroy(v.cpu);
    gpu_->destroy(v.gpu);
  }

  // Runs f(backend, handleOf) on both backends: handleOf(pair) names the value on that backend.
  template <class F>
  void both(F&& f) {
    f(*cpu_, [](Pair p) { return p.cpu; });
    f(*gpu_, [](Pair p) { return p.gpu; });
  }

  // The same for a primitive with a result: both results must be equal.
  template <class F>
  ::testing::AssertionResult sameResult(F&& f) {
    const auto c = f(*cpu_, [](Pair p) { return p.cpu; });
    const auto g = f(*gpu_, [](Pair p) { return p.gpu; });
    if (c == g) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "cpu " << c << ", cuda " << g;
  }

  // ---- comparisons ------------------------------------------------------------------------------
  static ::testing::AssertionResult sameWords(const Words& c, const Words& g) {
    if (c.size() != g.size()) {
      return ::testing::AssertionFailure()
             << "element count: cpu " << c.size() << ", cuda " << g.size();
    }
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (c[i] != g[i]) {
        return ::testing::AssertionFailure() << "element " << i << " of " << c.size() << ": cpu 0x"
                                             << std::hex << c[i] << ", cuda 0x" << g[i];
      }
    }
    return ::testing::AssertionSuccess();
  }

  ::testing::AssertionResult same(Pair v) {
    const std::uint64_t lc = cpu_->length(v.cpu);
    const std::uint64_t lg = gpu_->length(v.gpu);
    if (lc != lg) return ::testing::AssertionFailure() << "length: cpu " << lc << ", cuda " << lg;
    Words c;
    Words g;
    cpu_->readBits(v.cpu, c);
    gpu_->readBits(v.gpu, g);
    return sameWords(c, g);
  }

  ::testing::AssertionResult sameTable(Pair t) {
    if (cpu_->rows(t.cpu) != gpu_->rows(t.gpu) || cpu_->cols(t.cpu) != gpu_->cols(t.gpu)) {
      return ::testing::AssertionFailure()
             << "shape: cpu " << cpu_->rows(t.cpu) << "x" << cpu_->cols(t.cpu) << ", cuda "
             << gpu_->rows(t.gpu) << "x" << gpu_->cols(t.gpu);
    }
    Words c;
    Words g;
    cpu_->readTable(t.cpu, c);
    gpu_->readTable(t.gpu, g);
    return sameWords(c, g);
  }

  std::unique_ptr<Backend> cpu_;
  std::unique_ptr<Backend> gpu_;
  ShardedNatives* natives_ = nullptr;  // sharded_cuda's NCCL natives (owned by gpu_)
  std::mt19937_64 rng_{0x5eed5a17};
};

std::string at(std::uint64_t len) {
  return "length " + std::to_string(len);
}

TEST_P(CudaDifferentialTest, NameAndDevice) {
  if (!plainCuda()) GTEST_SKIP() << "one CUDA backend's own behaviour";
  EXPECT_EQ(gpu_->name(), "cuda");
  EXPECT_FALSE(gpu_->device().empty());
}

TEST_P(CudaDifferentialTest, ResizeZeroFillsAndReusesCapacity) {
  const Pair v = bits();
  EXPECT_EQ(gpu_->length(v.gpu), 0u);
  // Shrinking and growing again within the capacity must still give zeros.
  for (std::uint64_t n : {0u, 1u, 63u, 64u, 65u, 1000u, 200000u, 5u, 0u, 70000u, 129u, 200000u}) {
    SCOPED_TRACE(at(n));
    both([&](Backend& b, auto h) {
      b.fill(h(v), true);
      b.resizeBits(h(v), n);
    });
    ASSERT_TRUE(same(v));
  }
  const Pair t = table();
  EXPECT_EQ(gpu_->rows(t.gpu), 0u);
  EXPECT_EQ(gpu_->cols(t.gpu), 0u);
  const std::pair<std::uint64_t, std::uint64_t> shapes[] = {
      {0, 0}, {5, 0}, {0, 5}, {1, 1}, {65, 3}, {1000, 70}, {3, 1000}, {64, 64}, {7, 2}, {70000, 9}};
  for (auto [rows, cols] : shapes) {
    SCOPED_TRACE("table " + std::to_string(rows) + "x" + std::to_string(cols));
    const Pair filled = table(rows, cols);
    both([&](Backend& b, auto h) {
      b.copyTable(h(t), h(filled));
      b.resizeTable(h(t), rows, cols);
    });
    ASSERT_TRUE(sameTable(t));
    destroy(filled);
  }
}

TEST_P(CudaDifferentialTest, HandlesAreReusedAfterDestroy) {
  std::vector<Pair> values;
  for (int i = 0; i < 20; ++i) values.push_back(bits(1 + 37 * i, Pattern::Half));
  for (int i = 0; i < 20; i += 2) destroy(values[i]);
  for (int i = 0; i < 20; i += 2) {
    values[i] = bits(1000 + i, Pattern::Dense);
    EXPECT_NE(values[i].gpu, kNoHandle);
  }
  for (const Pair& v : values) ASSERT_TRUE(same(v));
}

TEST_P(CudaDifferentialTest, WriteReadRoundTrip) {
  for (std::uint64_t n : lengths()) {
    SCOPED_TRACE(at(n));
    Words w = randomWords(n, Pattern::Half);
    // Stray bits past the length: both backends clear them on write.
    if (n % 64 != 0) w.back() |= ~tailMask(n);
    const Pair v = bits();
    write(v, n, w);
    ASSERT_TRUE(same(v));
    destroy(v);
  }
  for (auto [rows, cols] :
       {std::pair<std::uint64_t, std::uint64_t>{1, 1}, {63, 5}, {65, 70}, {200000, 2}, {1, 300}}) {
    SCOPED_TRACE("table " + std::to_string(rows) + "x" + std::to_string(cols));
    Words w(cols * wordsForBits(rows));
    for (auto& x : w) x = rng_();  // stray bits in every column's last element
    const Pair t = table();
    cpu_->writeTable(t.cpu, rows, cols, w.data());
    gpu_->writeTable(t.gpu, rows, cols, w.data());
    ASSERT_TRUE(sameTable(t));
  }
}

TEST_P(CudaDifferentialTest, Fill) {
  for (std::uint64_t n : lengths()) {
    SCOPED_TRACE(at(n));
    const Pair v = bits(n, Pattern::Half);
    both([&](Backend& b, auto h) { b.fill(h(v), true); });
    ASSERT_TRUE(same(v));
    both([&](Backend& b, auto h) { b.fill(h(v), false); });
    ASSERT_TRUE(same(v));
    destroy(v);
  }
}

TEST_P(CudaDifferentialTest, CopyAndNot) {
  for (std::uint64_t n : lengths()) {
    SCOPED_TRACE(at(n));
    const Pair a = bits(n, Pattern::Half);
    const Pair d = bits((n * 7) % 300 + 1, Pattern::Ones);  // another length: takes a's
    const Pair e = bits();
    both([&](Backend& b, auto h) {
      b.copyBits(h(d), h(a));
      b.bitNot(h(e), h(a));
    });
    ASSERT_TRUE(same(d));
    ASSERT_TRUE(same(e));
    both([&](Backend& b, auto h) {
      b.bitNot(h(a), h(a));
      b.copyBits(h(a), h(a));
    });
    ASSERT_TRUE(same(a));
    destroy(a);
    destroy(d);
    destroy(e);
  }
}

TEST_P(CudaDifferentialTest, Bitwise) {
  for (std::uint64_t n : lengths()) {
    SCOPED_TRACE(at(n));
    for (BitOp op : kOps) {
      SCOPED_TRACE("op " + std::to_string(static_cast<int>(op)));
      const Pair a = bits(n, Pattern::Half);
      const Pair b2 = bits(n, Pattern::Dense);
      const Pair d = bits();
      both([&](Backend& b, auto h) { b.bitwise(op, h(d), h(a), h(b2)); });
      ASSERT_TRUE(same(d));
      // Aliasing: dst == a, dst == b, dst == a == b, queued before the reads.
      both([&](Backend& b, auto h) {
        b.bitwise(op, h(a), h(a), h(b2));
        b.bitwise(op, h(b2), h(d), h(b2));
        b.bitwise(op, h(d), h(d), h(d));
      });
      ASSERT_TRUE(same(a));
      ASSERT_TRUE(same(b2));
      ASSERT_TRUE(same(d));
      destroy(a);
      destroy(b2);
      destroy(d);
    }
  }
}

TEST_P(CudaDifferentialTest, FindFirstCountAny) {
  for (std::uint64_t n : lengths()) {
    SCOPED_TRACE(at(n));
    for (Pattern p : kPatterns) {
      SCOPED_TRACE("pattern " + std::to_string(static_cast<int>(p)));
      const Pair v = bits(n, p);
      ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.findFirst(h(v)); }));
      ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.count(h(v)); }));
      ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.any(h(v)); }));
      destroy(v);
    }
  }
}

TEST_P(CudaDifferentialTest, EveryBitPositionOfShortVectors) {
  for (std::uint64_t n = 1; n <= 130; ++n) {
    const Pair v = bits(n, Pattern::Zero);
    const Pair d = bits();
    for (std::uint64_t i = 0; i < n; ++i) {
      SCOPED_TRACE(at(n) + ", bit " + std::to_string(i));
      both([&](Backend& b, auto h) {
        b.fill(h(v), false);
        b.setBit(h(v), i, true);
        if (i + 1 < n) b.setBit(h(v), n - 1, true);  // a later 1 that must not win
        b.firstOnly(h(d), h(v));
      });
      ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.findFirst(h(v)); }));
      ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.getBit(h(v), i); }));
      ASSERT_TRUE(same(d));
    }
    destroy(v);
    destroy(d);
  }
}

TEST_P(CudaDifferentialTest, StepDrainsInOrder) {
  for (std::uint64_t n : lengths(4)) {
    SCOPED_TRACE(at(n));
    // Every 1 of a short vector, or a few 1s of a long one.
    const Pair v = bits(n, n <= 130 ? Pattern::Half : Pattern::Sparse);
    for (int k = 0; k <= 130; ++k) {
      std::int64_t c = 0;
      ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return c = b.step(h(v)); }));
      if (c < 0) break;
    }
    ASSERT_TRUE(same(v));
    destroy(v);
  }
}

TEST_P(CudaDifferentialTest, FirstOnly) {
  for (std::uint64_t n : lengths()) {
    SCOPED_TRACE(at(n));
    for (Pattern p : kPatterns) {
      SCOPED_TRACE("pattern " + std::to_string(static_cast<int>(p)));
      const Pair v = bits(n, p);
      const Pair d = bits(3, Pattern::Ones);
      both([&](Backend& b, auto h) {
        b.firstOnly(h(d), h(v));
        b.firstOnly(h(v), h(v));  // aliased
      });
      ASSERT_TRUE(same(d));
      ASSERT_TRUE(same(v));
      destroy(v);
      destroy(d);
    }
  }
}

TEST_P(CudaDifferentialTest, GetSetBit) {
  for (std::uint64_t n : lengths()) {
    SCOPED_TRACE(at(n));
    const Pair v = bits(n, Pattern::Half);
    std::vector<std::uint64_t> positions = {0, n - 1, n / 2};
    for (int k = 0; k < 8; ++k) positions.push_back(below(n));
    both([&](Backend& b, auto h) {
      for (std::size_t k = 0; k < positions.size(); ++k) b.setBit(h(v), positions[k], k % 2 == 0);
    });
    for (std::uint64_t i : positions) {
      ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.getBit(h(v), i); }));
    }
    ASSERT_TRUE(same(v));
    destroy(v);
  }
}

TEST_P(CudaDifferentialTest, Trim) {
  for (std::uint64_t n : lengths()) {
    SCOPED_TRACE(at(n));
    const Pair w = bits(n, Pattern::Half);
    const Pair d = bits();
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges = {
        {0, n}, {n - 1, 1}, {0, 0}, {n, 0}, {n / 2, n - n / 2}};
    for (std::uint64_t from : {1u, 63u, 64u, 65u, 127u, 128u}) {
      if (from < n) ranges.push_back({from, below(n - from + 1)});
    }
    for (int k = 0; k < 6; ++k) {
      const std::uint64_t from = below(n + 1);
      ranges.push_back({from, below(n - from + 1)});
    }
    for (auto [from, len] : ranges) {
      SCOPED_TRACE("from " + std::to_string(from) + " len " + std::to_string(len));
      both([&](Backend& b, auto h) { b.trim(h(d), h(w), from, len); });
      ASSERT_TRUE(same(d));
    }
    destroy(w);
    destroy(d);
  }
}

TEST_P(CudaDifferentialTest, Replace) {
  for (std::uint64_t n : lengths()) {
    SCOPED_TRACE(at(n));
    const Pair w = bits(n, Pattern::Half);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges = {
        {0, n}, {n - 1, 1}, {0, 0}, {n, 0}, {0, 1}};
    for (std::uint64_t from : {1u, 63u, 64u, 65u, 127u, 128u}) {
      if (from < n) ranges.push_back({from, below(n - from + 1)});
    }
    for (int k = 0; k < 6; ++k) {
      const std::uint64_t from = below(n + 1);
      ranges.push_back({from, below(n - from + 1)});
    }
    for (std::size_t k = 0; k < ranges.size(); ++k) {
      const auto [from, len] = ranges[k];
      SCOPED_TRACE("from " + std::to_string(from) + " len " + std::to_string(len));
      const Pair v = bits(len, k % 2 == 0 ? Pattern::Ones : Pattern::Half);
      both([&](Backend& b, auto h) { b.replace(h(w), from, h(v)); });
      ASSERT_TRUE(same(w));
      destroy(v);
    }
    destroy(w);
  }
}

TEST_P(CudaDifferentialTest, Compare) {
  for (std::uint64_t n : lengths()) {
    SCOPED_TRACE(at(n));
    const Pair a = bits(n, Pattern::Half);
    const Pair b2 = bits();
    auto cmp = [&](Pair x, Pair y) {
      return sameResult([&](Backend& b, auto h) { return b.compare(h(x), h(y)); });
    };
    both([&](Backend& b, auto h) { b.copyBits(h(b2), h(a)); });
    ASSERT_TRUE(cmp(a, b2));
    ASSERT_TRUE(cmp(a, a));
    for (std::uint64_t i : {std::uint64_t{0}, n - 1, below(n), below(n)}) {
      SCOPED_TRACE("flipped bit " + std::to_string(i));
      both([&](Backend& b, auto h) {
        b.copyBits(h(b2), h(a));
        b.setBit(h(b2), i, !b.getBit(h(a), i));
      });
      ASSERT_TRUE(cmp(a, b2));
      ASSERT_TRUE(cmp(b2, a));
    }
    for (Pattern p : kPatterns) {
      const Pair c = bits(n, p);
      ASSERT_TRUE(cmp(a, c));
      ASSERT_TRUE(cmp(c, a));
      destroy(c);
    }
    destroy(a);
    destroy(b2);
  }
}

TEST_P(CudaDifferentialTest, AddSub) {
  for (std::uint64_t n : lengths()) {
    SCOPED_TRACE(at(n));
    for (Pattern pa : {Pattern::Half, Pattern::Ones, Pattern::Zero, Pattern::Dense}) {
      for (Pattern pb : {Pattern::Half, Pattern::Last, Pattern::Ones, Pattern::Single}) {
        SCOPED_TRACE("patterns " + std::to_string(static_cast<int>(pa)) + ", " +
                     std::to_string(static_cast<int>(pb)));
        // Ones + Last and Zero - Last carry (borrow) across the whole word.
        const Pair a = bits(n, pa);
        const Pair b2 = bits(n, pb);
        const Pair s = bits();
        const Pair d = bits(1, Pattern::Ones);
        both([&](Backend& b, auto h) {
          b.add(h(s), h(a), h(b2));
          b.sub(h(d), h(a), h(b2));
        });
        ASSERT_TRUE(same(s));
        ASSERT_TRUE(same(d));
        // Aliased operands, queued together.
        both([&](Backend& b, auto h) {
          b.add(h(a), h(a), h(b2));
          b.sub(h(b2), h(s), h(b2));
          b.add(h(d), h(d), h(d));
          b.sub(h(s), h(s), h(s));
        });
        ASSERT_TRUE(same(a));
        ASSERT_TRUE(same(b2));
        ASSERT_TRUE(same(d));
        ASSERT_TRUE(same(s));
        destroy(a);
        destroy(b2);
        destroy(s);
        destroy(d);
      }
    }
  }
}

TEST_P(CudaDifferentialTest, Tables) {
  const std::pair<std::uint64_t, std::uint64_t> shapes[] = {
      {1, 1},      {1, 63},  {1, 64},     {1, 65},   {1, 130}, {1, 1000}, {63, 1},
      {64, 1},     {65, 1},  {200000, 1}, {130, 70}, {64, 64}, {3, 2000}, {1000, 300},
      {70000, 70}, {100, 1}, {127, 33},   {5, 0},    {0, 5},   {0, 0}};
  for (auto [rows, cols] : shapes) {
    SCOPED_TRACE("table " + std::to_string(rows) + "x" + std::to_string(cols));
    const Pair t = table(rows, cols);
    ASSERT_TRUE(sameTable(t));
    const Pair copy = table();
    const Pair other = table(17, 3);  // copied over: takes the shape
    both([&](Backend& b, auto h) {
      b.copyTable(h(copy), h(t));
      b.copyTable(h(other), h(t));
    });
    ASSERT_TRUE(sameTable(copy));
    ASSERT_TRUE(sameTable(other));

    const Pair v = bits();
    std::vector<std::uint64_t> cols_to_try = {0, cols - 1, below(cols), below(cols)};
    std::vector<std::uint64_t> rows_to_try = {0, rows - 1, below(rows), below(rows)};
    if (cols > 0) {
      for (std::uint64_t j : cols_to_try) {
        SCOPED_TRACE("column " + std::to_string(j));
        both([&](Backend& b, auto h) { b.getCol(h(v), h(t), j); });
        ASSERT_TRUE(same(v));
        const Pair c = bits(rows, Pattern::Half);
        both([&](Backend& b, auto h) { b.setCol(h(t), j, h(c)); });
        destroy(c);
      }
      ASSERT_TRUE(sameTable(t));
    }
    if (rows > 0) {
      for (std::uint64_t i : rows_to_try) {
        SCOPED_TRACE("row " + std::to_string(i));
        both([&](Backend& b, auto h) { b.getRow(h(v), h(t), i); });
        ASSERT_TRUE(same(v));
        const Pair r = bits(cols, Pattern::Half);
        both([&](Backend& b, auto h) {
          b.setRow(h(t), i, h(r));
          b.getRow(h(v), h(t), i);  // queued right after the write
        });
        ASSERT_TRUE(same(v));
        destroy(r);
      }
      ASSERT_TRUE(sameTable(t));
    }
    destroy(v);
    destroy(t);
    destroy(copy);
    destroy(other);
  }
}

TEST_P(CudaDifferentialTest, EmptyValues) {
  const Pair e = bits();
  const Pair f = bits();
  const Pair w = bits(100, Pattern::Half);
  both([&](Backend& b, auto h) {
    b.fill(h(e), true);
    b.bitNot(h(f), h(e));
    b.bitwise(BitOp::Xor, h(f), h(e), h(e));
    b.firstOnly(h(f), h(e));
    b.add(h(f), h(e), h(e));
    b.sub(h(f), h(e), h(e));
    b.copyBits(h(f), h(e));
    b.trim(h(f), h(e), 0, 0);
    b.replace(h(e), 0, h(f));
    b.replace(h(w), 100, h(e));
    b.replace(h(w), 37, h(e));
  });
  ASSERT_TRUE(same(e));
  ASSERT_TRUE(same(f));
  ASSERT_TRUE(same(w));
  ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.findFirst(h(e)); }));
  ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.step(h(e)); }));
  ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.count(h(e)); }));
  ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.any(h(e)); }));
  ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.compare(h(e), h(f)); }));
  both([&](Backend& b, auto h) { b.trim(h(f), h(w), 40, 0); });
  ASSERT_TRUE(same(f));

  const Pair no_cols = table();
  const Pair no_rows = table();
  both([&](Backend& b, auto h) {
    b.resizeTable(h(no_cols), 5, 0);
    b.resizeTable(h(no_rows), 0, 5);
    b.getRow(h(f), h(no_cols), 3);
    b.setRow(h(no_cols), 4, h(e));
    b.getCol(h(e), h(no_rows), 2);
    b.setCol(h(no_rows), 4, h(e));
  });
  ASSERT_TRUE(same(f));
  ASSERT_TRUE(same(e));
  ASSERT_TRUE(sameTable(no_cols));
  ASSERT_TRUE(sameTable(no_rows));
}

// Long random programs with no read until the end: every primitive must see the results of the
// ones queued before it.
TEST_P(CudaDifferentialTest, AsynchronousSequences) {
  for (std::uint64_t n : {1u, 63u, 64u, 65u, 127u, 1000u, 4099u, 65537u, 200000u}) {
    SCOPED_TRACE(at(n));
    constexpr int kValues = 6;
    std::vector<Pair> v;
    for (int k = 0; k < kValues; ++k) v.push_back(bits(n, kPatterns[k % std::size(kPatterns)]));
    const Pair tmp = bits();
    const Pair col = bits();
    const std::uint64_t rows = 97;
    const Pair t = table(rows, n);  // rows are n bits long, like the values
    std::vector<std::int64_t> cpu_results;
    std::vector<std::int64_t> gpu_results;

    for (int step = 0; step < 400; ++step) {
      const Pair x = v[below(kValues)];
      const Pair y = v[below(kValues)];
      const Pair z = v[below(kValues)];  // may equal x or y: aliasing
      const std::uint64_t i = below(n);
      const std::uint64_t from = below(n + 1);
      const std::uint64_t len = below(n - from + 1);
      const std::uint64_t to = below(n - len + 1);
      const std::uint64_t r = below(rows);
      const std::uint64_t j = below(n);
      const BitOp op = kOps[below(3)];
      const auto choice = below(17);
      auto run = [&](Backend& b, auto h, std::vector<std::int64_t>& results) {
        switch (choice) {
          case 0:
            b.fill(h(z), i % 2 == 0);
            break;
          case 1:
            b.copyBits(h(z), h(x));
            break;
          case 2:
          case 3:
            b.bitwise(op, h(z), h(x), h(y));
            break;
          case 4:
            b.bitNot(h(z), h(x));
            break;
          case 5:
            b.firstOnly(h(z), h(x));
            break;
          case 6:
            b.setBit(h(z), i, from % 2 == 0);
            break;
          case 7:
            b.trim(h(tmp), h(x), from, len);
            b.replace(h(z), to, h(tmp));
            break;
          case 8:
            b.add(h(z), h(x), h(y));
            break;
          case 9:
            b.sub(h(z), h(x), h(y));
            break;
          case 10:
            b.setRow(h(t), r, h(x));
            b.getRow(h(z), h(t), (r * 7) % rows);
            break;
          case 11:
            b.getCol(h(col), h(t), j);
            b.setCol(h(t), (j + 1) % n, h(col));
            break;
          case 12:
            b.resizeBits(h(z), n);
            break;
          case 13:  // the occasional synchronising primitive in the middle of the queue
            results.push_back(b.step(h(z)));
            break;
          case 14:
            results.push_back(b.compare(h(x), h(y)));
            break;
          case 15:
            results.push_back(static_cast<std::int64_t>(b.count(h(x))));
            break;
          default:
            b.resizeBits(h(tmp), len);
            b.fill(h(tmp), true);
            b.replace(h(z), to, h(tmp));
            break;
        }
      };
      const auto on_cpu = [](Pair p) { return p.cpu; };
      const auto on_gpu = [](Pair p) { return p.gpu; };
      run(*cpu_, on_cpu, cpu_results);
      run(*gpu_, on_gpu, gpu_results);
    }
    EXPECT_EQ(cpu_results, gpu_results);
    for (const Pair& x : v) ASSERT_TRUE(same(x));
    ASSERT_TRUE(sameTable(t));
    gpu_->synchronize();
  }
}

// Vectors large enough for the many-block reductions (FND, STEP, NUMB, compare and FRST combine
// their blocks through self-resetting device accumulators, the last block finishing the primitive),
// up to grids capped at the device's resident blocks, where each thread loops. Every check runs
// several reductions of different kinds back to back: each must leave the accumulators idle for
// the next one, single-block launches interleaved.
TEST_P(CudaDifferentialTest, LargeVectorReductions) {
  const bool quick = std::getenv("STAR_DIFF_QUICK") != nullptr;
  std::vector<std::uint64_t> sizes = {131072, 131073, 131200, 262143, 10000000};
  if (!quick) sizes.insert(sizes.end(), {67108927u, 80000001u});
  const Pair small = bits(1000, Pattern::Half);
  for (std::uint64_t n : sizes) {
    SCOPED_TRACE(at(n));
    for (Pattern p :
         {Pattern::Zero, Pattern::Last, Pattern::Single, Pattern::Sparse, Pattern::Half}) {
      SCOPED_TRACE("pattern " + std::to_string(static_cast<int>(p)));
      const Pair v = bits(n, p);
      const Pair w = bits();
      const Pair d = bits(5, Pattern::Ones);
      for (int round = 0; round < 2; ++round) {
        ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.findFirst(h(v)); }));
        ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.count(h(v)); }));
        ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.count(h(small)); }));
        ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.any(h(v)); }));
        ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.findFirst(h(small)); }));
      }
      // compare: equal, then a difference at the first 1 of v, then near the end.
      both([&](Backend& b, auto h) { b.copyBits(h(w), h(v)); });
      ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.compare(h(v), h(w)); }));
      for (std::uint64_t i : {n - 1, n / 3, below(n)}) {
        SCOPED_TRACE("flipped bit " + std::to_string(i));
        both([&](Backend& b, auto h) {
          b.copyBits(h(w), h(v));
          b.setBit(h(w), i, !b.getBit(h(v), i));
        });
        ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.compare(h(v), h(w)); }));
        ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.compare(h(w), h(v)); }));
        ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.count(h(w)); }));
      }
      // FRST queued twice with no read between (aliased, then into another value).
      both([&](Backend& b, auto h) {
        b.copyBits(h(w), h(v));
        b.firstOnly(h(d), h(v));
        b.firstOnly(h(w), h(w));
      });
      ASSERT_TRUE(same(d));
      ASSERT_TRUE(same(w));
      // STEP drains from the front; the last one may find nothing.
      for (int k = 0; k < 4; ++k) {
        ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.step(h(v)); }));
        ASSERT_TRUE(sameResult([&](Backend& b, auto h) { return b.count(h(v)); }));
      }
      ASSERT_TRUE(same(v));
      destroy(v);
      destroy(w);
      destroy(d);
    }
  }
  destroy(small);
}

// Two CUDA backends in one process, used at once from two threads: each has its own stream and
// its own reduction accumulators, so neither disturbs the other's results.
TEST_P(CudaDifferentialTest, TwoBackendsAtOnce) {
  if (!plainCuda()) GTEST_SKIP() << "one CUDA backend's own behaviour";
  constexpr std::uint64_t kBits = 10000000;
  constexpr int kRounds = 300;
  std::vector<std::uint64_t> first_bits;
  for (int t = 0; t < 2; ++t) first_bits.push_back(1000 + 4999999 * static_cast<std::uint64_t>(t));
  std::vector<std::string> failures(2);
  auto work = [&](int t) {
    try {
      auto gpu = makeCudaBackend();
      const Handle v = gpu->createBits();
      gpu->resizeBits(v, kBits);
      gpu->fill(v, true);
      // Bits [first, kBits) are 1.
      const Handle head = gpu->createBits();
      gpu->resizeBits(head, first_bits[t]);
      gpu->replace(v, 0, head);
      std::uint64_t expect_first = first_bits[t];
      for (int r = 0; r < kRounds && failures[t].empty(); ++r) {
        const std::uint64_t ones = kBits - expect_first;
        const auto c = gpu->count(v);
        const auto f = gpu->findFirst(v);
        const auto s = gpu->step(v);
        if (c != ones || f != static_cast<std::int64_t>(expect_first) || s != f) {
          failures[t] = "round " + std::to_string(r) + ": count " + std::to_string(c) +
                        " (expected " + std::to_string(ones) + "), find_first " +
                        std::to_string(f) + ", step " + std::to_string(s) + " (expected " +
                        std::to_string(expect_first) + ")";
        }
        ++expect_first;
      }
      gpu->destroy(v);
      gpu->destroy(head);
    } catch (const std::exception& e) {
      failures[t] = e.what();
    }
  };
  std::thread other(work, 1);
  work(0);
  other.join();
  EXPECT_EQ(failures[0], "");
  EXPECT_EQ(failures[1], "");
}

TEST_P(CudaDifferentialTest, OutOfMemoryIsABackendError) {
  if (!plainCuda()) GTEST_SKIP() << "one CUDA backend's own behaviour";
  const Handle h = gpu_->createBits();
  const std::uint64_t huge = std::uint64_t{1} << 50;  // 128 TiB
  // Within the memory limit (at most nine tenths of the GPU) the request is refused before the
  // device is asked...
  EXPECT_THROW(gpu_->resizeBits(h, huge), OutOfMemory);
  // ...and beyond it, the device's own failure is a BackendError.
  const std::uint64_t limit = memoryLimit();
  setMemoryLimit(~std::uint64_t{0} / 2);
  try {
    gpu_->resizeBits(h, huge);
    ADD_FAILURE() << "allocating 128 TiB succeeded";
  } catch (const BackendError& e) {
    EXPECT_NE(std::string(e.what()).find("GPU out of memory"), std::string::npos) << e.what();
  }
  setMemoryLimit(limit);
  // The backend stays usable.
  gpu_->resizeBits(h, 1000);
  gpu_->fill(h, true);
  EXPECT_EQ(gpu_->count(h), 1000u);
  gpu_->destroy(h);
}

// The native transitive closure (kernels/Closure.cu, a blocked Warshall) against the CPU
// backend's, on random digraphs of every size class around the 64-pivot steps and the 32-element
// lane chunks, from no arcs through about 2 arcs per vertex (a patchy closure) to dense. The
// closure is queued between other primitives with no read in between, and runs on tables whose
// scratch grows and shrinks.
TEST_P(CudaDifferentialTest, TransitiveClosure) {
  constexpr std::uint64_t kSizes[] = {1, 2, 63, 64, 65, 127, 128, 129, 300, 1000, 2049};
  std::uint64_t seed = 1;
  for (std::uint64_t n : kSizes) {
    for (double arcs_per_vertex : {0.0, 0.5, 1.0, 2.0, 4.0, 0.05 * static_cast<double>(n)}) {
      SCOPED_TRACE("n " + std::to_string(n) + ", arcs per vertex " +
                   std::to_string(arcs_per_vertex));
      std::mt19937_64 rng(seed++);
      const std::uint64_t wpc = wordsForBits(n);
      Words w(n * wpc, 0);
      const auto arcs = static_cast<std::uint64_t>(arcs_per_vertex * static_cast<double>(n));
      for (std::uint64_t a = 0; a < arcs; ++a) {
        const std::uint64_t i = rng() % n;
        const std::uint64_t j = rng() % n;
        w[j * wpc + i / 64] |= std::uint64_t{1} << (i % 64);
      }
      const Pair t = table();
      const Pair copy = table();
      cpu_->writeTable(t.cpu, n, n, w.data());
      gpu_->writeTable(t.gpu, n, n, w.data());
      both([&](Backend& b, auto h) {
        ASSERT_TRUE(b.nativeKernels()->transitiveClosure(h(t)));
        b.copyTable(h(copy), h(t));  // queued behind the closure
      });
      EXPECT_TRUE(sameTable(t));
      EXPECT_TRUE(sameTable(copy));
      destroy(t);
      destroy(copy);
    }
  }
}

// Tables wide enough for several elements per lane (n = 4200: 66 elements a row, 3 per lane) and
// for rows split into column chunks over several blocks (n = 8257: 130 elements, 2 chunks), at
// about 2 arcs per vertex. The CPU reference takes about a second at n = 8257.
TEST_P(CudaDifferentialTest, TransitiveClosureWideTables) {
  std::uint64_t seed = 100;
  for (std::uint64_t n : {4200u, 8257u}) {
    SCOPED_TRACE("n " + std::to_string(n));
    std::mt19937_64 rng(seed++);
    const std::uint64_t wpc = wordsForBits(n);
    Words w(n * wpc, 0);
    for (std::uint64_t a = 0; a < 2 * n; ++a) {
      const std::uint64_t i = rng() % n;
      const std::uint64_t j = rng() % n;
      w[j * wpc + i / 64] |= std::uint64_t{1} << (i % 64);
    }
    const Pair t = table();
    cpu_->writeTable(t.cpu, n, n, w.data());
    gpu_->writeTable(t.gpu, n, n, w.data());
    both([&](Backend& b, auto h) { ASSERT_TRUE(b.nativeKernels()->transitiveClosure(h(t))); });
    EXPECT_TRUE(sameTable(t));
    destroy(t);
  }
}

TEST_P(CudaDifferentialTest, TransitiveClosureSpecialCases) {
  // One cycle through every vertex in a shuffled order: all ones.
  for (std::uint64_t n : {65u, 130u, 1000u}) {
    SCOPED_TRACE("cycle of " + std::to_string(n));
    std::vector<std::uint64_t> order(n);
    for (std::uint64_t i = 0; i < n; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng_);
    const std::uint64_t wpc = wordsForBits(n);
    Words w(n * wpc, 0);
    for (std::uint64_t k = 0; k < n; ++k) {
      const std::uint64_t i = order[k];
      const std::uint64_t j = order[(k + 1) % n];
      w[j * wpc + i / 64] |= std::uint64_t{1} << (i % 64);  // arc i -> j
    }
    const Pair t = table();
    cpu_->writeTable(t.cpu, n, n, w.data());
    gpu_->writeTable(t.gpu, n, n, w.data());
    both([&](Backend& b, auto h) { ASSERT_TRUE(b.nativeKernels()->transitiveClosure(h(t))); });
    EXPECT_TRUE(sameTable(t));
    Words g;
    gpu_->readTable(t.gpu, g);
    std::uint64_t ones = 0;
    for (std::uint64_t x : g) ones += static_cast<std::uint64_t>(std::popcount(x));
    EXPECT_EQ(ones, n * n);
    destroy(t);
  }
  // A path backwards through the vertices (every arc goes against the pivot order): the closure
  // needs every step's snapshots to be right.
  for (std::uint64_t n : {64u, 129u, 700u}) {
    SCOPED_TRACE("backward path of " + std::to_string(n));
    const std::uint64_t wpc = wordsForBits(n);
    Words w(n * wpc, 0);
    for (std::uint64_t i = 1; i < n; ++i) w[(i - 1) * wpc + i / 64] |= std::uint64_t{1} << (i % 64);
    const Pair t = table();
    cpu_->writeTable(t.cpu, n, n, w.data());
    gpu_->writeTable(t.gpu, n, n, w.data());
    both([&](Backend& b, auto h) { ASSERT_TRUE(b.nativeKernels()->transitiveClosure(h(t))); });
    EXPECT_TRUE(sameTable(t));
    destroy(t);
  }
  // Not square: refused, untouched. Empty: nothing to do.
  const Pair r = table(65, 64);
  both([&](Backend& b, auto h) { EXPECT_FALSE(b.nativeKernels()->transitiveClosure(h(r))); });
  EXPECT_TRUE(sameTable(r));
  const Pair e = table();
  both([&](Backend& b, auto h) { EXPECT_TRUE(b.nativeKernels()->transitiveClosure(h(e))); });
  EXPECT_TRUE(sameTable(e));
}

// ---- unit assoc's field natives: extremeRows (MINROW, MAXROW) and addField (ADDWF, SUBWF) ----
// Against the CPU backend and, for fields of at most 64 bits, against the numbers themselves: the
// field of each row read on the host as an unsigned integer (its first column most significant).

// Field [first, first + len) of row i of a column-major table of `rows` rows, as a number.
std::uint64_t fieldValue(const Words& t, std::uint64_t rows, std::uint64_t first, std::uint64_t len,
                         std::uint64_t i) {
  const std::uint64_t wpc = wordsForBits(rows);
  std::uint64_t v = 0;
  for (std::uint64_t j = first; j < first + len; ++j)
    v = (v << 1) | ((t[j * wpc + i / 64] >> (i % 64)) & 1);
  return v;
}

bool bitOf(const Words& w, std::uint64_t i) {
  return (w[i / 64] >> (i % 64)) & 1;
}

// The rows of x whose field is least (greatest) among the rows of x; len <= 64.
Words extremeOracle(const Words& t, std::uint64_t rows, const Words& x, std::uint64_t first,
                    std::uint64_t len, bool max) {
  Words z(wordsForBits(rows), 0);
  bool found = false;
  std::uint64_t best = 0;
  for (std::uint64_t i = 0; i < rows; ++i) {
    if (!bitOf(x, i)) continue;
    const std::uint64_t v = fieldValue(t, rows, first, len, i);
    if (!found || (max ? v > best : v < best)) best = v;
    found = true;
  }
  for (std::uint64_t i = 0; i < rows; ++i)
    if (bitOf(x, i) && fieldValue(t, rows, first, len, i) == best)
      z[i / 64] |= std::uint64_t{1} << (i % 64);
  return z;
}

// The table after field [first, first + len) += (or -=) the number `v` in the rows of x; len <= 64.
Words addFieldOracle(Words t, std::uint64_t rows, const Words& x, std::uint64_t first,
                     std::uint64_t len, std::uint64_t v, bool subtract) {
  const std::uint64_t wpc = wordsForBits(rows);
  const std::uint64_t mask = len == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << len) - 1;
  for (std::uint64_t i = 0; i < rows; ++i) {
    if (!bitOf(x, i)) continue;
    const std::uint64_t f = fieldValue(t, rows, first, len, i);
    const std::uint64_t r = (subtract ? f - v : f + v) & mask;
    for (std::uint64_t q = 0; q < len; ++q) {  // q = 0: the most significant column
      std::uint64_t& e = t[(first + q) * wpc + i / 64];
      const std::uint64_t b = std::uint64_t{1} << (i % 64);
      e = ((r >> (len - 1 - q)) & 1) ? (e | b) : (e & ~b);
    }
  }
  return t;
}

// A word of len bits (bit 0 most significant) holding the number v (len <= 64).
Words wordOf(std::uint64_t v, std::uint64_t len) {
  Words w(wordsForBits(len), 0);
  for (std::uint64_t q = 0; q < len; ++q)
    if ((v >> (len - 1 - q)) & 1) w[q / 64] |= std::uint64_t{1} << (q % 64);
  return w;
}

// The number in a word of len <= 64 bits (bit 0 most significant).
std::uint64_t wordValue(const Words& w, std::uint64_t len) {
  std::uint64_t v = 0;
  for (std::uint64_t q = 0; q < len; ++q) v = (v << 1) | (bitOf(w, q) ? 1 : 0);
  return v;
}

// Rows drawn from `distinct` random rows (many ties when distinct is small), column-major.
Words tiedTable(std::mt19937_64& rng, std::uint64_t rows, std::uint64_t cols,
                std::uint64_t distinct) {
  std::vector<Words> protos(distinct, Words(wordsForBits(cols), 0));
  for (Words& p : protos)
    for (std::uint64_t j = 0; j < cols; ++j)
      if (rng() & 1) p[j / 64] |= std::uint64_t{1} << (j % 64);
  const std::uint64_t wpc = wordsForBits(rows);
  Words t(cols * wpc, 0);
  for (std::uint64_t i = 0; i < rows; ++i) {
    const Words& p = protos[rng() % distinct];
    for (std::uint64_t j = 0; j < cols; ++j)
      if (bitOf(p, j)) t[j * wpc + i / 64] |= std::uint64_t{1} << (i % 64);
  }
  return t;
}

// Row counts: every n mod 64 class and the one-block sizes (1..130, 100,000 rows: 1563 elements a
// column), the last one-block size (8192 elements) and beyond it, where every column is a launch.
std::vector<std::uint64_t> fieldRows() {
  std::vector<std::uint64_t> v;
  if (std::getenv("STAR_DIFF_QUICK")) return {1, 63, 64, 65, 130, 100000, 524289};
  for (std::uint64_t n = 1; n <= 130; ++n) v.push_back(n);
  for (std::uint64_t n : {1024u * 64, 1025u * 64, 100000u, 524288u, 524289u, 1000000u})
    v.push_back(n);
  return v;
}

// [first, first + len) choices for a table of `cols` columns: the whole row, the first and the
// last column, an empty field, and random ones.
std::vector<std::pair<std::uint64_t, std::uint64_t>> fieldsOf(std::mt19937_64& rng,
                                                              std::uint64_t cols) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> f = {
      {0, cols}, {0, 1}, {cols - 1, 1}, {rng() % cols, 0}};
  for (int k = 0; k < 2; ++k) {
    const std::uint64_t first = rng() % cols;
    f.push_back({first, 1 + rng() % (cols - first)});
  }
  return f;
}

TEST_P(CudaDifferentialTest, ExtremeRows) {
  const Pair z = bits();
  for (std::uint64_t rows : fieldRows()) {
    // Wide tables (fields beyond 64 bits) where they are cheap; many ties in every other table.
    const std::uint64_t cols = rows <= 130 ? 1 + below(rows % 3 == 0 ? 140 : 70) : 3 + below(30);
    const bool ties = rows % 2 == 0;
    SCOPED_TRACE("table " + std::to_string(rows) + "x" + std::to_string(cols) +
                 (ties ? ", ties" : ""));
    Pair tt;
    if (ties) {
      tt = table();
      const Words tw = tiedTable(rng_, rows, cols, 1 + below(4));
      cpu_->writeTable(tt.cpu, rows, cols, tw.data());
      gpu_->writeTable(tt.gpu, rows, cols, tw.data());
    } else {
      tt = table(rows, cols);
    }
    Words host;
    cpu_->readTable(tt.cpu, host);
    for (Pattern px : {Pattern::Ones, Pattern::Half, Pattern::Zero, Pattern::Sparse}) {
      const Pair x = bits(rows, px);
      Words xw;
      cpu_->readBits(x.cpu, xw);
      for (auto [first, len] : fieldsOf(rng_, cols)) {
        for (bool max : {false, true}) {
          SCOPED_TRACE("x pattern " + std::to_string(static_cast<int>(px)) + ", field " +
                       std::to_string(first) + "+" + std::to_string(len) +
                       (max ? ", max" : ", min"));
          both([&](Backend& b, auto h) {
            ASSERT_TRUE(b.nativeKernels()->extremeRows(h(tt), h(x), first, len, max, h(z)));
          });
          ASSERT_TRUE(same(z));
          if (len <= 64 && rows <= 100000) {
            Words g;
            gpu_->readBits(z.gpu, g);
            ASSERT_TRUE(sameWords(extremeOracle(host, rows, xw, first, len, max), g));
          }
        }
      }
      destroy(x);
    }
    destroy(tt);
  }
  destroy(z);
}

TEST_P(CudaDifferentialTest, ExtremeRowsSpecialCases) {
  for (std::uint64_t rows : {1u, 64u, 77u, 100000u, 600000u}) {
    SCOPED_TRACE("rows " + std::to_string(rows));
    const std::uint64_t cols = 12;
    // Every row equal: the whole of x is extreme. Columns alternate all 0 and all 1.
    Words sameRows(cols * wordsForBits(rows), 0);
    const std::uint64_t wpc = wordsForBits(rows);
    for (std::uint64_t j = 1; j < cols; j += 2)
      for (std::uint64_t e = 0; e < wpc; ++e) sameRows[j * wpc + e] = ~std::uint64_t{0};
    for (std::uint64_t j = 0; j < cols; ++j) sameRows[j * wpc + wpc - 1] &= tailMask(rows);
    const Pair t = table();
    cpu_->writeTable(t.cpu, rows, cols, sameRows.data());
    gpu_->writeTable(t.gpu, rows, cols, sameRows.data());
    const Pair x = bits(rows, Pattern::Half);
    const Pair z = bits(3, Pattern::Ones);  // a stale shape: z takes rows(t)
    Words xw;
    gpu_->readBits(x.gpu, xw);
    for (bool max : {false, true}) {
      both([&](Backend& b, auto h) {
        ASSERT_TRUE(b.nativeKernels()->extremeRows(h(t), h(x), 0, cols, max, h(z)));
      });
      ASSERT_TRUE(same(z));
      Words g;
      gpu_->readBits(z.gpu, g);
      EXPECT_TRUE(sameWords(xw, g)) << "all rows equal: z must be x";
    }
    // An empty x gives an empty z.
    const Pair none = bits(rows, Pattern::Zero);
    both([&](Backend& b, auto h) {
      ASSERT_TRUE(b.nativeKernels()->extremeRows(h(t), h(none), 2, 5, true, h(z)));
    });
    ASSERT_TRUE(same(z));
    EXPECT_EQ(gpu_->count(z.gpu), 0u);
    // x aliasing z, several searches queued before a read: each narrows the last one's result
    // (MAXROW of a field, then MINROW of another among those rows).
    const Pair r = table(rows, cols);
    const Pair y = bits(rows, Pattern::Ones);
    both([&](Backend& b, auto h) {
      ASSERT_TRUE(b.nativeKernels()->extremeRows(h(r), h(y), 0, 4, true, h(y)));
      ASSERT_TRUE(b.nativeKernels()->extremeRows(h(r), h(y), 4, 8, false, h(y)));
      ASSERT_TRUE(b.nativeKernels()->extremeRows(h(r), h(y), 11, 1, true, h(y)));
    });
    ASSERT_TRUE(same(y));
    EXPECT_GT(gpu_->count(y.gpu), 0u);
    for (Pair p : {t, x, z, none, r, y}) destroy(p);
  }
  // A table of no rows: z becomes empty.
  const Pair t0 = table();
  const Pair x0 = bits();
  const Pair z0 = bits(10, Pattern::Ones);
  both([&](Backend& b, auto h) {
    b.resizeTable(h(t0), 0, 4);
    ASSERT_TRUE(b.nativeKernels()->extremeRows(h(t0), h(x0), 0, 4, false, h(z0)));
  });
  ASSERT_TRUE(same(z0));
  EXPECT_EQ(gpu_->length(z0.gpu), 0u);
}

// A table whose key field [first, first + len) takes one of `distinct` values in every row while
// the other columns are random: many equal keys with different rows, so that a sort that is not
// stable (across the devices too) shows.
Words tiedKeys(std::mt19937_64& rng, std::uint64_t rows, std::uint64_t cols, std::uint64_t first,
               std::uint64_t len, std::uint64_t distinct) {
  const std::uint64_t wpc = wordsForBits(rows);
  Words t(cols * wpc, 0);
  for (auto& w : t) w = rng();
  std::vector<std::uint64_t> keys(distinct);
  for (auto& k : keys) k = rng();
  for (std::uint64_t i = 0; i < rows; ++i) {
    const std::uint64_t k = keys[rng() % distinct];
    for (std::uint64_t j = 0; j < len; ++j) {
      const std::uint64_t m = std::uint64_t{1} << (i % 64);
      std::uint64_t& w = t[(first + j) * wpc + i / 64];
      w = (k >> (j % 64)) & 1 ? w | m : w & ~m;
    }
  }
  if (rows % 64 != 0)
    for (std::uint64_t j = 0; j < cols; ++j) t[j * wpc + wpc - 1] &= tailMask(rows);
  return t;
}

// SORT (unit sort) against the CPU backend's: every key kind, widths 1..64, payloads that travel
// in a 32- or 64-bit record value and beyond them (more than 64 other columns), full, partial
// and empty control slices, many equal keys; the sharded subjects split the table at every word,
// so the sorted rows cross the devices (through NCCL for sharded_cuda).
TEST_P(CudaDifferentialTest, SortRows) {
  const bool quick = std::getenv("STAR_DIFF_QUICK") != nullptr;
  const std::vector<std::uint64_t> sizes =
      quick ? std::vector<std::uint64_t>{1, 65, 2049, 100000}
            : std::vector<std::uint64_t>{1,      63,    64, 65, 130, 1000, 2049, 64 * 1024 + 1,
                                         100000, 300000};
  struct Shape {
    std::uint64_t len, others;
    KeyKind kind;
  };
  const Shape shapes[] = {{1, 0, KeyKind::Unsigned},   {7, 5, KeyKind::Signed},
                          {32, 0, KeyKind::Unsigned},  {32, 32, KeyKind::Float},
                          {33, 31, KeyKind::Signed},   {64, 40, KeyKind::Float},
                          {64, 64, KeyKind::Unsigned}, {20, 70, KeyKind::Unsigned}};
  for (std::uint64_t rows : sizes) {
    for (const Shape& shape : shapes) {
      const std::uint64_t cols = shape.len + shape.others;
      const std::uint64_t first = below(shape.others + 1);
      const std::uint64_t distinct = 1 + below(rows % 2 == 0 ? 3 : 50);
      const Words tw = tiedKeys(rng_, rows, cols, first, shape.len, distinct);
      // (Single and Last: every marked row in one device's block, so that some blocks receive
      // all the records and others none.)
      for (Pattern px : {Pattern::Ones, Pattern::Half, Pattern::Zero, Pattern::Sparse,
                         Pattern::Single, Pattern::Last}) {
        const bool descending = below(2) == 1;
        SCOPED_TRACE("table " + std::to_string(rows) + "x" + std::to_string(cols) + ", key " +
                     std::to_string(first) + "+" + std::to_string(shape.len) + " kind " +
                     std::to_string(static_cast<int>(shape.kind)) +
                     (descending ? " descending" : "") + ", x pattern " +
                     std::to_string(static_cast<int>(px)) + ", " + std::to_string(distinct) +
                     " keys");
        const Pair t = table();
        cpu_->writeTable(t.cpu, rows, cols, tw.data());
        gpu_->writeTable(t.gpu, rows, cols, tw.data());
        const Pair x = bits(rows, px);
        const std::uint64_t across = natives_ ? natives_->partsRun() : 0;
        both([&](Backend& b, auto h) {
          ASSERT_TRUE(
              b.nativeKernels()->sortRows(h(t), h(x), first, shape.len, shape.kind, descending));
        });
        ASSERT_TRUE(sameTable(t));
        // Across the GPUs (NCCL) wherever the table is split and its record fits, never on one.
        if (natives_ && rows > 64 && shape.others <= 64) {
          EXPECT_EQ(natives_->partsRun(), across + 1) << "the sort did not run across the GPUs";
        }
        destroy(x);
        destroy(t);
      }
    }
  }
}

TEST_P(CudaDifferentialTest, AddField) {
  for (std::uint64_t rows : fieldRows()) {
    const std::uint64_t cols = rows <= 130 ? 1 + below(rows % 3 == 0 ? 140 : 70) : 3 + below(30);
    SCOPED_TRACE("table " + std::to_string(rows) + "x" + std::to_string(cols));
    const Pair t = table(rows, cols);
    for (Pattern px : {Pattern::Ones, Pattern::Half, Pattern::Zero, Pattern::Single}) {
      const Pair x = bits(rows, px);
      Words xw;
      cpu_->readBits(x.cpu, xw);
      for (auto [first, len] : fieldsOf(rng_, cols)) {
        if (len == 0) continue;  // the VM runs the body for an empty v
        for (bool subtract : {false, true}) {
          // All ones and a lone least significant 1 carry (borrow) through the whole field.
          const int kind = static_cast<int>(below(3));
          const Pattern pv = kind == 0 ? Pattern::Ones : kind == 1 ? Pattern::Last : Pattern::Half;
          SCOPED_TRACE("x pattern " + std::to_string(static_cast<int>(px)) + ", field " +
                       std::to_string(first) + "+" + std::to_string(len) +
                       (subtract ? ", subtract" : ", add") + ", v pattern " + std::to_string(kind));
          const Pair v = bits(len, pv);
          Words before;
          cpu_->readTable(t.cpu, before);
          both([&](Backend& b, auto h) {
            ASSERT_TRUE(b.nativeKernels()->addField(h(t), h(x), first, h(v), subtract));
          });
          ASSERT_TRUE(sameTable(t));
          if (len <= 64 && rows <= 100000) {
            Words vw;
            cpu_->readBits(v.cpu, vw);
            const std::uint64_t vn = wordValue(vw, len);
            Words g;
            gpu_->readTable(t.gpu, g);
            ASSERT_TRUE(sameWords(addFieldOracle(before, rows, xw, first, len, vn, subtract), g));
          }
          destroy(v);
        }
      }
      destroy(x);
    }
    destroy(t);
  }
}

TEST_P(CudaDifferentialTest, AddFieldSpecialCases) {
  for (std::uint64_t rows : {1u, 65u, 100000u, 600000u}) {
    SCOPED_TRACE("rows " + std::to_string(rows));
    const std::uint64_t cols = 150;  // fields of more than two elements of v
    const Pair t = table(rows, cols);
    Words original;
    cpu_->readTable(t.cpu, original);
    const Pair x = bits(rows, Pattern::Half);
    const Pair none = bits(rows, Pattern::Zero);
    const Pair v = bits(130, Pattern::Half);
    const Pair one = bits();
    write(one, 7, wordOf(1, 7));
    // Queued without a read: add, add, subtract twice gives the table back; an empty x changes
    // nothing; a field at the very end of the row.
    both([&](Backend& b, auto h) {
      ASSERT_TRUE(b.nativeKernels()->addField(h(t), h(x), 20, h(v), false));
      ASSERT_TRUE(b.nativeKernels()->addField(h(t), h(x), 20, h(v), false));
      ASSERT_TRUE(b.nativeKernels()->addField(h(t), h(none), 0, h(v), true));
      ASSERT_TRUE(b.nativeKernels()->addField(h(t), h(x), cols - 7, h(one), true));
    });
    ASSERT_TRUE(sameTable(t));
    both([&](Backend& b, auto h) {
      ASSERT_TRUE(b.nativeKernels()->addField(h(t), h(x), 20, h(v), true));
      ASSERT_TRUE(b.nativeKernels()->addField(h(t), h(x), cols - 7, h(one), false));
      ASSERT_TRUE(b.nativeKernels()->addField(h(t), h(x), 20, h(v), true));
    });
    ASSERT_TRUE(sameTable(t));
    Words g;
    gpu_->readTable(t.gpu, g);
    EXPECT_TRUE(sameWords(original, g)) << "adding and subtracting v must give the table back";
    // The extreme search over a field the addition just changed, queued behind it.
    const Pair z = bits();
    both([&](Backend& b, auto h) {
      ASSERT_TRUE(b.nativeKernels()->addField(h(t), h(x), 0, h(v), false));
      ASSERT_TRUE(b.nativeKernels()->extremeRows(h(t), h(x), 0, 130, true, h(z)));
      ASSERT_TRUE(b.nativeKernels()->addField(h(t), h(z), 0, h(one), true));
    });
    ASSERT_TRUE(same(z));
    ASSERT_TRUE(sameTable(t));
    for (Pair p : {t, x, none, v, one, z}) destroy(p);
  }
}

INSTANTIATE_TEST_SUITE_P(Subjects, CudaDifferentialTest, ::testing::ValuesIn(kSubjects),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param);
                         });

}  // namespace
// makeCudaBackend(g) leaves the calling thread's current device as it found it, and a backend's
// makeCurrent() selects its own device: the sharded backend and the benchmarks build backends on
// every GPU and rely on both. Needs two GPUs.
TEST(CudaBackendDevices, MakingABackendKeepsTheCurrentDevice) {
  if (cudaDeviceCount() < 2)
    GTEST_SKIP() << "needs two GPUs; this machine has " << cudaDeviceCount();
  ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
  std::unique_ptr<Backend> zero = makeCudaBackend(0);
  int current = -1;
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(current, 1);
  zero->makeCurrent();
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(current, 0);
  std::unique_ptr<Backend> one = makeCudaBackend(1);
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(current, 0);
  // Each works on its own device, whichever is current when it is made.
  for (Backend* b : {zero.get(), one.get()}) {
    b->makeCurrent();
    const Handle h = b->createBits();
    const std::vector<std::uint64_t> w{0x5ull};
    b->writeBits(h, 3, w.data());
    EXPECT_EQ(b->count(h), 2u);
    b->destroy(h);
  }
}

}  // namespace star
