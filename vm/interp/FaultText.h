// The messages of run-time errors that both the interpreter and parallel loops report (one text
// each, so that a loop run in parallel reports exactly what its sequential code would).
#pragma once

#include <cstdint>
#include <string>

#include "vm/bytecode/Opcodes.h"
#include "vm/semantics/Scalar.h"

namespace star {

// "integer overflow in '+'" for IADD, ISUB, IMUL, INEG, IDIV, IABS.
std::string overflowMessage(Op op);
// "column 7 is out of range 1..5", "index 0 is out of range (it has no components)".
std::string indexMessage(const char* what, std::int64_t i, std::uint64_t limit);
// What an index operand of op is called in its message: "index", "column", "row".
const char* indexWhat(Op op);
std::string componentMessage(std::int64_t v);
// TRUNC and ROUND of a real that has no 64-bit integer value (nan, infinities, too large).
std::string wholeMessage(const char* name, double x);
// The message of a scalar operation's fault (vm/semantics/ScalarOps.h): overflow, division by
// zero, a real with no integer value; x is the first operand's word.
std::string scalarFaultMessage(Op op, FaultKind kind, std::uint64_t x);

}  // namespace star
