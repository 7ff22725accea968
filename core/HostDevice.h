// Marks for code that both the host compiler and nvcc compile (for the host and for the GPU): the
// code that the CPU backend, the parallel-loop executors and the device engine share.
//   STAR_HD      small functions, inlined on both sides
//   STAR_HD_FN   larger ones (defined in headers: implicitly inline templates or `inline`)
#pragma once

#if defined(__CUDACC__)
#define STAR_HD __host__ __device__ __forceinline__
#define STAR_HD_FN __host__ __device__
#else
#define STAR_HD inline
#define STAR_HD_FN
#endif
