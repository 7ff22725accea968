#include <cuda_runtime.h>

#include "bench/PaperWarshallAdapt.h"

namespace star::bench {
namespace {

// Block i: V := COL(i, P); if V(k) = 1 then V := V or W (W = COL(k, P)); COL(i, P) := V.
__global__ void adaptStep(unsigned long long* p, unsigned long long words, unsigned long long k) {
  unsigned long long* col = p + blockIdx.x * words;
  if (!((col[k / 64] >> (k % 64)) & 1ull)) return;
  const unsigned long long* w = p + k * words;
  for (unsigned long long x = threadIdx.x; x < words; x += blockDim.x) col[x] |= w[x];
}

}  // namespace

double paperWarshallAdapt(std::uint64_t n, std::vector<std::uint64_t>& columnMajor) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return -1;
  const std::uint64_t words = (n + 63) / 64;
  unsigned long long* d = nullptr;
  if (cudaMalloc(&d, columnMajor.size() * 8) != cudaSuccess) return -1;
  cudaMemcpy(d, columnMajor.data(), columnMajor.size() * 8, cudaMemcpyHostToDevice);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (std::uint64_t k = 0; k < n; ++k)
    adaptStep<<<static_cast<unsigned>(n), 64>>>(d, words, k);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaMemcpy(columnMajor.data(), d, columnMajor.size() * 8, cudaMemcpyDeviceToHost);
  cudaFree(d);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms * 1e-3;
}

}  // namespace star::bench
