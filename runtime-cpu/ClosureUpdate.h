// CLOSURE_INSERT and CLOSURE_DELETE of unit dynpaths on the host (NativeKernels::closureInsert,
// closureDelete): the Star bodies' steps (stdlib/dynpaths.star) on the tables' words, in the
// bodies' order, so that they give the bodies' result whatever the tables hold.
#pragma once

#include <cstdint>

namespace star::cpu {

// A deletion, which may re-close a rectangle of the table pivot by pivot, stops at Ctrl-C
// (Interrupted) between pivots, as the body would.
// n-bit slices of scratch memory the updates need.
inline constexpr std::uint64_t kClosureUpdateSlices = 6;

// a, c: n x n tables, column-major packed bits (Backend.h); 0-based u, v < n; a != c. scratch:
// kClosureUpdateSlices * ceil(n / 64) words, not kept between calls. Each returns false,
// with nothing changed, where the body reports an error; the semantics are NativeKernels'.
bool closureInsertWords(std::uint64_t* a, std::uint64_t* c, std::uint64_t n, std::uint64_t u,
                        std::uint64_t v, std::uint64_t* scratch);
bool closureDeleteWords(std::uint64_t* a, std::uint64_t* c, std::uint64_t n, std::uint64_t u,
                        std::uint64_t v, std::uint64_t* scratch);

}  // namespace star::cpu
