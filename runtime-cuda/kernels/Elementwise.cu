#include <cstdint>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/DeviceLoops.cuh"
#include "runtime-cuda/kernels/Elementwise.h"
#include "runtime-cuda/kernels/Tuning.h"

namespace star::cuda {
namespace {

constexpr std::uint64_t kPairsPerThread = ElementwisePolicy::kPairsPerThread;

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
__global__ void elementwiseKernel(Op op, std::uint64_t* dst, const std::uint64_t* a,
                                   const std::uint64_t* b, std::uint64_t n,
                                   std::uint64_t lastMask) {
  for (std::uint64_t e = globalThread(); e < n; e += gridThreads()) {
    std::uint64_t r = apply(op, a, b, e);
    if (e == n - 1) r &= lastMask;
    dst[e] = r;
  }
}

// Two elements per iteration through 16-byte loads and stores; all pointers 16-byte aligned.
template <class Op>
__global__ void elementwisePairsKernel(Op op, std::uint64_t* dst, const std::uint64_t* a,
                                         const std::uint64_t* b, std::uint64_t n,
                                         std::uint64_t lastMask) {
  const std::uint64_t pairs = n / 2;
  auto* dst2 = reinterpret_cast<ulonglong2*>(dst);
  const auto* a2 = reinterpret_cast<const ulonglong2*>(a);
  const auto* b2 = reinterpret_cast<const ulonglong2*>(b);
  for (std::uint64_t p = globalThread(); p < pairs; p += gridThreads()) {
    const ulonglong2 x = Op::kArity >= 1 ? a2[p] : ulonglong2{0, 0};
    const ulonglong2 y = Op::kArity >= 2 ? b2[p] : ulonglong2{0, 0};
    ulonglong2 r{op(x.x, y.x), op(x.y, y.y)};
    if (2 * p + 1 == n - 1) r.y &= lastMask;
    dst2[p] = r;
  }
  if (n % 2 == 1 && globalThread() == 0) {  // the odd last element
    dst[n - 1] = apply(op, a, b, n - 1) & lastMask;
  }
}

__global__ void maskTailsKernel(std::uint64_t* data, std::uint64_t colWords, std::uint64_t cols,
                                  std::uint64_t lastMask) {
  for (std::uint64_t j = globalThread(); j < cols; j += gridThreads()) {
    data[j * colWords + colWords - 1] &= lastMask;
  }
}

bool aligned16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

template <class Op>
void run(const Launch& launch, const Op& op, std::uint64_t* dst, const std::uint64_t* a,
         const std::uint64_t* b, std::uint64_t n, std::uint64_t lastMask) {
  if (n == 0) return;
  const bool pairs =
      aligned16(dst) && (Op::kArity < 1 || aligned16(a)) && (Op::kArity < 2 || aligned16(b));
  if (pairs) {
    const unsigned grid = gridFor(launch, (n + 1) / 2, kPairsPerThread);
    elementwisePairsKernel<<<grid, kBlockThreads, 0, launch.stream>>>(op, dst, a, b, n,
                                                                        lastMask);
  } else {
    const unsigned grid = gridFor(launch, n, 2 * kPairsPerThread);
    elementwiseKernel<<<grid, kBlockThreads, 0, launch.stream>>>(op, dst, a, b, n, lastMask);
  }
  checkLaunch("elementwise kernel");
}

}  // namespace

void launchFill(const Launch& launch, std::uint64_t* dst, std::uint64_t n, bool bit,
                 std::uint64_t lastMask) {
  run(launch, FillOp{bit ? ~std::uint64_t{0} : 0}, dst, nullptr, nullptr, n, lastMask);
}

void launchNot(const Launch& launch, std::uint64_t* dst, const std::uint64_t* a, std::uint64_t n,
                std::uint64_t lastMask) {
  run(launch, NotOp{}, dst, a, nullptr, n, lastMask);
}

void launchCopy(const Launch& launch, std::uint64_t* dst, const std::uint64_t* src,
                 std::uint64_t n) {
  // The source has zero tails already, so nothing is masked.
  run(launch, CopyOp{}, dst, src, nullptr, n, ~std::uint64_t{0});
}

void launchMaskTails(const Launch& launch, std::uint64_t* data, std::uint64_t colWords,
                       std::uint64_t cols, std::uint64_t lastMask) {
  if (colWords == 0 || cols == 0) return;
  maskTailsKernel<<<gridFor(launch, cols), kBlockThreads, 0, launch.stream>>>(data, colWords,
                                                                                 cols, lastMask);
  checkLaunch("mask_tails kernel");
}

void launchBitwise(const Launch& launch, BitOp op, std::uint64_t* dst, const std::uint64_t* a,
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
