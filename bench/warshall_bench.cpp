// WARSHALL_C (the paper's Listing 2, pure Star, driven from the host VM; --listing=1: WARSHALL,
// Listing 1, which works on rows) against a plain C++
// bitset Warshall on the CPU, in the same run, on the same sparse random digraphs (about 2 arcs
// per vertex). Prints a Markdown table for bench/RESULTS.md.
// With a GPU, the papers' own adaptation (one kernel per k, bench/PaperWarshallAdapt.cu) runs on
// the same graph in the same run, as the peer.
//   usage: warshall_bench [--backend=cpu|cuda] [--engine=host|device|compiled]
//   [--no-parallel-loops]
//                         [--listing=1|2] [n ...]   (default cpu, host, on, 2, 1000 2000)
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "bench/BenchEngine.h"
#include "bench/BenchUtil.h"
#include "frontend/driver/Compilation.h"
#include "runtime-cpu/CpuBackend.h"
#ifdef STAR_HAVE_CUDA
#include "bench/PaperWarshallAdapt.h"
#include "runtime-cuda/CudaBackend.h"
#endif
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
  std::string backendName = "cpu", engineName = "host";
  bool parallelLoops = true;
  std::string listing = "2";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--backend=", 0) == 0)
      backendName = a.substr(10);
    else if (a.rfind("--engine=", 0) == 0)
      engineName = a.substr(9);
    else if (a == "--no-parallel-loops")
      parallelLoops = false;
    else if (a == "--listing=1" || a == "--listing=2")
      listing = a.substr(10);
    else
      sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  }
  if (sizes.empty()) sizes = {1000, 2000};

  Compilation c(std::cerr, CompileOptions{});
  // The source tree's copies, or (on a machine the build was carried to) the ones under the cwd.
  auto benchFile = [](const std::string& name) {
    std::string path = STAR_SOURCE_DIR "/bench/" + name;
    return std::filesystem::exists(path) ? path : "bench/" + name;
  };
  const char* procedure = listing == "1" ? "WARSHALL" : "WARSHALL_C";
  if (!c.compileFile(benchFile(listing == "1" ? "warshall.star" : "warshall_c.star"))) return 1;
  Module module = c.takeModule();
  // The table file I/O (LOAD, SAVE) is timed on its own and subtracted: the peer has none.
  Compilation io(std::cerr, CompileOptions{});
  if (!io.compileFile(benchFile("load_save.star"))) return 1;
  Module ioModule = io.takeModule();
  auto dir = std::filesystem::temp_directory_path();

  auto makeBackend = [&]() -> std::unique_ptr<Backend> {
#ifdef STAR_HAVE_CUDA
    if (backendName == "cuda") return makeCudaBackend();
#endif
    if (backendName != "cpu") {
      std::fprintf(stderr, "backend %s is not available\n", backendName.c_str());
      std::exit(1);
    }
    return makeCpuBackend();
  };
  {
    auto probe = makeBackend();
    std::printf("%s on backend %s (%s), %s engine, parallel loops %s\n\n", procedure,
                probe->name().c_str(), probe->device().c_str(), engineName.c_str(),
                parallelLoops ? "on" : "off");
  }
  std::printf(
      "| n | arcs | 1s in closure (j) | C++ bitset Warshall, CPU (s) | %s on the VM, without file "
      "I/O (s) | ratio | time per inner iteration (us) | papers' kernel per k, this GPU (s) | %s / "
      "kernel per k |\n",
      procedure, procedure);
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
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

    auto backend = makeBackend();
    std::ostringstream sink;
    Interpreter vm(*backend, sink);
    vm.enableParallelLoops(parallelLoops);
    bench::enableEngine(vm, engineName);
    if (engineName != "host" && !vm.deviceEngineOn()) {
      std::fprintf(stderr, "backend %s has no %s engine\n", backendName.c_str(),
                   engineName.c_str());
      return 1;
    }
    vm.setArguments({in, out});
    auto t1 = std::chrono::steady_clock::now();
    vm.run(module, module.entry);
    double star = bench::secondsSince(t1);
    if (!bench::ranAsAsked(vm, engineName)) {
      std::fprintf(stderr, "no compiled code ran (star said why above): not a compiled figure\n");
      return 1;
    }
    {
      Interpreter ioVm(*backend, sink);
      bench::enableEngine(ioVm, engineName);
      ioVm.setArguments({in, out + ".io"});
      auto t2 = std::chrono::steady_clock::now();
      ioVm.run(ioModule, ioModule.entry);
      star -= bench::secondsSince(t2);
      std::filesystem::remove(out + ".io");
    }

    TableData got = readTableFile(out);
    std::uint64_t w = (n + 63) / 64, ones = 0;
    for (std::uint64_t i = 0; i < n; ++i)
      for (std::uint64_t j = 0; j < n; ++j) {
        bool r = (ref[i * w + j / 64] >> (j % 64)) & 1;
        ones += r;
        if (r != got.get(i, j)) {
          std::fprintf(stderr, "MISMATCH at (%llu, %llu)\n", (unsigned long long)i,
                       (unsigned long long)j);
          return 1;
        }
      }
    double peer = -1;  // the papers' kernel per k on the same graph, when there is a GPU
#ifdef STAR_HAVE_CUDA
    if (backendName == "cuda") {
      std::vector<std::uint64_t> columns(n * w, 0);
      for (std::uint64_t j = 0; j < n; ++j)
        for (std::uint64_t i = 0; i < n; ++i)
          if (g.get(i, j)) columns[j * w + i / 64] |= 1ull << (i % 64);
      peer = bench::paperWarshallAdapt(n, columns);
      for (std::uint64_t j = 0; j < n && peer >= 0; ++j)
        for (std::uint64_t i = 0; i < n; ++i)
          if (((columns[j * w + i / 64] >> (i % 64)) & 1) != got.get(i, j)) {
            std::fprintf(stderr, "the kernel per k differs at (%llu, %llu)\n",
                         (unsigned long long)i, (unsigned long long)j);
            return 1;
          }
    }
#endif
    // The inner loop runs once per (k, i) with P(k, i) = 1 when row k (column k) is read:
    // j, the number of 1s of the closure (docs/PAPERS.md §1), bounds it.
    std::printf("| %llu | %llu | %llu | %.4f | %.4f | %.2fx | %.3f |", (unsigned long long)n,
                (unsigned long long)arcs, (unsigned long long)ones, cpp, star, star / cpp,
                star * 1e6 / static_cast<double>(ones));
    if (peer >= 0)
      std::printf(" %.4f | %.2fx |\n", peer, star / peer);
    else
      std::printf(" - | - |\n");
    std::filesystem::remove(in);
    std::filesystem::remove(out);
  }
  return 0;
}
