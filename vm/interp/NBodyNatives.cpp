#include "vm/interp/NBodyNatives.h"

namespace star {

bool runNBodyNative(const std::string&, Backend&, const std::uint64_t*, std::size_t,
                   const std::function<bool(Handle)>&) {
  return false;  // placeholder
}

}  // namespace star
