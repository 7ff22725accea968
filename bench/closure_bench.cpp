// The native transitive closure (Backend::transitiveClosure, what `native 'transitive_closure'`
// runs for WARSHALL) on sparse random digraphs with about 2 arcs per vertex, as the peer figures of
// bench/RESULTS.md use: the CUDA backend at n = 1000, 2000, 5000, 10000 and the CPU backend
// at n = 1000, 2000. Each figure is the median of 5 timed calls after a warm-up; the upload of the
// graph is not timed (each call starts from the graph again), the final synchronize is. The GPU
// result must equal the CPU result wherever both ran. Prints a Markdown table beside the paper's
// Table 2 (WARSHALL-adapt on a K40) and the H200 peers (bench/RESULTS.md, peer figures).
// --multi: one GPU against every GPU of the machine (the sharded backend of `star run
// --devices=all` with its NCCL closure, runtime-cuda/MultiGpuNatives.h; rows split at every 64-row
// word) at the
// --gpu-sizes (default 10000, 20000, 40000), results compared.
//   usage: closure_bench [--cpu-only] [--gpu-sizes n,n,...] [--cpu-sizes n,n,...] [--multi]
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/BenchUtil.h"
#include "runtime-cpu/CpuBackend.h"
#ifdef STAR_HAVE_CUDA
#include "bench/MultiGpuBench.h"
#include "bench/PaperWarshallAdapt.h"
#include "runtime-cuda/CudaBackend.h"
#include "vm/backend/NativeKernels.h"
#endif

using namespace star;

namespace {

constexpr int kRuns = 5;

struct Timing {
  double seconds = -1;                // median; < 0: not run
  std::vector<std::uint64_t> result;  // the closure, column-major
};

// Median of kRuns timed closures of `graph` (after one untimed warm-up) on `b`.
Timing timeClosure(Backend& b, const TableData& graph) {
  Timing t;
  b.makeCurrent();  // (several backends on several GPUs: --multi)
  const Handle h = b.createTable();
  std::vector<double> runs;
  for (int r = 0; r <= kRuns; ++r) {
    b.writeTable(h, graph.rows, graph.cols, graph.words.data());  // waits for the upload
    const auto start = std::chrono::steady_clock::now();
    if (!b.nativeKernels()->transitiveClosure(h)) {
      std::fprintf(stderr, "%s backend has no native transitive_closure\n", b.name().c_str());
      std::exit(1);
    }
    b.synchronize();
    if (r > 0) runs.push_back(bench::secondsSince(start));
  }
  b.readTable(h, t.result);
  b.destroy(h);
  std::sort(runs.begin(), runs.end());
  t.seconds = runs[runs.size() / 2];
  return t;
}

// "1000,2000" -> {1000, 2000}.
std::vector<std::uint64_t> parseSizes(const std::string& s) {
  std::vector<std::uint64_t> v;
  for (std::size_t pos = 0; pos <= s.size();) {
    const std::size_t comma = std::min(s.find(',', pos), s.size());
    if (comma > pos) v.push_back(std::stoull(s.substr(pos, comma - pos)));
    pos = comma + 1;
  }
  return v;
}

std::string seconds(double s) {
  if (s < 0) return "-";
  char buf[64];
  if (s < 0.1)
    std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

// The paper's Table 2 (WARSHALL-adapt, K40) and the H200 peers (bench/RESULTS.md), in seconds.
struct Reference {
  double paper_k40;
  double kernel_per_k;
  double tensor_squaring;
};
const std::map<std::uint64_t, Reference> kReferences = {
    {1000, {0.003, 3.4e-3, 0.39e-3}},
    {2000, {0.027, 6.8e-3, 0.61e-3}},
    {5000, {0.372, 24.6e-3, 2.80e-3}},
    {10000, {-1, 79.8e-3, 16.8e-3}},
};

#ifdef STAR_HAVE_CUDA
int multiGpu(std::vector<std::uint64_t> sizes) {
  std::optional<bench::OneAndAllGpus> gpus = bench::oneAndAllGpus(/*minWords=*/1);
  if (!gpus) return 0;
  const int devices = gpus->devices;
  Backend* one = gpus->one.get();
  Backend* many = gpus->all.get();
  std::printf("| n | 1 GPU | %d GPUs (NCCL) | speed-up | results |\n|---|---|---|---|---|\n",
              devices);
  for (std::uint64_t n : sizes) {
    const TableData graph = bench::randomDigraph(n, 2.0, n);
    const Timing a = timeClosure(*one, graph);
    const Timing b = timeClosure(*many, graph);
    std::printf("| %llu | %s | %s | %.2fx | %s |\n", static_cast<unsigned long long>(n),
                seconds(a.seconds).c_str(), seconds(b.seconds).c_str(), a.seconds / b.seconds,
                a.result == b.result ? "equal" : "DIFFER");
    std::fflush(stdout);
    if (a.result != b.result) return 1;
  }
  return 0;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  bool cpuOnly = false, multi = false;
  std::vector<std::uint64_t> gpuSizes = {1000, 2000, 5000, 10000};
  std::vector<std::uint64_t> cpuSizes = {1000, 2000};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--cpu-only") == 0)
      cpuOnly = true;
    else if (std::strcmp(argv[i], "--gpu-sizes") == 0 && i + 1 < argc)
      gpuSizes = parseSizes(argv[++i]);
    else if (std::strcmp(argv[i], "--cpu-sizes") == 0 && i + 1 < argc)
      cpuSizes = parseSizes(argv[++i]);
    else if (std::strcmp(argv[i], "--multi") == 0)
      multi = true;
    else {
      std::fprintf(stderr,
                   "usage: %s [--cpu-only] [--gpu-sizes n,n,...] [--cpu-sizes n,n,...] [--multi]\n",
                   argv[0]);
      return 2;
    }
  }

#ifdef STAR_HAVE_CUDA
  if (multi) {
    bool given = false;
    for (int i = 1; i < argc; ++i) given |= std::strcmp(argv[i], "--gpu-sizes") == 0;
    return multiGpu(given ? gpuSizes : std::vector<std::uint64_t>{10000, 20000, 40000});
  }
#endif
  (void)multi;
  std::unique_ptr<Backend> cpu = makeCpuBackend();
  std::unique_ptr<Backend> gpu;
  (void)cpuOnly;  // used only with CUDA
#ifdef STAR_HAVE_CUDA
  std::string why;
  if (!cpuOnly && cudaBackendAvailable(&why))
    gpu = makeCudaBackend();
  else if (!cpuOnly)
    std::fprintf(stderr, "no CUDA device (%s): CPU only\n", why.c_str());
#endif
  if (!gpu) gpuSizes.clear();

  std::vector<std::uint64_t> sizes = gpuSizes;
  sizes.insert(sizes.end(), cpuSizes.begin(), cpuSizes.end());
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());

