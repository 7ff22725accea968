#include "vm/interp/Natives.h"

#include "vm/interp/NBodyNatives.h"
#include "vm/interp/SortNatives.h"

namespace star {

bool runNative(const std::string& name, Backend& backend, const std::uint64_t* args,
               std::size_t count, const std::function<bool(Handle)>& fixed) {
  if (name == "transitive_closure" && count == 1)
    return backend.transitiveClosure(static_cast<Handle>(args[0]));
  if (name == "extreme_rows" && count == 6) {
    auto t = static_cast<Handle>(args[0]), x = static_cast<Handle>(args[1]);
    auto z = static_cast<Handle>(args[5]);
    auto first = static_cast<std::int64_t>(args[2]), len = static_cast<std::int64_t>(args[3]);
    std::uint64_t rows = backend.rows(t), cols = backend.cols(t);
    // The cases where ASSOC_EXTF's body stops with an error run the body instead.
    if (backend.length(x) != rows || len < 0 || (fixed(z) && backend.length(z) != rows))
      return false;
    if (len > 0 && (first < 1 || static_cast<std::uint64_t>(first - 1) + static_cast<std::uint64_t>(len) > cols)) return false;
    return backend.extremeRows(t, x, static_cast<std::uint64_t>(len > 0 ? first - 1 : 0),
                                static_cast<std::uint64_t>(len), args[4] != 0, z);
  }
  if ((name == "add_field" || name == "sub_field") && count == 4) {
    auto t = static_cast<Handle>(args[0]), x = static_cast<Handle>(args[1]);
    auto v = static_cast<Handle>(args[3]);
    auto first = static_cast<std::int64_t>(args[2]);
    std::uint64_t len = backend.length(v);
    if (backend.length(x) != backend.rows(t) || len == 0 || first < 1 ||
        static_cast<std::uint64_t>(first - 1) + len > backend.cols(t))
      return false;  // the body reports the error (or, for an empty v, does nothing)
    return backend.addField(t, x, static_cast<std::uint64_t>(first - 1), v, name == "sub_field");
  }
  if (name == "sort_rows" || name == "segsort_rows")
    return runSortNative(name, backend, args, count, fixed);
  if (name.rfind("nbody_", 0) == 0) return runNBodyNative(name, backend, args, count, fixed);
  return false;
}

}  // namespace star
