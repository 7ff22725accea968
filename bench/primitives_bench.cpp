// Every backend primitive at n = 100, 1000, 5000, 10^5 and 10^7 rows, on each available backend:
// the issue cost (many back-to-back calls, then one synchronize, per call) and, for primitives
// that return a value, the round-trip cost (per call, each waiting for its value). Printed as
// Markdown beside the paper's Table 1 and the launch floor measured in the same run. Then the
// same primitives inside a Star loop (bench/StarLoopPrimitives.h): on a GPU the device engine's
// column of the issue, and the host engine's, and the CPU backend's.
//   usage: primitives_bench [--cpu-only] [--sizes n,n,...] [--loop-sizes n,n,...]
//                           [--loops-only | --no-loops]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/StarLoopPrimitives.h"
#include "runtime-cpu/CpuBackend.h"
#ifdef STAR_HAVE_CUDA
#include "bench/LaunchFloor.h"
#include "runtime-cuda/CudaBackend.h"
#endif

using namespace star;

namespace {

struct Fixture {
  Backend& b;
  std::uint64_t n;
  Handle x, y, z, w, v, t, row;
  std::uint64_t cols;
  Fixture(Backend& be, std::uint64_t rows) : b(be), n(rows) {
    std::mt19937_64 rng(rows);
    std::vector<std::uint64_t> bits(wordsForBits(n));
    for (auto& e : bits) e = rng();
    if (n % 64) bits.back() &= (1ull << (n % 64)) - 1;
    x = b.createBits();
    y = b.createBits();
    z = b.createBits();
    b.writeBits(x, n, bits.data());
    for (auto& e : bits) e = rng();
    if (n % 64) bits.back() &= (1ull << (n % 64)) - 1;
    b.writeBits(y, n, bits.data());
    b.resizeBits(z, n);
    // Words for TRIM/REP/ADD: 64-bit values (the usual word length is a table's width).
    w = b.createBits();
    v = b.createBits();
    std::uint64_t one = rng() >> 1;
    b.writeBits(w, 64, &one);
    b.writeBits(v, 16, &one);
    // A table: square up to 5000 rows (the paper's graph sizes), else n x 256.
    cols = n <= 5000 ? n : 256;
    t = b.createTable();
    b.resizeTable(t, n, cols);
    row = b.createBits();
    b.resizeBits(row, cols);
  }
  ~Fixture() {
    for (Handle h : {x, y, z, w, v, t, row}) b.destroy(h);
  }
};

struct Primitive {
  const char* name;
  bool returnsValue;
  std::function<void(Fixture&, int)> call;  // int: iteration (varies the index used)
};

std::vector<Primitive> primitives() {
  return {
      {"fill (SET)", false, [](Fixture& f, int) { f.b.fill(f.z, true); }},
      {"copy (X := Y)", false, [](Fixture& f, int) { f.b.copyBits(f.z, f.x); }},
      {"or", false, [](Fixture& f, int) { f.b.bitwise(BitOp::Or, f.z, f.x, f.y); }},
      {"and", false, [](Fixture& f, int) { f.b.bitwise(BitOp::And, f.z, f.x, f.y); }},
      {"not", false, [](Fixture& f, int) { f.b.bitNot(f.z, f.x); }},
      {"FRST", false, [](Fixture& f, int) { f.b.firstOnly(f.z, f.x); }},
      {"Y(i) := 1", false, [](Fixture& f, int i) { f.b.setBit(f.z, (i * 7919ull) % f.n, true); }},
      {"TRIM (16 of 64)", false, [](Fixture& f, int) { f.b.trim(f.v, f.w, 8, 16); }},
      {"REP (16 in 64)", false, [](Fixture& f, int) { f.b.replace(f.w, 8, f.v); }},
      {"ADD (64-bit words)", false, [](Fixture& f, int) { f.b.add(f.w, f.w, f.w); }},
      {"COL read", false, [](Fixture& f, int i) { f.b.getCol(f.z, f.t, i % f.cols); }},
      {"COL write", false, [](Fixture& f, int i) { f.b.setCol(f.t, i % f.cols, f.x); }},
      {"ROW read", false, [](Fixture& f, int i) { f.b.getRow(f.row, f.t, (i * 31ull) % f.n); }},
      {"ROW write", false, [](Fixture& f, int i) { f.b.setRow(f.t, (i * 31ull) % f.n, f.row); }},
      {"FND", true, [](Fixture& f, int) { (void)f.b.findFirst(f.x); }},
      {"NUMB", true, [](Fixture& f, int) { (void)f.b.count(f.x); }},
      {"SOME", true, [](Fixture& f, int) { (void)f.b.any(f.x); }},
      {"STEP", true, [](Fixture& f, int) { (void)f.b.step(f.z); }},
      {"EQ/LESS (compare)", true, [](Fixture& f, int) { (void)f.b.compare(f.w, f.w); }},
      {"Y(i) read", true, [](Fixture& f, int i) { (void)f.b.getBit(f.x, (i * 7919ull) % f.n); }},
  };
}

double usPer(Backend& b, Fixture& f, const Primitive& p, int iters) {
  for (int i = 0; i < 10; ++i) p.call(f, i);
  b.synchronize();
  auto t = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) p.call(f, i);
  b.synchronize();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t).count() /
         iters;
}

