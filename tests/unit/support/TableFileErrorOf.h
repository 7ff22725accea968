// The message of the TableFileError a file reader throws, for the tests of vm/io/.
#pragma once

#include <string>

#include "vm/io/TableText.h"

namespace startest {

// The error message of `f`, or "" when it throws nothing.
template <typename F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const star::TableFileError& e) {
    return e.what();
  }
  return "";
}

}  // namespace startest
