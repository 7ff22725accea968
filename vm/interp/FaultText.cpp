#include "vm/interp/FaultText.h"

#include <cmath>

#include "vm/io/NumericText.h"

namespace star {

std::string overflowMessage(Op op) {
  switch (op) {
    case Op::IADD: return "integer overflow in '+'";
    case Op::ISUB: case Op::INEG: return "integer overflow in '-'";
    case Op::IMUL: return "integer overflow in '*'";
    case Op::IDIV: return "integer overflow in 'div'";
    case Op::IABS: return "integer overflow in ABS";
    default: return "integer overflow";
  }
}

std::string indexMessage(const char* what, std::int64_t i, std::uint64_t limit) {
  return std::string(what) + " " + std::to_string(i) + " is out of range " +
         (limit ? "1.." + std::to_string(limit) : std::string("(it has no components)"));
}

const char* indexWhat(Op op) {
  switch (op) {
    case Op::TGETCOL: case Op::TSETCOL: return "column";
    case Op::TGETROW: case Op::TSETROW: return "row";
    default: return "index";
  }
}

std::string componentMessage(std::int64_t v) { return "a component is 0 or 1, not " + std::to_string(v); }

std::string wholeMessage(const char* name, double x) {
  if (std::isnan(x)) return std::string(name) + "(nan) has no integer value";
  return std::string(name) + "(" + shortestText(x) + "): the result does not fit in 64 bits";
}

std::string scalarFaultMessage(Op op, FaultKind kind, std::uint64_t x) {
  switch (kind) {
    case FaultKind::Overflow: return overflowMessage(op);
    case FaultKind::DivisionByZero: return "division by zero";
    case FaultKind::NotAnInteger: return wholeMessage(op == Op::FTRUNC ? "TRUNC" : "ROUND", realFromBits(x));
    default: return "invalid operation";  // no scalar operation faults otherwise
  }
}

}  // namespace star
