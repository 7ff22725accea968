#include <cuda_runtime.h>

#include <chrono>

#include "bench/LaunchFloor.h"

namespace star::bench {
namespace {

__global__ void emptyKernel() {}
__global__ void writeOne(unsigned long long* p) { *p = 1; }

double usSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

bool measureLaunchFloor(LaunchFloor& out, unsigned long long copyBytes) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) return false;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  unsigned long long *d = nullptr, *h = nullptr;
  cudaMalloc(&d, 8);
  cudaMallocHost(&h, 8);
  constexpr int kIters = 2000;
  for (int i = 0; i < 100; ++i) emptyKernel<<<1, 1, 0, s>>>();
  cudaStreamSynchronize(s);
  auto t = std::chrono::steady_clock::now();
  for (int i = 0; i < kIters; ++i) emptyKernel<<<1, 1, 0, s>>>();
  cudaStreamSynchronize(s);
  out.emptyKernelUs = usSince(t) / kIters;

  t = std::chrono::steady_clock::now();
  for (int i = 0; i < kIters; ++i) {
    writeOne<<<1, 1, 0, s>>>(d);
    cudaMemcpyAsync(h, d, 8, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
  }
  out.roundTripUs = usSince(t) / kIters;

  void *a = nullptr, *b = nullptr;
  cudaMalloc(&a, copyBytes);
  cudaMalloc(&b, copyBytes);
  cudaMemsetAsync(a, 0, copyBytes, s);
  cudaMemcpyAsync(b, a, copyBytes, cudaMemcpyDeviceToDevice, s);
  cudaStreamSynchronize(s);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  constexpr int kCopies = 50;
  cudaEventRecord(e0, s);
  for (int i = 0; i < kCopies; ++i) cudaMemcpyAsync(b, a, copyBytes, cudaMemcpyDeviceToDevice, s);
  cudaEventRecord(e1, s);
  cudaEventSynchronize(e1);
  float ms = 0;
  cudaEventElapsedTime(&ms, e0, e1);
  // A copy reads and writes copyBytes each.
  out.copyGBps = 2.0 * copyBytes * kCopies / (ms * 1e-3) / 1e9;
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaFree(a);
  cudaFree(b);
  cudaFree(d);
  cudaFreeHost(h);
  cudaStreamDestroy(s);
  return true;
}

}  // namespace star::bench
