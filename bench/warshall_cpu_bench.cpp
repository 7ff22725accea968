// WARSHALL_C (pure Star, host-driven VM on the CPU backend) against a plain C++ bitset Warshall,
// in the same run, on the same random digraphs. Prints a Markdown table for bench/RESULTS.md.
//   usage: warshall_cpu_bench [n ...]   (default 1000 2000)
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "bench/BenchUtil.h"
#include "frontend/driver/Compilation.h"
#include "runtime-cpu/CpuBackend.h"
#include "vm/interp/Interpreter.h"

using namespace star;

namespace {

// The sequential reference: row-major bitsets, P[i] |= P[k] whenever P[i][k].
std::vector<std::uint64_t> bitsetWarshall(const TableData& t) {
  std::uint64_t n = t.rows, w = (n + 63) / 64;
  std::vector<std::uint64_t> rows(n * w, 0);
  for (std::uint64_t i = 0; i < n; ++i)
    for (std::uint64_t j = 0; j < n; ++j)
      if (t.get(i, j)) rows[i * w + j / 64] |= 1ull << (j % 64);
  for (std::uint64_t k = 0; k < n; ++k) {
    const std::uint64_t* rk = &rows[k * w];
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint64_t* ri = &rows[i * w];
      if ((ri[k / 64] >> (k % 64)) & 1)
        for (std::uint64_t x = 0; x < w; ++x) ri[x] |= rk[x];
    }
  }
  return rows;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::uint64_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  if (sizes.empty()) sizes = {1000, 2000};

  Compilation c(std::cerr, CompileOptions{});
  if (!c.compileFile(STAR_SOURCE_DIR "/bench/warshall_c.star")) return 1;
  Module module = c.takeModule();
  auto dir = std::filesystem::temp_directory_path();

  std::printf("| n | arcs | 1s in closure (j) | C++ bitset Warshall (s) | WARSHALL_C on the VM, CPU backend (s) | ratio | VM time per inner iteration (ns) |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (std::uint64_t n : sizes) {
    TableData g = bench::randomDigraph(n, 2.0, 42 + n);
    std::string in = (dir / ("star_bench_g" + std::to_string(n) + ".txt")).string();
    std::string out = (dir / ("star_bench_c" + std::to_string(n) + ".txt")).string();
    writeTableFile(in, g);
    std::uint64_t arcs = 0;
    for (std::uint64_t i = 0; i < n; ++i)
      for (std::uint64_t j = 0; j < n; ++j) arcs += g.get(i, j);

    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::uint64_t> ref = bitsetWarshall(g);
    double cpp = bench::secondsSince(t0);

    auto backend = make_cpu_backend();
    std::ostringstream sink;
    Interpreter vm(*backend, sink);
    vm.setArguments({in, out});
    auto t1 = std::chrono::steady_clock::now();
    vm.run(module, module.entry);
    double star = bench::secondsSince(t1);

    TableData got = readTableFile(out);
    std::uint64_t w = (n + 63) / 64, ones = 0;
    for (std::uint64_t i = 0; i < n; ++i)
      for (std::uint64_t j = 0; j < n; ++j) {
        bool r = (ref[i * w + j / 64] >> (j % 64)) & 1;
        ones += r;
        if (r != got.get(i, j)) {
          std::fprintf(stderr, "MISMATCH at (%llu, %llu)\n", (unsigned long long)i, (unsigned long long)j);
          return 1;
        }
      }
    // The inner loop runs once per 1 of the closure's rows... per (k, i) with P(k, i) = 1.
    std::printf("| %llu | %llu | %llu | %.4f | %.4f | %.2fx | %.1f |\n", (unsigned long long)n,
                (unsigned long long)arcs, (unsigned long long)ones, cpp, star, star / cpp,
                star * 1e9 / static_cast<double>(ones));
    std::filesystem::remove(in);
    std::filesystem::remove(out);
  }
  return 0;
}
