// What the interpreter's instruction files share for their run-time errors (one message per error:
// vm/interp/FaultText.h holds those the loop executors report too).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace star {

// A runtime error without a location yet; Interpreter::execute attaches the current instruction's.
struct Fault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A value that does not fit the fixed size of the variable (handle) it is stored in.
struct StoreFault : Fault {
  StoreFault(const std::string& message, std::uint32_t h) : Fault(message), handle(h) {}
  std::uint32_t handle;
};

inline std::string str(std::uint64_t v) { return std::to_string(v); }

}  // namespace star
