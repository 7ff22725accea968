// The native procedures (core/Natives.def), as the checker, the module loader and the VM see
// them: a name resolves to a NativeId once, when a module is compiled or loaded.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace star {

enum class NativeId : std::uint8_t {
#define NATIVE(id, name, params, doc) id,
#include "core/Natives.def"
  Count_
};

// No native takes more parameters (NativeTable.cpp checks the table against it).
inline constexpr std::size_t kMaxNativeParams = 8;

// One parameter of a native procedure.
struct NativeParam {
  char kind = 'I';     // I R B L W T, as in Natives.def
  bool byRef = false;  // a `var` parameter
};

struct NativeInfo {
  std::string_view name;
  std::vector<NativeParam> params;
  std::string_view doc;
  // "var T: table; X: slice; first: integer": the parameter list as a procedure declares it.
  std::string describeParams() const;
};

std::span<const NativeInfo> natives();
inline const NativeInfo& nativeInfo(NativeId id) { return natives()[static_cast<std::size_t>(id)]; }
// The native called `name`, or -1.
int findNative(std::string_view name);
// "transitive_closure, extreme_rows, ...": every name, for messages.
std::string nativeNames();

}  // namespace star
