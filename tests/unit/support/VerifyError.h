// The verifier's message for a module, or "" when it verifies (for tests that build bad modules).
#pragma once

#include <string>

#include "vm/bytecode/Module.h"
#include "vm/bytecode/Verifier.h"

namespace star::test_support {

inline std::string verifyError(const Module& m) {
  try {
    verifyModule(m);
    return "";
  } catch (const ModuleFormatError& e) {
    return e.what();
  }
}

}  // namespace star::test_support
