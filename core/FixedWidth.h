// <cstdint>'s types, also under NVRTC, which has no standard headers (NVRTC's <cstdint> is this): the headers that kernels
// generated at run time include (core/CheckedMath.h, core/HostFloat.h, vm/semantics/Scalar.h)
// take their integer types from here.
#pragma once

#if defined(__CUDACC_RTC__)
// As glibc's on LP64 (long, not long long, for 64 bits): the functions generated code links against
// (runtime-cuda/kernels/CompiledLibrary.cu, built by nvcc) are known by names that spell them.
namespace std {
using int8_t = signed char;
using uint8_t = unsigned char;
using int16_t = short;
using uint16_t = unsigned short;
using int32_t = int;
using uint32_t = unsigned int;
using int64_t = long;
using uint64_t = unsigned long;
using uintptr_t = unsigned long;
}  // namespace std
#else
#include <cstdint>
#endif
