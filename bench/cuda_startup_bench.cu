// What a process pays before its first CUDA kernel runs, step by step, in a fresh process: the
// floor under `star run` on a GPU (bench/startup.py measures star itself). One row per step, in
// the order a CUDA program meets them; run it several times (each run is one cold start).
//   cuda_startup_bench [--exit=return|quick|detach]
// --exit says how the process ends, for bench/startup.py --probe, which times whole processes:
// `return` from main (the driver's teardown in the exit handlers), `quick` (std::_Exit: the
// operating system releases the context when the process's files and memory go), `detach`
// (core/DetachedExit.h: a child holds the driver's files and the release happens when it ends).
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/DetachedExit.h"

namespace {

__global__ void emptyKernel() {}

using Clock = std::chrono::steady_clock;

bool ok(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return true;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const char* exitMode =
      argc > 1 && std::strncmp(argv[1], "--exit=", 7) == 0 ? argv[1] + 7 : "return";
  const Clock::time_point start = Clock::now();
  Clock::time_point last = start;
  auto row = [&](const char* step) {
    const Clock::time_point now = Clock::now();
    std::printf("| %s | %.2f |\n", step,
                std::chrono::duration<double, std::milli>(now - last).count());
    last = now;
  };
  std::printf("| step | ms |\n|---|---|\n");
  int count = 0;
  if (!ok(cudaGetDeviceCount(&count), "cudaGetDeviceCount") || count == 0) return 77;
  row("cudaGetDeviceCount (driver initialisation)");
  int sms = 0;
  if (!ok(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attribute")) return 1;
  row("cudaDeviceGetAttribute (no context)");
  cudaDeviceProp props{};
  if (!ok(cudaGetDeviceProperties(&props, 0), "properties")) return 1;
  row("cudaGetDeviceProperties");
  if (!ok(cudaFree(nullptr), "cudaFree(0)")) return 1;
  row("cudaFree(0) (primary context)");
  cudaFuncAttributes attributes{};
  if (!ok(cudaFuncGetAttributes(&attributes, emptyKernel), "cudaFuncGetAttributes")) return 1;
  row("cudaFuncGetAttributes (loads one kernel)");
  cudaStream_t stream{};
  if (!ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream")) return 1;
  row("cudaStreamCreate");
  cudaMemPool_t pool{};
  cudaMemPoolProps pp{};
  pp.allocType = cudaMemAllocationTypePinned;
  pp.location.type = cudaMemLocationTypeDevice;
  pp.location.id = 0;
  if (!ok(cudaMemPoolCreate(&pool, &pp), "pool")) return 1;
  row("cudaMemPoolCreate");
  void* p = nullptr;
  if (!ok(cudaMallocFromPoolAsync(&p, 1 << 20, pool, stream), "alloc")) return 1;
  row("cudaMallocFromPoolAsync (1 MiB)");
  void* host = nullptr;
  if (!ok(cudaHostAlloc(&host, 64, cudaHostAllocMapped), "cudaHostAlloc")) return 1;
  row("cudaHostAlloc (mapped, 64 B)");
  emptyKernel<<<1, 1, 0, stream>>>();
  if (!ok(cudaStreamSynchronize(stream), "first launch")) return 1;
  row("first launch + sync");
  emptyKernel<<<1, 1, 0, stream>>>();
  if (!ok(cudaStreamSynchronize(stream), "second launch")) return 1;
  row("second launch + sync");
  cudaFreeAsync(p, stream);
  cudaStreamSynchronize(stream);
  cudaFreeHost(host);
  cudaMemPoolDestroy(pool);
  cudaStreamDestroy(stream);
  row("teardown");
  std::printf("| total in main (%s, CUDA_MODULE_LOADING=%s) | %.2f |\n", props.name,
              std::getenv("CUDA_MODULE_LOADING") ? std::getenv("CUDA_MODULE_LOADING") : "default",
              std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  if (std::strcmp(exitMode, "quick") == 0) {
    std::fflush(nullptr);
    std::_Exit(0);
  }
  if (std::strcmp(exitMode, "detach") == 0) star::exitLeavingReleaseToHelper(0);
  return 0;
}
