// Shared parts of sort_bench and segsort_bench: CUDA-event timing (medians), device buffers, and
// the conversions between (key, value) arrays and a Star table whose columns 0..31 hold the key
// and 32..63 the value, each most significant bit first (as a Star field): the peers sort the
// arrays, Star sorts the table, and verify_table checks that the table holds the peer's result.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace star::bench {

inline void cudaOrDie(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
  std::exit(1);
}

template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t n) : n_(n) {
    void* p = nullptr;
    cudaOrDie(cudaMalloc(&p, std::max<std::size_t>(n, 1) * sizeof(T)), "cudaMalloc");
    p_ = static_cast<T*>(p);
  }
  ~DeviceBuffer() { cudaFree(p_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return p_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }
  void upload(const std::vector<T>& h) {
    cudaOrDie(cudaMemcpy(p_, h.data(), bytes(), cudaMemcpyHostToDevice), "upload");
  }
  std::vector<T> download() const {
    std::vector<T> h(n_);
    cudaOrDie(cudaMemcpy(h.data(), p_, bytes(), cudaMemcpyDeviceToHost), "download");
    return h;
  }

 private:
  T* p_ = nullptr;
  std::size_t n_;
};

// Median milliseconds of `runs` timed calls of work() on `stream` (after one warm-up), each after
// an untimed reset() (restoring inputs that a sort consumed).
inline double medianMs(cudaStream_t stream, int runs, const std::function<void()>& reset,
                       const std::function<void()>& work) {
  cudaEvent_t start, stop;
  cudaOrDie(cudaEventCreate(&start), "cudaEventCreate");
  cudaOrDie(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<double> ms;
  for (int r = 0; r <= runs; ++r) {
    reset();
    cudaOrDie(cudaEventRecord(start, stream), "cudaEventRecord");
    work();
    cudaOrDie(cudaEventRecord(stop, stream), "cudaEventRecord");
    cudaOrDie(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float t = 0;
    cudaOrDie(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
    if (r > 0) ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

inline double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

__device__ __forceinline__ std::uint64_t mix64(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// keys[i], values[i] := pseudo-random 32-bit numbers of seed.
__global__ void randomPairs(std::uint32_t* keys, std::uint32_t* values, std::uint64_t n,
                            std::uint64_t seed) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t r = mix64(seed ^ (i * 0x2545F4914F6CDD1Dull));
    keys[i] = static_cast<std::uint32_t>(r);
    values[i] = static_cast<std::uint32_t>(r >> 32);
  }
}

// table (cols 32: the key; 64: key and value; column-major, words elements per column) from the
// arrays: column c < 32 holds key bit 31 - c, column 32 + c value bit 31 - c.
__global__ void pairsToTable(const std::uint32_t* keys, const std::uint32_t* values,
                             std::uint64_t rows, std::uint64_t words, unsigned cols,
                             std::uint64_t* table) {
  for (std::uint64_t idx = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; idx < cols * words;
       idx += std::uint64_t{gridDim.x} * blockDim.x) {
    const unsigned c = static_cast<unsigned>(idx / words);
    const std::uint64_t e = idx % words;
    const std::uint32_t* src = c < 32 ? keys : values;
    const unsigned bit = 31 - c % 32;
    std::uint64_t w = 0;
    for (unsigned i = 0; i < 64; ++i) {
      const std::uint64_t r = e * 64 + i;
      if (r < rows) w |= static_cast<std::uint64_t>((src[r] >> bit) & 1) << i;
    }
    table[idx] = w;
  }
}

// *bad += the rows whose key (and value, when cols is 64) differ from the arrays'.
__global__ void verifyTable(const std::uint64_t* table, std::uint64_t rows, std::uint64_t words,
                            unsigned cols, const std::uint32_t* keys, const std::uint32_t* values,
                            unsigned long long* bad) {
  for (std::uint64_t r = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; r < rows;
       r += std::uint64_t{gridDim.x} * blockDim.x) {
    std::uint32_t k = 0, v = 0;
    for (unsigned c = 0; c < 32; ++c) {
      k = (k << 1) | static_cast<std::uint32_t>((table[c * words + r / 64] >> (r % 64)) & 1);
      if (cols > 32) {
        v = (v << 1) |
            static_cast<std::uint32_t>((table[(32 + c) * words + r / 64] >> (r % 64)) & 1);
      }
    }
    if (k != keys[r] || (cols > 32 && v != values[r])) atomicAdd(bad, 1ull);
  }
}

inline unsigned gridFor(std::uint64_t n) {
  return static_cast<unsigned>(std::min<std::uint64_t>((n + 255) / 256, 4096));
}

// The rows of the table (rows x cols) whose key and value are not keys[r], values[r].
inline unsigned long long tableMismatches(const std::uint64_t* table, std::uint64_t rows,
                                          unsigned cols, const std::uint32_t* keys,
                                          const std::uint32_t* values) {
  DeviceBuffer<unsigned long long> bad(1);
  cudaOrDie(cudaMemset(bad.get(), 0, bad.bytes()), "cudaMemset");
  verifyTable<<<gridFor(rows), 256>>>(table, rows, (rows + 63) / 64, cols, keys, values, bad.get());
  cudaOrDie(cudaGetLastError(), "verifyTable");
  return bad.download()[0];
}

}  // namespace star::bench
