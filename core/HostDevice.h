// Marks for code that both the host compiler and nvcc compile (for the host and for the GPU): the
// code that the CPU backend, the parallel-loop executors and the device engine share.
//   STAR_HD      small functions, inlined on both sides
//   STAR_HD_FN   larger ones (defined in headers: implicitly inline templates or `inline`)
#pragma once

//   STAR_HD_OUTLINE  never inlined: a large body called from many places (compiled code's calls
//                    into the interpreter's instructions), which would otherwise be copied into
//                    every one of them
#if defined(__CUDACC__)
#define STAR_HD __host__ __device__ __forceinline__
#define STAR_HD_FN __host__ __device__
#define STAR_HD_OUTLINE __host__ __device__ __noinline__
#else
#define STAR_HD inline
#define STAR_HD_FN
#define STAR_HD_OUTLINE __attribute__((noinline))
#endif
