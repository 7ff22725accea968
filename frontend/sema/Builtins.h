// Builtin procedures and functions, generated from Builtins.def.
#pragma once

#include <string_view>

namespace star {

enum class Builtin : int {
#define BUILTIN(id, name, minArgs, maxArgs, sig) id,
#include "frontend/sema/Builtins.def"
  Count_
};

struct BuiltinInfo {
  std::string_view name;  // upper case
  int minArgs, maxArgs;
  std::string_view signature;
};

inline constexpr BuiltinInfo kBuiltins[] = {
#define BUILTIN(id, name, minArgs, maxArgs, sig) {name, minArgs, maxArgs, sig},
#include "frontend/sema/Builtins.def"
};

inline const BuiltinInfo& builtinInfo(Builtin b) { return kBuiltins[static_cast<int>(b)]; }
// The builtin with this (case-insensitive) name, or -1.
int findBuiltin(std::string_view name);
// A builtin procedure (SET, WRITELN, LOAD, ...): it has no value.
bool isStatementLikeBuiltin(Builtin b);

}  // namespace star
