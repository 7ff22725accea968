// <cstdint>'s types, also under NVRTC, which has no standard headers: the headers that kernels
// generated at run time include (core/CheckedMath.h, core/HostFloat.h, vm/semantics/Scalar.h)
// take their integer types from here.
#pragma once

#if defined(__CUDACC_RTC__)
namespace std {
using int8_t = signed char;
using uint8_t = unsigned char;
using int32_t = int;
using uint32_t = unsigned int;
using int64_t = long long;
using uint64_t = unsigned long long;
}  // namespace std
#else
#include <cstdint>
#endif
