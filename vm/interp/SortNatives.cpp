#include "vm/interp/SortNatives.h"

namespace star {

// Arguments: SORT(var T; X; first, len, kind; descending) and SEGSORT(var T; X, H; first, len,
// kind; descending) of stdlib/sort.star. Every case where the Star body stops with an error (a
// slice of another length, a kind other than 0..2, a key length the kind does not allow, a field
// outside the table) declines, so that the body runs and reports it.
bool runSortNative(const std::string& name, Backend& backend, const std::uint64_t* args,
                   std::size_t count, const std::function<bool(Handle)>&) {
  const bool segmented = name == "segsort_rows";
  if (count != (segmented ? 7u : 6u)) return false;
  const auto t = static_cast<Handle>(args[0]), x = static_cast<Handle>(args[1]);
  const Handle heads = segmented ? static_cast<Handle>(args[2]) : kNoHandle;
  const std::uint64_t* scalars = args + (segmented ? 3 : 2);
  const auto first = static_cast<std::int64_t>(scalars[0]);
  const auto len = static_cast<std::int64_t>(scalars[1]);
  const auto kind = static_cast<std::int64_t>(scalars[2]);
  const bool descending = scalars[3] != 0;

  const std::uint64_t rows = backend.rows(t), cols = backend.cols(t);
  if (backend.length(x) != rows || (segmented && backend.length(heads) != rows)) return false;
  if (kind < 0 || kind > 2) return false;
  if (kind == 2 ? (len != 32 && len != 64) : (len < 1 || len > 64)) return false;
  if (first < 1 || static_cast<std::uint64_t>(first - 1) + static_cast<std::uint64_t>(len) > cols)
    return false;

  const auto k = static_cast<KeyKind>(kind);
  const auto f = static_cast<std::uint64_t>(first - 1), l = static_cast<std::uint64_t>(len);
  return segmented ? backend.segsortRows(t, x, heads, f, l, k, descending)
                   : backend.sortRows(t, x, f, l, k, descending);
}

}  // namespace star
