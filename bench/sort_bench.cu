// SORT (unit sort) on the GPU against CUB in the same run: a table of 2^24 and 2^27 rows sorted
// by a 32-bit unsigned key, all rows marked, as a 32-column table (the key only) and a 64-column
// one (key + a 32-bit payload), against cub::DeviceRadixSort::SortPairs (u32 key, u32 value) on
// the same keys and payloads (and SortKeys, the peer of the key-only table). Star is timed twice:
// sortTableRows (what CudaBackend::sortRows runs) with CUDA events on its stream, and
// Backend::sortRows + synchronize() with the host clock (what the VM pays, the final wait
// included). Medians of --runs timed runs after a warm-up; the table is restored before each
// run, untimed. Star's table must hold CUB's sorted pairs (checked on the GPU), and the Backend
// run's table must equal the kernel run's. Prints Markdown rows.
// --multi: one GPU against every GPU of the machine (the sharded backend of `star run
// --devices=all`, its NCCL sort: runtime-cuda/kernels/SortShard.h), the same table (default 2^30
// rows, 32 and 64 columns) sorted through Backend::sortRows + synchronize() on each, wall clock,
// the table rewritten before each run (untimed); the two results must be equal.
//   usage: sort_bench [--log2-rows 24,27] [--runs N] [--multi]
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/MultiGpuBench.h"
#include "bench/SortBenchUtil.cuh"
#include "runtime-cuda/CudaBackend.h"
#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/kernels/RowSort.h"
#include "vm/backend/NativeKernels.h"

using namespace star;
using namespace star::bench;

namespace {

std::vector<int> parseList(const char* s) {
  std::vector<int> v;
  for (const char* p = s; *p != '\0';) {
    v.push_back(std::atoi(p));
    while (*p != '\0' && *p != ',') ++p;
    if (*p == ',') ++p;
  }
  return v;
}

template <class Fn>
void cubOrDie(Fn&& fn, DeviceBuffer<char>*& temp, std::size_t& bytes, const char* what) {
  cudaOrDie(fn(nullptr, bytes), what);
  temp = new DeviceBuffer<char>(bytes);
}

// The median wall time of Backend::sortRows + synchronize() on `b`, the table rewritten from
// `host` before each run; `out` receives the sorted table.
double timeBackendSort(Backend& b, const std::vector<std::uint64_t>& host, std::uint64_t rows,
                       unsigned cols, int runs, std::vector<std::uint64_t>& out) {
  const std::uint64_t words = (rows + 63) / 64;
  const std::vector<std::uint64_t> ones(words, ~std::uint64_t{0});
  b.makeCurrent();  // (the other backend may have left another GPU current)
  const Handle th = b.createTable();
  const Handle xh = b.createBits();
  b.writeBits(xh, rows, ones.data());
  std::vector<double> wall;
  for (int r = 0; r <= runs; ++r) {
    b.writeTable(th, rows, cols, host.data());
    b.synchronize();
    const auto start = std::chrono::steady_clock::now();
    if (!b.nativeKernels()->sortRows(th, xh, 0, 32, KeyKind::Unsigned, false)) {
      std::fprintf(stderr, "sortRows declined\n");
      std::exit(1);
    }
    b.synchronize();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (r > 0) wall.push_back(ms);
  }
  b.readTable(th, out);
  b.destroy(xh);
  b.destroy(th);
  return medianOf(wall);
}

int multiGpu(const std::vector<int>& log2Rows, int runs) {
  std::optional<OneAndAllGpus> gpus = oneAndAllGpus();
  if (!gpus) return 0;
  const int devices = gpus->devices;
  Backend* one = gpus->one.get();
  Backend* many = gpus->all.get();
  std::printf(
      "SORT of all rows by a 32-bit unsigned key, Backend::sortRows + synchronize(), "
      "median of %d runs.\nGPUs: %d x %s.\n\n",
      runs, devices, one->device().c_str());
  std::printf(
      "| rows | columns | 1 GPU | %d GPUs (NCCL) | speed-up | results |\n"
      "|---:|---:|---:|---:|---:|:---:|\n",
      devices);
  for (int lg : log2Rows) {
    const std::uint64_t rows = std::uint64_t{1} << lg;
    const std::uint64_t words = (rows + 63) / 64;
    for (unsigned cols : {32u, 64u}) {
      std::vector<std::uint64_t> host;
      one->makeCurrent();
      {
        DeviceBuffer<std::uint32_t> keys(rows), values(rows);
        DeviceBuffer<std::uint64_t> table(cols * words);
        randomPairs<<<gridFor(rows), 256>>>(keys.get(), values.get(), rows, lg);
        pairsToTable<<<gridFor(cols * words), 256>>>(keys.get(), values.get(), rows, words, cols,
                                                     table.get());
        cudaOrDie(cudaGetLastError(), "pairsToTable");
        host = table.download();
      }
      std::vector<std::uint64_t> a, b;
      const double oneMs = timeBackendSort(*one, host, rows, cols, runs, a);
      const double manyMs = timeBackendSort(*many, host, rows, cols, runs, b);
      const bool equal = a == b;
      std::printf("| 2^%d | %u | %.1f ms | %.1f ms | %.2fx | %s |\n", lg, cols, oneMs, manyMs,
                  oneMs / manyMs, equal ? "equal" : "DIFFER");
      std::fflush(stdout);
      if (!equal) return 1;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> log2Rows = {24, 27};
  int runs = 9;
  bool multi = false, rowsGiven = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--log2-rows") == 0 && i + 1 < argc) {
      log2Rows = parseList(argv[++i]);
      rowsGiven = true;
    } else if (std::strcmp(argv[i], "--multi") == 0) {
      multi = true;
    } else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: %s [--log2-rows 24,27] [--runs N] [--multi]\n", argv[0]);
      return 2;
    }
  }
  std::string why;
  if (!cudaBackendAvailable(&why)) {
    std::fprintf(stderr, "no CUDA device (%s): nothing to measure\n", why.c_str());
    return 0;
  }
  if (multi) return multiGpu(rowsGiven ? log2Rows : std::vector<int>{30}, runs);
  std::unique_ptr<Backend> backend = makeCudaBackend();
  star::cuda::DeviceContext ctx;
  const cudaStream_t stream = ctx.stream();

