// The warp, as every kernel sees it: its width, the mask of all its lanes, and its reductions.
#pragma once

namespace star::cuda {

inline constexpr unsigned kWarp = 32;
inline constexpr unsigned kFullMask = 0xffffffffu;

#ifdef __CUDACC__
// Warp-wide reductions over the 32 lanes of a full warp (every lane calls them, converged): an
// xor butterfly of log2(32) shuffles, after which every lane holds the result, not only lane 0
// as with cub::WarpReduce. T: a type of 32 or 64 bits that __shfl_xor_sync takes; op: associative
// and commutative.
template <class T, class Op>
__device__ __forceinline__ T warpReduce(T v, Op op) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "a 32- or 64-bit value");
#pragma unroll
  for (int offset = static_cast<int>(kWarp / 2); offset > 0; offset /= 2)
    v = op(v, __shfl_xor_sync(kFullMask, v, offset));
  return v;
}

struct WarpSumOp {
  template <class T>
  __device__ __forceinline__ T operator()(T a, T b) const { return a + b; }
};
struct WarpMinOp {
  template <class T>
  __device__ __forceinline__ T operator()(T a, T b) const { return b < a ? b : a; }
};
struct WarpOrOp {
  template <class T>
  __device__ __forceinline__ T operator()(T a, T b) const { return a | b; }
};

template <class T>
__device__ __forceinline__ T warpSum(T v) { return warpReduce(v, WarpSumOp{}); }
template <class T>
__device__ __forceinline__ T warpMin(T v) { return warpReduce(v, WarpMinOp{}); }
template <class T>
__device__ __forceinline__ T warpOr(T v) { return warpReduce(v, WarpOrOp{}); }
#endif  // __CUDACC__

}  // namespace star::cuda
