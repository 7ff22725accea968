#include <bit>

#include "vm/natives/NativeCall.h"

namespace star {
namespace {

using Entry = bool (*)(const NativeCall&);
constexpr Entry kEntries[] = {
#define NATIVE(id, name, params, doc) &native##id,
#include "core/Natives.def"
};

}  // namespace

bool runNative(NativeId id, Backend& backend, const std::uint64_t* slots,
               const std::vector<std::uint8_t>& fixed) {
  NativeKernels* kernels = backend.nativeKernels();
  if (!kernels) return false;
  NativeCall call{backend, *kernels, {}, fixed};
  const NativeInfo& info = nativeInfo(id);
  for (std::size_t k = 0; k < info.params.size(); ++k) {
    NativeArg& a = call.args[k];
    switch (info.params[k].kind) {
      case 'I':
        a.i = static_cast<std::int64_t>(slots[k]);
        break;
      case 'R':
        a.r = std::bit_cast<double>(slots[k]);
        break;
      case 'B':
        a.b = slots[k] != 0;
        break;
      default:
        a.h = static_cast<Handle>(slots[k]);
        break;  // L, W, T
    }
  }
  return kEntries[static_cast<std::size_t>(id)](call);
}

// ---- unit graphs

bool nativeTransitiveClosure(const NativeCall& call) {
  return call.kernels.transitiveClosure(call.args[0].h);
}

// ---- unit dynpaths

namespace {
// CLOSURE_INSERT / CLOSURE_DELETE(var A, C; u, v): the cases where the body stops with an error
// (shapes, vertices outside 1..n; the arc's own cases the backend declines), and A and C being
// one table, run the body.
bool closureUpdate(const NativeCall& call, bool insert) {
  const auto& a = call.args;
  Backend& b = call.backend;
  const Handle adjacency = a[0].h, closure = a[1].h;
  const std::uint64_t n = b.rows(adjacency);
  if (adjacency == closure || b.cols(adjacency) != n || b.rows(closure) != n ||
      b.cols(closure) != n)
    return false;
  const std::int64_t u = a[2].i, v = a[3].i;
  if (u < 1 || v < 1 || static_cast<std::uint64_t>(u) > n || static_cast<std::uint64_t>(v) > n)
    return false;
  const auto tail = static_cast<std::uint64_t>(u - 1), head = static_cast<std::uint64_t>(v - 1);
  return insert ? call.kernels.closureInsert(adjacency, closure, tail, head)
                : call.kernels.closureDelete(adjacency, closure, tail, head);
}
}  // namespace

bool nativeClosureInsert(const NativeCall& call) {
  return closureUpdate(call, true);
}
bool nativeClosureDelete(const NativeCall& call) {
  return closureUpdate(call, false);
}

// ---- unit assoc

// ASSOC_EXTF(var T; X; first, len; wantMax; var Z): the cases where its body stops with an error
// run the body instead.
bool nativeExtremeRows(const NativeCall& call) {
  const auto& a = call.args;
  Backend& b = call.backend;
  const Handle t = a[0].h, x = a[1].h, z = a[5].h;
  const std::int64_t first = a[2].i, len = a[3].i;
  const std::uint64_t rows = b.rows(t), cols = b.cols(t);
  if (b.length(x) != rows || len < 0 || (call.isFixed(z) && b.length(z) != rows)) return false;
  if (len > 0 &&
      (first < 1 || static_cast<std::uint64_t>(first - 1) + static_cast<std::uint64_t>(len) > cols))
    return false;
  return call.kernels.extremeRows(t, x, static_cast<std::uint64_t>(len > 0 ? first - 1 : 0),
                                  static_cast<std::uint64_t>(len), a[4].b, z);
}

namespace {
// ADDWF/SUBWF(var T; X; first; v).
bool fieldArithmetic(const NativeCall& call, bool subtract) {
  const auto& a = call.args;
  Backend& b = call.backend;
  const Handle t = a[0].h, x = a[1].h, v = a[3].h;
  const std::int64_t first = a[2].i;
  const std::uint64_t len = b.length(v);
  if (b.length(x) != b.rows(t) || len == 0 || first < 1 ||
      static_cast<std::uint64_t>(first - 1) + len > b.cols(t))
    return false;  // the body reports the error (or, for an empty v, does nothing)
  return call.kernels.addField(t, x, static_cast<std::uint64_t>(first - 1), v, subtract);
}
}  // namespace

bool nativeAddField(const NativeCall& call) {
  return fieldArithmetic(call, false);
}
bool nativeSubField(const NativeCall& call) {
  return fieldArithmetic(call, true);
}

}  // namespace star
