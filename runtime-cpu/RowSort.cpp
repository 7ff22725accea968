// SORT and SEGSORT on the host. The table is column-major, so rows are first turned into
// row-major words by 64 x 64 bit transposes (only the 64-row blocks holding a marked row), the
// keys are read from those words, the (key, row) records are sorted, the rows are moved as whole
// words, and the touched blocks are transposed back.
#include "runtime-cpu/RowSort.h"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <new>
#include <stdexcept>
#include <utility>
#include <vector>

namespace star::cpu {
namespace {

using Word = std::uint64_t;

// a[i] bit j := a[j] bit i (block swaps of halves, quarters, ...; Hacker's Delight 7-3).
void transpose64(Word* a) {
  Word m = 0x00000000FFFFFFFFull;
  for (int j = 32; j != 0; j >>= 1, m ^= (m << j)) {
    for (int k = 0; k < 64; k = ((k | j) + 1) & ~j) {
      const Word t = ((a[k] >> j) ^ a[k | j]) & m;
      a[k] ^= t << j;
      a[k | j] ^= t;
    }
  }
}

// Bits [lo, hi) of a bit vector contain a 1.
bool anyInRange(const Word* v, std::uint64_t lo, std::uint64_t hi) {
  while (lo < hi) {
    const std::uint64_t q = lo / 64, s = lo % 64;
    const std::uint64_t n = std::min<std::uint64_t>(64 - s, hi - lo);
    const Word m = n == 64 ? ~Word{0} : ((Word{1} << n) - 1) << s;
    if (v[q] & m) return true;
    lo += n;
  }
  return false;
}

// The unsigned number whose order is the field's order as `kind` reads it (reversed when
// descending): signed flips the sign bit; float inverts every bit of a negative number and
// flips the sign bit of a positive one (IEEE totalOrder).
Word orderKey(Word field, std::uint64_t len, KeyKind kind, bool descending) {
  const Word mask = len == 64 ? ~Word{0} : (Word{1} << len) - 1;
  const Word sign = Word{1} << (len - 1);
  if (kind == KeyKind::Signed)
    field ^= sign;
  else if (kind == KeyKind::Float)
    field = (field & sign) ? ~field & mask : field ^ sign;
  return descending ? ~field & mask : field;
}

template <class Index>
struct Rec {
  Word key;
  Index src;  // the row of the record in the row-major copy
};

// Stable sort by key of records that arrive in row order: a key tie is decided by src.
template <class Index>
void sortSmall(Rec<Index>* b, Rec<Index>* e) {
  std::sort(b, e, [](const Rec<Index>& x, const Rec<Index>& y) {
    return x.key != y.key ? x.key < y.key : x.src < y.src;
  });
}

// LSD radix sort on the key's low `len` bits, 8 bits per pass; passes where every record has the
// same digit are skipped. Stable, so records in row order stay in row order among equal keys.
template <class Index>
void sortRadix(Rec<Index>* b, Rec<Index>* e, std::uint64_t len, std::vector<Rec<Index>>& tmp) {
  const std::size_t n = static_cast<std::size_t>(e - b);
  const unsigned passes = static_cast<unsigned>((len + 7) / 8);
  std::vector<std::array<std::size_t, 256>> count(passes);
  for (auto& c : count) c.fill(0);
  for (const Rec<Index>* r = b; r != e; ++r)
    for (unsigned p = 0; p < passes; ++p) ++count[p][(r->key >> (8 * p)) & 0xFF];
  if (tmp.size() < n) tmp.resize(n);
  Rec<Index>* from = b;
  Rec<Index>* to = tmp.data();
  for (unsigned p = 0; p < passes; ++p) {
    auto& c = count[p];
    if (std::find(c.begin(), c.end(), n) != c.end()) continue;  // one digit value only
    std::size_t sum = 0;
    for (auto& x : c) sum += std::exchange(x, sum);
    for (std::size_t i = 0; i < n; ++i) to[c[(from[i].key >> (8 * p)) & 0xFF]++] = from[i];
    std::swap(from, to);
  }
  if (from != b) std::copy_n(from, n, b);
}

template <class Index>
void sortRowsImpl(Word* table, std::uint64_t rows, std::uint64_t cols, const Word* x,
                    const Word* heads, std::uint64_t first, std::uint64_t len, KeyKind kind,
                    bool descending) {
  const std::uint64_t wpc = wordsForBits(rows);
  const std::uint64_t rw = wordsForBits(cols);  // words per row of the row-major copy
  std::vector<std::uint64_t> blocks;              // the 64-row blocks holding a marked row
  for (std::uint64_t q = 0; q < wpc; ++q)
    if (x[q] != 0) blocks.push_back(q);
  if (blocks.empty()) return;

  // Row-major copy of the active blocks: row 64 s + r of it is row 64 blocks[s] + r of the table.
  // (Blocks innermost: 64 columns are read as 64 sequential streams.)
  std::vector<Word> rm(blocks.size() * 64 * rw);
  std::array<Word, 64> tile;
  for (std::uint64_t c0 = 0; c0 < cols; c0 += 64) {
    for (std::size_t s = 0; s < blocks.size(); ++s) {
      for (std::uint64_t i = 0; i < 64; ++i)
        tile[i] = c0 + i < cols ? table[(c0 + i) * wpc + blocks[s]] : 0;
      transpose64(tile.data());
      for (std::uint64_t r = 0; r < 64; ++r) rm[(s * 64 + r) * rw + c0 / 64] = tile[r];
    }
  }

  // One record per marked row, in row order; dst[k] is where the k-th record in key order goes.
  std::uint64_t marked = 0;
  for (const std::uint64_t q : blocks) marked += static_cast<unsigned>(std::popcount(x[q]));
  std::vector<Rec<Index>> recs;
  std::vector<Index> dst;
  recs.reserve(marked);
  dst.reserve(marked);
  std::vector<std::size_t> groupStart{0};
  std::uint64_t prevRow = 0;
  const std::uint64_t q0 = first / 64, sh = first % 64;
  for (std::size_t s = 0; s < blocks.size(); ++s) {
    for (Word m = x[blocks[s]]; m != 0; m &= m - 1) {
      const std::uint64_t r = static_cast<unsigned>(std::countr_zero(m));
      const std::uint64_t row = blocks[s] * 64 + r;
      const Index at = static_cast<Index>(s * 64 + r);
      if (heads && !recs.empty() && anyInRange(heads, prevRow + 1, row + 1))
        groupStart.push_back(recs.size());
      prevRow = row;
      const Word* w = &rm[static_cast<std::size_t>(at) * rw];
      Word window = w[q0] >> sh;  // bit i = column first + i
      if (sh != 0 && q0 + 1 < rw) window |= w[q0 + 1] << (64 - sh);
      const Word field = reverseBits(window) >> (64 - len);  // column first is the top bit
      recs.push_back({orderKey(field, len, kind, descending), at});
      dst.push_back(at);
    }
  }
  groupStart.push_back(recs.size());

  std::vector<Rec<Index>> tmp;
  for (std::size_t g = 0; g + 1 < groupStart.size(); ++g) {
    Rec<Index>* b = recs.data() + groupStart[g];
    Rec<Index>* e = recs.data() + groupStart[g + 1];
    if (e - b <= 1024)
      sortSmall(b, e);
    else
      sortRadix(b, e, len, tmp);
  }

  // Move whole rows: gather the rows that move, then write them to their marked positions.
  std::size_t moving = 0;
  for (std::size_t k = 0; k < recs.size(); ++k) moving += recs[k].src != dst[k];
  std::vector<Word> moved(moving * rw);
  Word* out = moved.data();
  for (std::size_t k = 0; k < recs.size(); ++k)
    if (recs[k].src != dst[k]) {
      std::copy_n(&rm[static_cast<std::size_t>(recs[k].src) * rw], rw, out);
      out += rw;
    }
  const Word* in = moved.data();
  for (std::size_t k = 0; k < recs.size(); ++k)
    if (recs[k].src != dst[k]) {
      std::copy_n(in, rw, &rm[static_cast<std::size_t>(dst[k]) * rw]);
      in += rw;
    }

  // Back to columns; unmarked rows of the blocks (and the zero bits past the last row) come back
  // unchanged.
  for (std::uint64_t c0 = 0; c0 < cols; c0 += 64) {
    for (std::size_t s = 0; s < blocks.size(); ++s) {
      for (std::uint64_t r = 0; r < 64; ++r) tile[r] = rm[(s * 64 + r) * rw + c0 / 64];
      transpose64(tile.data());
      for (std::uint64_t i = 0; i < 64 && c0 + i < cols; ++i)
        table[(c0 + i) * wpc + blocks[s]] = tile[i];
    }
  }
}

}  // namespace

bool sortTableRows(std::uint64_t* table, std::uint64_t rows, std::uint64_t cols,
                     const std::uint64_t* x, const std::uint64_t* heads, std::uint64_t first,
                     std::uint64_t len, KeyKind kind, bool descending) {
  const bool lenOk = kind == KeyKind::Float ? (len == 32 || len == 64) : (len >= 1 && len <= 64);
  if (!lenOk || first + len > cols || first + len < first) return false;
  try {
    // Rows of the row-major copy are numbered by 32 bits while they fit.
    if (wordsForBits(rows) * 64 <= std::numeric_limits<std::uint32_t>::max())
      sortRowsImpl<std::uint32_t>(table, rows, cols, x, heads, first, len, kind, descending);
    else
      sortRowsImpl<std::uint64_t>(table, rows, cols, x, heads, first, len, kind, descending);
  } catch (const std::bad_alloc&) {
    throw BackendError("cpu backend: out of memory");
  } catch (const std::length_error&) {
    throw BackendError("cpu backend: table too large");
  }
  return true;
}

}  // namespace star::cpu
