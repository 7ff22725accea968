// Bit arithmetic of the row sort (RowSort.cu, SegmentedSort.cu): the order-preserving transform
// of a key field, the 32 x 32 bit transpose that turns 32 column words into 32 row words, and the
// order in which a sort visits a table's columns. Pure functions, usable on the host too, so they
// are checked without a GPU.
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/BitMath.h"
#include "vm/backend/NativeKernels.h"

// Full unrolling keeps the 32-word arrays in registers (device code only: the host compiler would
// warn about the pragma).
#if defined(__CUDA_ARCH__)
#define STAR_SORT_UNROLL _Pragma("unroll")
#else
#define STAR_SORT_UNROLL
#endif

namespace star::cuda {

// How a key field of `len` bits (1..64) is ordered: as `kind` reads it, reversed when descending.
struct KeyOrder {
  std::uint64_t mask;  // the field's bits: the low len bits
  std::uint64_t sign;  // its top bit
  KeyKind kind;
  bool descending;
};

STAR_HD KeyOrder makeKeyOrder(std::uint64_t len, KeyKind kind, bool descending) {
  const std::uint64_t mask = len >= 64 ? kAllOnes : (std::uint64_t{1} << len) - 1;
  return KeyOrder{mask, std::uint64_t{1} << (len - 1), kind, descending};
}

// The unsigned number whose order is the field's order: signed flips the sign bit; float inverts
// a negative number and flips the sign bit of a positive one (IEEE totalOrder: -NaN < -inf < -0 <
// +0 < +inf < +NaN); descending then inverts the field. Equal fields stay equal, so a stable sort
// of these numbers is the stable sort the contract asks for.
STAR_HD std::uint64_t toOrder(std::uint64_t field, const KeyOrder& o) {
  if (o.kind == KeyKind::Signed) {
    field ^= o.sign;
  } else if (o.kind == KeyKind::Float) {
    field = (field & o.sign) ? ~field & o.mask : field ^ o.sign;
  }
  return o.descending ? ~field & o.mask : field;
}

// The inverse of toOrder.
STAR_HD std::uint64_t fromOrder(std::uint64_t key, const KeyOrder& o) {
  if (o.descending) key = ~key & o.mask;
  if (o.kind == KeyKind::Signed) {
    key ^= o.sign;
  } else if (o.kind == KeyKind::Float) {
    key = (key & o.sign) ? key ^ o.sign : ~key & o.mask;
  }
  return key;
}

STAR_HD std::uint64_t min64(std::uint64_t a, std::uint64_t b) {
  return a < b ? a : b;
}

STAR_HD std::uint32_t reverse32(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __brev(x);
#else
  return static_cast<std::uint32_t>(reverseBits(x) >> 32);
#endif
}

// One stage of transpose32: swaps the J x J blocks above and below the diagonal.
template <int J>
STAR_HD void transpose32Stage(std::uint32_t (&a)[32], std::uint32_t m) {
  STAR_SORT_UNROLL
  for (int b = 0; b < 32; b += 2 * J) {
    STAR_SORT_UNROLL
    for (int i = 0; i < J; ++i) {
      const std::uint32_t t = ((a[b + i] >> J) ^ a[b + i + J]) & m;
      a[b + i] ^= t << J;
      a[b + i + J] ^= t;
    }
  }
}

// a[i] bit j := a[j] bit i, for i, j < 32 (Hacker's Delight 7-3: halves, quarters, ...). With
// a[c] = 32 rows of column c it gives a[r] = 32 columns of row r, and back.
STAR_HD void transpose32(std::uint32_t (&a)[32]) {
  transpose32Stage<16>(a, 0x0000FFFFu);
  transpose32Stage<8>(a, 0x00FF00FFu);
  transpose32Stage<4>(a, 0x0F0F0F0Fu);
  transpose32Stage<2>(a, 0x33333333u);
  transpose32Stage<1>(a, 0x55555555u);
}

// The sort sees a table's columns in "logical" order: the key field's len columns first (column
// first + c is logical c), then the other columns in their order. Logical column c is physical
// column physicalColumn(c).
STAR_HD std::uint64_t physicalColumn(std::uint64_t c, std::uint64_t first, std::uint64_t len) {
  if (c < len) return first + c;
  return c - len < first ? c - len : c;
}

// A row's key field from its logical key columns: w holds logical columns 0..31 (bit j = column
// first + j), w_hi columns 32..63. Column first is the field's most significant bit.
STAR_HD std::uint64_t keyFromTiles(std::uint32_t w, std::uint32_t w_hi, std::uint64_t len) {
  if (len <= 32) return reverse32(w) >> (32 - len);
  return reverseBits(w | (std::uint64_t{w_hi} << 32)) >> (64 - len);
}

// The inverse: the logical key columns of a field (bits 0..31 = columns 0..31, 32..63 the rest).
STAR_HD std::uint64_t tilesFromKey(std::uint64_t field, std::uint64_t len) {
  if (len <= 32) return reverse32(static_cast<std::uint32_t>(field) << (32 - len));
  return reverseBits(field << (64 - len));
}

}  // namespace star::cuda
