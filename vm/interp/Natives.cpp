#include "vm/interp/Natives.h"

namespace star {

bool runNative(const std::string& name, Backend& backend, const std::uint64_t* args,
               std::size_t count) {
  if (name == "transitive_closure" && count == 1)
    return backend.transitive_closure(static_cast<Handle>(args[0]));
  return false;
}

}  // namespace star
