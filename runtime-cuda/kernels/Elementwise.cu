#include <cstdint>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/DeviceLoops.cuh"
#include "runtime-cuda/kernels/Elementwise.h"

namespace star::cuda {
namespace {

// Pairs of elements (16-byte loads) per thread when the grid is not capped.
constexpr std::uint64_t kPairsPerThread = 4;

// Operators: kArity says how many inputs are loaded.
struct FillOp {
  static constexpr int kArity = 0;
  std::uint64_t value;
  __device__ std::uint64_t operator()(std::uint64_t, std::uint64_t) const { return value; }
};
struct CopyOp {
  static constexpr int kArity = 1;
  __device__ std::uint64_t operator()(std::uint64_t x, std::uint64_t) const { return x; }
};
struct NotOp {
  static constexpr int kArity = 1;
  __device__ std::uint64_t operator()(std::uint64_t x, std::uint64_t) const { return ~x; }
};
struct AndOp {
  static constexpr int kArity = 2;
  __device__ std::uint64_t operator()(std::uint64_t x, std::uint64_t y) const { return x & y; }
};
struct OrOp {
  static constexpr int kArity = 2;
  __device__ std::uint64_t operator()(std::uint64_t x, std::uint64_t y) const { return x | y; }
};
struct XorOp {
  static constexpr int kArity = 2;
  __device__ std::uint64_t operator()(std::uint64_t x, std::uint64_t y) const { return x ^ y; }
};

template <class Op>
__device__ __forceinline__ std::uint64_t apply(const Op& op, const std::uint64_t* a,
                                               const std::uint64_t* b, std::uint64_t e) {
  const std::uint64_t x = Op::kArity >= 1 ? a[e] : 0;
  const std::uint64_t y = Op::kArity >= 2 ? b[e] : 0;
  return op(x, y);
}

// One element per iteration; for any alignment. No __restrict__: dst may alias a or b (each
// element is read and written by the same thread, so aliasing is safe).
template <class Op>
__global__ void elementwise_kernel(Op op, std::uint64_t* dst, const std::uint64_t* a,
                                   const std::uint64_t* b, std::uint64_t n,
                                   std::uint64_t last_mask) {
  for (std::uint64_t e = global_thread(); e < n; e += grid_threads()) {
    std::uint64_t r = apply(op, a, b, e);
    if (e == n - 1) r &= last_mask;
    dst[e] = r;
  }
}

// Two elements per iteration through 16-byte loads and stores; all pointers 16-byte aligned.
template <class Op>
__global__ void elementwise_pairs_kernel(Op op, std::uint64_t* dst, const std::uint64_t* a,
                                         const std::uint64_t* b, std::uint64_t n,
                                         std::uint64_t last_mask) {
  const std::uint64_t pairs = n / 2;
  auto* dst2 = reinterpret_cast<ulonglong2*>(dst);
  const auto* a2 = reinterpret_cast<const ulonglong2*>(a);
  const auto* b2 = reinterpret_cast<const ulonglong2*>(b);
  for (std::uint64_t p = global_thread(); p < pairs; p += grid_threads()) {
    const ulonglong2 x = Op::kArity >= 1 ? a2[p] : ulonglong2{0, 0};
    const ulonglong2 y = Op::kArity >= 2 ? b2[p] : ulonglong2{0, 0};
    ulonglong2 r{op(x.x, y.x), op(x.y, y.y)};
    if (2 * p + 1 == n - 1) r.y &= last_mask;
    dst2[p] = r;
  }
  if (n % 2 == 1 && global_thread() == 0) {  // the odd last element
    dst[n - 1] = apply(op, a, b, n - 1) & last_mask;
  }
}

__global__ void mask_tails_kernel(std::uint64_t* data, std::uint64_t col_words, std::uint64_t cols,
                                  std::uint64_t last_mask) {
  for (std::uint64_t j = global_thread(); j < cols; j += grid_threads()) {
    data[j * col_words + col_words - 1] &= last_mask;
  }
}

bool aligned16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

template <class Op>
void run(const Launch& launch, const Op& op, std::uint64_t* dst, const std::uint64_t* a,
         const std::uint64_t* b, std::uint64_t n, std::uint64_t last_mask) {
  if (n == 0) return;
  const bool pairs =
      aligned16(dst) && (Op::kArity < 1 || aligned16(a)) && (Op::kArity < 2 || aligned16(b));
  if (pairs) {
    const unsigned grid = grid_for(launch, (n + 1) / 2, kPairsPerThread);
    elementwise_pairs_kernel<<<grid, kBlockThreads, 0, launch.stream>>>(op, dst, a, b, n,
                                                                        last_mask);
  } else {
    const unsigned grid = grid_for(launch, n, 2 * kPairsPerThread);
    elementwise_kernel<<<grid, kBlockThreads, 0, launch.stream>>>(op, dst, a, b, n, last_mask);
  }
  check_launch("elementwise kernel");
}

}  // namespace

void launch_fill(const Launch& launch, std::uint64_t* dst, std::uint64_t n, bool bit,
                 std::uint64_t last_mask) {
  run(launch, FillOp{bit ? ~std::uint64_t{0} : 0}, dst, nullptr, nullptr, n, last_mask);
}

void launch_not(const Launch& launch, std::uint64_t* dst, const std::uint64_t* a, std::uint64_t n,
                std::uint64_t last_mask) {
  run(launch, NotOp{}, dst, a, nullptr, n, last_mask);
}

void launch_copy(const Launch& launch, std::uint64_t* dst, const std::uint64_t* src,
                 std::uint64_t n) {
  // The source has zero tails already, so nothing is masked.
  run(launch, CopyOp{}, dst, src, nullptr, n, ~std::uint64_t{0});
}

void launch_mask_tails(const Launch& launch, std::uint64_t* data, std::uint64_t col_words,
                       std::uint64_t cols, std::uint64_t last_mask) {
  if (col_words == 0 || cols == 0) return;
  mask_tails_kernel<<<grid_for(launch, cols), kBlockThreads, 0, launch.stream>>>(data, col_words,
                                                                                 cols, last_mask);
  check_launch("mask_tails kernel");
}

void launch_bitwise(const Launch& launch, BitOp op, std::uint64_t* dst, const std::uint64_t* a,
                    const std::uint64_t* b, std::uint64_t n) {
  // Inputs have zero tails, so and/or/xor keep the tail zero without masking.
  const std::uint64_t keep = ~std::uint64_t{0};
  switch (op) {
    case BitOp::And:
      return run(launch, AndOp{}, dst, a, b, n, keep);
    case BitOp::Or:
      return run(launch, OrOp{}, dst, a, b, n, keep);
    case BitOp::Xor:
      return run(launch, XorOp{}, dst, a, b, n, keep);
  }
}

}  // namespace star::cuda