  struct Row {
    std::uint64_t n, arcs, closureOnes;
    Timing cpu, gpu;
    const char* verified;
    double peerKernelPerK = -1;  // the paper's Listing 4 on this GPU, same run
  };
  std::vector<Row> rows;
  bool allEqual = true;
  for (std::uint64_t n : sizes) {
    const TableData graph = bench::randomDigraph(n, 2.0, n);
    Row row{n, 0, 0, {}, {}, "-", -1};
    for (std::uint64_t w : graph.words) row.arcs += static_cast<std::uint64_t>(std::popcount(w));
    const bool onCpu = std::find(cpuSizes.begin(), cpuSizes.end(), n) != cpuSizes.end();
    const bool onGpu = std::find(gpuSizes.begin(), gpuSizes.end(), n) != gpuSizes.end();
    if (onCpu) row.cpu = timeClosure(*cpu, graph);
    if (onGpu) row.gpu = timeClosure(*gpu, graph);
    const std::vector<std::uint64_t>& any = onGpu ? row.gpu.result : row.cpu.result;
    for (std::uint64_t w : any) row.closureOnes += static_cast<std::uint64_t>(std::popcount(w));
#ifdef STAR_HAVE_CUDA
    if (onGpu) {  // the peer: the paper's kernel-per-k scheme, which must agree with Star's
      std::vector<std::uint64_t> peer = graph.words;
      row.peerKernelPerK = bench::paperWarshallAdapt(n, peer);
      if (peer != row.gpu.result) {
        std::fprintf(stderr, "n = %llu: the paper's kernel-per-k closure differs from Star's\n",
                     static_cast<unsigned long long>(n));
        allEqual = false;
      }
    }
#endif
    if (onCpu && onGpu) {
      const bool equal = row.cpu.result == row.gpu.result;
      row.verified = equal ? "equal" : "DIFFERENT";
      allEqual = allEqual && equal;
    }
    std::fprintf(stderr, "n = %llu: cpu %s, cuda %s\n", static_cast<unsigned long long>(n),
                 seconds(row.cpu.seconds).c_str(), seconds(row.gpu.seconds).c_str());
    rows.push_back(std::move(row));
  }

  std::printf(
      "Native transitive closure (`transitive_closure`), random digraphs with about 2 arcs "
      "per vertex; median of %d after a warm-up, upload excluded.\n",
      kRuns);
  std::printf("CPU: %s. GPU: %s.\n\n", cpu->device().c_str(), gpu ? gpu->device().c_str() : "none");
  std::printf(
      "| n | arcs | closure density | Star CPU | Star CUDA | GPU = CPU | paper's kernel per k, "
      "this GPU, same run | paper Table 2, WARSHALL-adapt (K40) | kernel per k (peer "
      "H200) | tensor-core squaring (peer H200) |\n");
  std::printf("|---:|---:|---:|---:|---:|:---:|---:|---:|---:|---:|\n");
  for (const Row& r : rows) {
    const auto ref = kReferences.find(r.n);
    const Reference none{-1, -1, -1};
    const Reference& x = ref == kReferences.end() ? none : ref->second;
    std::printf("| %llu | %llu | %.3f | %s | %s | %s | %s | %s | %s | %s |\n",
                static_cast<unsigned long long>(r.n), static_cast<unsigned long long>(r.arcs),
                static_cast<double>(r.closureOnes) / static_cast<double>(r.n * r.n),
                seconds(r.cpu.seconds).c_str(), seconds(r.gpu.seconds).c_str(), r.verified,
                seconds(r.peerKernelPerK).c_str(), seconds(x.paper_k40).c_str(),
                seconds(x.kernel_per_k).c_str(), seconds(x.tensor_squaring).c_str());
  }
  if (!allEqual) {
    std::fprintf(stderr, "GPU and CPU closures differ\n");
    return 1;
  }
  return 0;
}