// The paper's Table 1 (K40, microseconds) at 1000 rows, where it has the operation.
const char* paperFigure(const std::string& name) {
  if (name == "ROW read") return "19.5";
  if (name == "ROW write") return "3.9";
  if (name == "or") return "2.2";
  if (name == "FND") return "2.8";
  return "";
}

void runBackend(Backend& b, const std::vector<std::uint64_t>& sizes) {
  std::printf("\n### backend %s (%s)\n\n", b.name().c_str(), b.device().c_str());
  std::printf("| primitive | kind |");
  for (auto n : sizes) std::printf(" n=%llu |", (unsigned long long)n);
  std::printf(" paper K40, n=1000 |\n|---|---|");
  for (std::size_t i = 0; i < sizes.size(); ++i) std::printf("---|");
  std::printf("---|\n");
  std::vector<std::unique_ptr<Fixture>> fixtures;
  for (auto n : sizes) fixtures.push_back(std::make_unique<Fixture>(b, n));
  for (const Primitive& p : primitives()) {
    std::printf("| %s | %s |", p.name, p.returnsValue ? "round trip" : "issue");
    for (auto& f : fixtures) {
      int iters = f->n >= 10000000 ? 200 : 2000;
      if (std::strcmp(p.name, "STEP") == 0) b.fill(f->z, true);  // keep something to step over
      std::printf(" %.2f |", usPer(b, *f, p, iters));
    }
    std::printf(" %s |\n", paperFigure(p.name));
  }
  // Bandwidth of a bitwise operation at the largest size, against a plain device copy.
  Fixture& big = *fixtures.back();
  Primitive orOp = primitives()[2];
  double us = usPer(b, big, orOp, 200);
  double bytes = 3.0 * wordsForBits(big.n) * 8;  // two reads, one write
  std::printf("\n`or` at n=%llu: %.2f us, %.1f GB/s effective\n", (unsigned long long)big.n, us,
              bytes / (us * 1e-6) / 1e9);
}

std::vector<std::uint64_t> parseSizes(char* list) {
  std::vector<std::uint64_t> sizes;
  for (char* s = std::strtok(list, ","); s; s = std::strtok(nullptr, ","))
    sizes.push_back(std::strtoull(s, nullptr, 10));
  return sizes;
}

int run(int argc, char** argv) {
  std::vector<std::uint64_t> sizes = {100, 1000, 5000, 100000, 10000000};
  std::vector<std::uint64_t> loopSizes = {10000, 100000, 1000000, 10000000};
  bool cpuOnly = false, calls = true, loops = true;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--cpu-only") == 0) cpuOnly = true;
    if (std::strcmp(argv[i], "--loops-only") == 0) calls = false;
    if (std::strcmp(argv[i], "--no-loops") == 0) loops = false;
    if (std::strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) sizes = parseSizes(argv[++i]);
    if (std::strcmp(argv[i], "--loop-sizes") == 0 && i + 1 < argc)
      loopSizes = parseSizes(argv[++i]);
  }
  std::printf("# Star primitive benchmark\n");
#ifdef STAR_HAVE_CUDA
  bench::LaunchFloor floor;
  std::string why;
  if (!cpuOnly && cudaBackendAvailable(&why) &&
      bench::measureLaunchFloor(floor, wordsForBits(sizes.back()) * 8)) {
    std::printf(
        "\nPeer, same run: empty kernel back to back %.2f us; kernel + 8-byte read-back "
        "%.2f us; device-to-device copy of %llu bytes: %.1f GB/s\n",
        floor.emptyKernelUs, floor.roundTripUs,
        (unsigned long long)(wordsForBits(sizes.back()) * 8), floor.copyGBps);
    auto gpu = makeCudaBackend();
    if (calls) runBackend(*gpu, sizes);
    if (loops && !(bench::runStarLoopPrimitives(*gpu, "compiled", loopSizes) &&
                   bench::runStarLoopPrimitives(*gpu, "device", loopSizes) &&
                   bench::runStarLoopPrimitives(*gpu, "host", loopSizes)))
      return 1;
  } else if (!cpuOnly) {
    std::printf("\n(no GPU: %s)\n", why.c_str());
  }
#endif
  (void)cpuOnly;  // used only with CUDA
  auto cpu = makeCpuBackend();
  if (calls) runBackend(*cpu, sizes);
  if (loops && !bench::runStarLoopPrimitives(*cpu, "host", loopSizes)) return 1;
  return 0;
}

}  // namespace

// A Star program of the loop table that fails to run ends the benchmark with its message.
int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "primitives_bench: %s\n", e.what());
    return 1;
  }
}
