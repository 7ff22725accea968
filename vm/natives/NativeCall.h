// Running native procedures (core/Natives.def): a CALL of a procedure whose module function has a
// NativeId goes to runNative, which decodes the argument slots by the native's parameter kinds
// and calls its entry, native<Id>. An entry checks what the Star body would reject (and declines
// then, so that the body runs and reports the error), then calls the backend's NativeKernels.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/NativeTable.h"
#include "vm/backend/Backend.h"
#include "vm/backend/NativeKernels.h"

namespace star {

// One decoded argument: a handle (slices, words, tables), an integer, a real or a boolean.
struct NativeArg {
  Handle h = kNoHandle;
  std::int64_t i = 0;
  double r = 0;
  bool b = false;
};

struct NativeCall {
  Backend& backend;
  NativeKernels& kernels;
  std::array<NativeArg, kMaxNativeParams> args;
  const std::vector<std::uint8_t>& fixed;  // per handle: its shape is fixed by a declaration

  bool isFixed(Handle h) const { return h < fixed.size() && fixed[h] != 0; }
};

// Runs native `id` on the raw argument slots of a call (as many as its parameters): true when it
// ran, false when the Star body must run instead (no kernels, or the native declined).
bool runNative(NativeId id, Backend& backend, const std::uint64_t* slots,
               const std::vector<std::uint8_t>& fixed);

#define NATIVE(id, name, params, doc) bool native##id(const NativeCall& call);
#include "core/Natives.def"

}  // namespace star
