// The natives of unit sort (stdlib/sort.star).
#include "vm/natives/NativeCall.h"

namespace star {
namespace {

// SORT(var T; X; first, len, kind; descending) and SEGSORT(var T; X, H; first, len, kind;
// descending). Every case where the Star body stops with an error (a slice of another length, a
// kind other than 0..2, a key length the kind does not allow, a field outside the table)
// declines, so that the body runs and reports it.
bool sortNative(const NativeCall& call, bool segmented) {
  const auto& a = call.args;
  Backend& b = call.backend;
  const Handle t = a[0].h, x = a[1].h;
  const Handle heads = segmented ? a[2].h : kNoHandle;
  const std::size_t s = segmented ? 3 : 2;  // the first scalar argument
  const std::int64_t first = a[s].i, len = a[s + 1].i, kind = a[s + 2].i;
  const bool descending = a[s + 3].b;

  const std::uint64_t rows = b.rows(t), cols = b.cols(t);
  if (b.length(x) != rows || (segmented && b.length(heads) != rows)) return false;
  if (kind < 0 || kind > 2) return false;
  if (kind == 2 ? (len != 32 && len != 64) : (len < 1 || len > 64)) return false;
  if (first < 1 || static_cast<std::uint64_t>(first - 1) + static_cast<std::uint64_t>(len) > cols)
    return false;

  const auto k = static_cast<KeyKind>(kind);
  const auto f = static_cast<std::uint64_t>(first - 1), l = static_cast<std::uint64_t>(len);
  return segmented ? call.kernels.segsortRows(t, x, heads, f, l, k, descending)
                   : call.kernels.sortRows(t, x, f, l, k, descending);
}

}  // namespace

bool nativeSortRows(const NativeCall& call) { return sortNative(call, false); }
bool nativeSegsortRows(const NativeCall& call) { return sortNative(call, true); }

}  // namespace star
