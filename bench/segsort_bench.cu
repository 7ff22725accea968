// Many short sorts (the segmented rank sort behind SEGSORT) against CUB in the same run, on the
// three cases of the peer figures in bench/RESULTS.md: 200,000 arrays of 30..120 keys, 100,000 of
// 100..256, 500,000 of 1..32; float keys with many duplicates, value = index. Star's array entry
// point (segmentedSortPairs) against cub::DeviceSegmentedSort::SortPairs and StableSortPairs and
// cub::DeviceSegmentedRadixSort::SortPairs, all timed with CUDA events on one stream, medians of
// --runs runs after a warm-up. Star's result must equal CUB's stable one. The first case is also
// timed through the table path: SEGSORT of a 64-column table (key in columns 1..32, index in
// 33..64, a group per array, all rows marked), by sortTableRows with events and by
// Backend::segsortRows + synchronize() with the host clock. Prints Markdown rows.
//   usage: segsort_bench [--runs N]
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/SortBenchUtil.cuh"
#include "runtime-cuda/CudaBackend.h"
#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/kernels/RowSort.h"
#include "runtime-cuda/kernels/SegmentedSort.h"
#include "vm/backend/NativeKernels.h"

using namespace star;
using namespace star::bench;

namespace {

struct Case {
  std::uint64_t arrays, lo, hi;
  const char* target;  // the goal for Star (bench/RESULTS.md, peer figures)
};

template <class Fn>
double timeCub(cudaStream_t stream, int runs, Fn&& fn, const char* what) {
  std::size_t bytes = 0;
  cudaOrDie(fn(nullptr, bytes), what);
  DeviceBuffer<char> temp(bytes);
  return medianMs(
      stream, runs, [] {}, [&] { cudaOrDie(fn(temp.get(), bytes), what); });
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 9;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: %s [--runs N]\n", argv[0]);
      return 2;
    }
  }
  std::string why;
  if (!cudaBackendAvailable(&why)) {
    std::fprintf(stderr, "no CUDA device (%s): nothing to measure\n", why.c_str());
    return 0;
  }
  std::unique_ptr<Backend> backend = makeCudaBackend();
  star::cuda::DeviceContext ctx;
  const cudaStream_t stream = ctx.stream();

  const Case cases[] = {{200000, 30, 120, "<= 0.5 ms"},
                        {100000, 100, 256, "<= 1.4 ms"},
                        {500000, 1, 32, ">= 1.2x CUB"}};
  std::printf("Many short sorts, float keys with duplicates, value = index; median of %d runs.\n",
              runs);
  std::printf("GPU: %s.\n\n", backend->device().c_str());
  std::printf(
      "| arrays | keys | Star rank sort | CUB DeviceSegmentedSort::SortPairs | ::StableSortPairs "
      "| CUB DeviceSegmentedRadixSort | best CUB / Star | target | Star = CUB stable |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---|:---:|\n");
  bool allEqual = true;
  std::string tableRow;
  bool first = true;
  for (const Case& c : cases) {
    std::mt19937_64 rng(c.arrays + c.lo);
    std::vector<std::uint32_t> offsets{0};
    for (std::uint64_t s = 0; s < c.arrays; ++s) {
      offsets.push_back(offsets.back() +
                        static_cast<std::uint32_t>(c.lo + rng() % (c.hi - c.lo + 1)));
    }
    const std::uint64_t n = offsets.back();
    std::vector<float> hostKeys(n);
    std::vector<std::uint32_t> hostValues(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      hostKeys[i] = static_cast<float>(rng() % 2048) * 0.125f - 100.0f;  // duplicates
      hostValues[i] = static_cast<std::uint32_t>(i);
    }
    DeviceBuffer<float> keys(n), keysStar(n), keysStable(n), keysCub(n), keysRadix(n);
    DeviceBuffer<std::uint32_t> values(n), valuesStar(n), valuesStable(n), valuesCub(n),
        valuesRadix(n), offs(offsets.size());
    keys.upload(hostKeys);
    values.upload(hostValues);
    offs.upload(offsets);
    const auto segs = static_cast<std::int64_t>(c.arrays);
    const auto items = static_cast<std::int64_t>(n);

    const double starMs = medianMs(
        stream, runs, [] {},
        [&] {
          star::cuda::segmentedSortPairs<float, std::uint32_t>(
              ctx, keys.get(), keysStar.get(), values.get(), valuesStar.get(), n, c.arrays,
              offs.get(), nullptr, c.hi);
        });
    const double unstableMs = timeCub(
        stream, runs,
        [&](void* t, std::size_t& b) {
          return cub::DeviceSegmentedSort::SortPairs(t, b, keys.get(), keysCub.get(), values.get(),
                                                     valuesCub.get(), items, segs, offs.get(),
                                                     offs.get() + 1, stream);
        },
        "DeviceSegmentedSort::SortPairs");
    const double stableMs = timeCub(
        stream, runs,
        [&](void* t, std::size_t& b) {
          return cub::DeviceSegmentedSort::StableSortPairs(
              t, b, keys.get(), keysStable.get(), values.get(), valuesStable.get(), items, segs,
              offs.get(), offs.get() + 1, stream);
        },
        "DeviceSegmentedSort::StableSortPairs");
    const double radixMs = timeCub(
        stream, runs,
        [&](void* t, std::size_t& b) {
          return cub::DeviceSegmentedRadixSort::SortPairs(
              t, b, keys.get(), keysRadix.get(), values.get(), valuesRadix.get(), items, segs,
              offs.get(), offs.get() + 1, 0, 32, stream);
        },
        "DeviceSegmentedRadixSort::SortPairs");
    ctx.synchronize();
    const std::vector<float> stableKeys = keysStable.download();
    const std::vector<std::uint32_t> stableValues = valuesStable.download();
    const bool equal =
        sameBits(keysStar.download(), stableKeys) && valuesStar.download() == stableValues;
    allEqual = allEqual && equal;
    const double bestCub = std::min({unstableMs, stableMs, radixMs});
    std::printf(
        "| %llu of %llu..%llu | %.1f M | %.3f ms | %.3f ms | %.3f ms | %.3f ms | %.2fx | %s "
        "| %s |\n",
        static_cast<unsigned long long>(c.arrays), static_cast<unsigned long long>(c.lo),
        static_cast<unsigned long long>(c.hi), static_cast<double>(n) / 1e6, starMs, unstableMs,
        stableMs, radixMs, bestCub / starMs, c.target, equal ? "yes" : "NO");
    std::fflush(stdout);

    if (!first) continue;
    first = false;
    // The table path: the same sort as SEGSORT of a 64-column table, groups = arrays.
    const std::uint64_t words = (n + 63) / 64;
    DeviceBuffer<std::uint64_t> pristine(64 * words), table(64 * words), x(words), heads(words);
    pairsToTable<<<gridFor(64 * words), 256, 0, stream>>>(
        reinterpret_cast<const std::uint32_t*>(keys.get()), values.get(), n, words, 64,
        pristine.get());
    cudaOrDie(cudaGetLastError(), "pairsToTable");
    std::vector<std::uint64_t> ones(words, ~std::uint64_t{0}), starts(words, 0);
    if (n % 64 != 0) ones.back() = (std::uint64_t{1} << (n % 64)) - 1;
    for (std::uint64_t s = 0; s < c.arrays; ++s) {
      starts[offsets[s] / 64] |= std::uint64_t{1} << (offsets[s] % 64);
    }
    x.upload(ones);
    heads.upload(starts);
    const double tableMs = medianMs(
        stream, runs,
        [&] {
          cudaOrDie(cudaMemcpyAsync(table.get(), pristine.get(), table.bytes(),
                                    cudaMemcpyDeviceToDevice, stream),
                    "restore");
        },
        [&] {
          star::cuda::sortTableRows(ctx, table.get(), n, 64, x.get(), heads.get(), 0, 32,
                                      KeyKind::Float, false);
        });
    ctx.synchronize();
    const unsigned long long bad = tableMismatches(
        table.get(), n, 64, reinterpret_cast<const std::uint32_t*>(keysStable.get()),
        valuesStable.get());
    const std::vector<std::uint64_t> host = pristine.download();
    const Handle th = backend->createTable();
    const Handle xh = backend->createBits();
    const Handle hh = backend->createBits();
    backend->writeBits(xh, n, ones.data());
    backend->writeBits(hh, n, starts.data());
    std::vector<double> wall;
    for (int r = 0; r <= runs; ++r) {
      backend->writeTable(th, n, 64, host.data());
      backend->synchronize();
      const auto start = std::chrono::steady_clock::now();
      backend->nativeKernels()->segsortRows(th, xh, hh, 0, 32, KeyKind::Float, false);
      backend->synchronize();
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      if (r > 0) wall.push_back(ms);
    }
    std::vector<std::uint64_t> viaBackend;
    backend->readTable(th, viaBackend);
    backend->destroy(hh);
    backend->destroy(xh);
    backend->destroy(th);
    const bool tableEqual = bad == 0 && viaBackend == table.download();
    allEqual = allEqual && tableEqual;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "| SEGSORT of a %llu x 64 table, %llu groups of %llu..%llu | %.3f ms | %.3f ms "
                  "| %.3f ms | %s |\n",
                  static_cast<unsigned long long>(n), static_cast<unsigned long long>(c.arrays),
                  static_cast<unsigned long long>(c.lo), static_cast<unsigned long long>(c.hi),
                  tableMs, medianOf(wall), stableMs, tableEqual ? "yes" : "NO");
    tableRow = buf;
    if (bad != 0) std::fprintf(stderr, "table path: %llu rows differ from CUB\n", bad);
  }
  std::printf(
      "\n| table path | Star (sort_table_rows, events) | Star (Backend::segsort_rows + sync, "
      "wall) | CUB StableSortPairs on the arrays | Star = CUB stable |\n");
  std::printf("|---|---:|---:|---:|:---:|\n%s", tableRow.c_str());
  if (!allEqual) {
    std::fprintf(stderr, "Star's segmented sort differs from CUB's stable sort\n");
    return 1;
  }
  return 0;
}