  std::printf("SORT of all rows by a 32-bit unsigned key (columns 1..32), median of %d runs.\n",
              runs);
  std::printf("GPU: %s.\n\n", backend->device().c_str());
  std::printf(
      "| rows | columns | Star SORT (sort_table_rows, events) | Star SORT (Backend::sort_rows + "
      "sync, wall) | CUB SortPairs u32+u32 | CUB SortKeys u32 | Star / CUB SortPairs | Star rows/s "
      "| Star = CUB |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|:---:|\n");
  bool allEqual = true;
  for (int lg : log2Rows) {
    const std::uint64_t rows = std::uint64_t{1} << lg;
    const std::uint64_t words = (rows + 63) / 64;
    const auto n = static_cast<std::uint32_t>(rows);
    DeviceBuffer<std::uint32_t> keys(rows), values(rows), keysOut(rows), valuesOut(rows),
        keysOnly(rows);
    randomPairs<<<gridFor(rows), 256, 0, stream>>>(keys.get(), values.get(), rows, lg);
    cudaOrDie(cudaGetLastError(), "randomPairs");

    DeviceBuffer<char>* pairsTemp = nullptr;
    std::size_t pairsBytes = 0;
    auto sortPairs = [&](void* temp, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(temp, bytes, keys.get(), keysOut.get(), values.get(),
                                             valuesOut.get(), n, 0, 32, stream);
    };
    cubOrDie(sortPairs, pairsTemp, pairsBytes, "SortPairs");
    const double pairsMs = medianMs(
        stream, runs, [] {},
        [&] { cudaOrDie(sortPairs(pairsTemp->get(), pairsBytes), "SortPairs"); });
    DeviceBuffer<char>* keysTemp = nullptr;
    std::size_t keysBytes = 0;
    auto sortKeys = [&](void* temp, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortKeys(temp, bytes, keys.get(), keysOnly.get(), n, 0, 32,
                                            stream);
    };
    cubOrDie(sortKeys, keysTemp, keysBytes, "SortKeys");
    const double keysMs = medianMs(
        stream, runs, [] {}, [&] { cudaOrDie(sortKeys(keysTemp->get(), keysBytes), "SortKeys"); });
    delete pairsTemp;
    delete keysTemp;

    for (unsigned cols : {32u, 64u}) {
      DeviceBuffer<std::uint64_t> pristine(cols * words), table(cols * words), x(words);
      pairsToTable<<<gridFor(cols * words), 256, 0, stream>>>(keys.get(), values.get(), rows, words,
                                                              cols, pristine.get());
      cudaOrDie(cudaGetLastError(), "pairsToTable");
      cudaOrDie(cudaMemsetAsync(x.get(), 0xFF, x.bytes(), stream), "cudaMemset");
      const double starMs = medianMs(
          stream, runs,
          [&] {
            cudaOrDie(cudaMemcpyAsync(table.get(), pristine.get(), table.bytes(),
                                      cudaMemcpyDeviceToDevice, stream),
                      "restore");
          },
          [&] {
            if (!star::cuda::sortTableRows(ctx, table.get(), rows, cols, x.get(), nullptr, 0, 32,
                                           KeyKind::Unsigned, false)) {
              std::fprintf(stderr, "sort_table_rows declined\n");
              std::exit(1);
            }
          });
      ctx.synchronize();
      const unsigned long long bad =
          tableMismatches(table.get(), rows, cols, keysOut.get(), valuesOut.get());

      // The same sort through the Backend interface, as the VM calls it.
      std::vector<std::uint64_t> viaBackend;
      const double wallMs =
          timeBackendSort(*backend, pristine.download(), rows, cols, runs, viaBackend);
      const bool equal = bad == 0 && viaBackend == table.download();
      allEqual = allEqual && equal;
      std::printf("| 2^%d | %u | %.3f ms | %.3f ms | %.3f ms | %.3f ms | %.2f | %.2f G | %s |\n",
                  lg, cols, starMs, wallMs, pairsMs, keysMs, starMs / pairsMs,
                  static_cast<double>(rows) / (starMs * 1e6), equal ? "yes" : "NO");
      if (bad != 0) std::fprintf(stderr, "2^%d x %u: %llu rows differ from CUB\n", lg, cols, bad);
      std::fflush(stdout);
    }
  }
  if (!allEqual) {
    std::fprintf(stderr, "Star's SORT differs from CUB's stable sort\n");
    return 1;
  }
  return 0;
}
