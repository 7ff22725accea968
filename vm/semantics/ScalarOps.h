// The scalar instructions (Opcodes.def's Scalar and HostMath executor classes) on 64-bit register
// words: scalarOp<Op::IADD>(x, y, r) is IADD's meaning, the one that every executor runs. Each
// executor's dispatch expands its cases from vm/semantics/ScalarCases.inc, so that its switch
// keeps one case per opcode (no second dispatch) while the meaning stays here.
#pragma once

#include "vm/bytecode/Opcodes.h"
#include "vm/semantics/Scalar.h"

namespace star {

namespace sem {
// n by reference: read after the call that computes it (arguments' order is unspecified).
STAR_HD FaultKind integerResult(FaultKind fault, const Int& n, std::uint64_t& r) {
  r = static_cast<std::uint64_t>(n);
  return fault;
}
STAR_HD FaultKind realResult(double d, std::uint64_t& r) {
  r = realBitsOf(d);
  return FaultKind::None;
}
STAR_HD FaultKind booleanResult(bool b, std::uint64_t& r) {
  r = b;
  return FaultKind::None;
}
}  // namespace sem

// x and y are the words of the instruction's operand registers (y is ignored by a unary one);
// r receives the result's word unless the result is a fault.
template <Op op>
STAR_HD FaultKind scalarOp(std::uint64_t x, std::uint64_t y, std::uint64_t& r) {
  using namespace sem;
  static_assert(isScalarOp(op), "scalarOp: not a scalar instruction");
  const Int i = static_cast<Int>(x), j = static_cast<Int>(y);
  const double f = realFromBits(x), g = realFromBits(y);
  Int n = 0;
  if constexpr (op == Op::IADD) return integerResult(add(i, j, n), n, r);
  else if constexpr (op == Op::ISUB) return integerResult(subtract(i, j, n), n, r);
  else if constexpr (op == Op::IMUL) return integerResult(multiply(i, j, n), n, r);
  else if constexpr (op == Op::IDIV) return integerResult(divide(i, j, n), n, r);
  else if constexpr (op == Op::IMOD) return integerResult(modulo(i, j, n), n, r);
  else if constexpr (op == Op::INEG) return integerResult(negate(i, n), n, r);
  else if constexpr (op == Op::IABS) return integerResult(absolute(i, n), n, r);
  else if constexpr (op >= Op::IEQ && op <= Op::IGE)
    return booleanResult(compareIntegers(static_cast<unsigned>(op) - static_cast<unsigned>(Op::IEQ), i, j), r);
  else if constexpr (op >= Op::FEQ && op <= Op::FGE)
    return booleanResult(compareReals(static_cast<unsigned>(op) - static_cast<unsigned>(Op::FEQ), f, g), r);
  else if constexpr (op == Op::NOT) return integerResult(FaultKind::None, logicalNot(i), r);
  else if constexpr (op == Op::AND) return integerResult(FaultKind::None, logicalAnd(i, j), r);
  else if constexpr (op == Op::OR) return integerResult(FaultKind::None, logicalOr(i, j), r);
  else if constexpr (op == Op::XOR) return integerResult(FaultKind::None, logicalXor(i, j), r);
  else if constexpr (op == Op::FADD) return realResult(realAdd(f, g), r);
  else if constexpr (op == Op::FSUB) return realResult(realSubtract(f, g), r);
  else if constexpr (op == Op::FMUL) return realResult(realMultiply(f, g), r);
  else if constexpr (op == Op::FDIV) return realResult(realDivide(f, g), r);
  else if constexpr (op == Op::FNEG) return realResult(realNegate(f), r);
  else if constexpr (op == Op::FABS) return realResult(realAbsolute(f), r);
  else if constexpr (op == Op::FSQRT) return realResult(realSqrt(f), r);
  else if constexpr (op == Op::ITOF) return realResult(realFromInteger(i), r);
  else if constexpr (op == Op::FTRUNC) return integerResult(truncate(f, n), n, r);
  else if constexpr (op == Op::FROUND) return integerResult(roundHalfAway(f, n), n, r);
#if !defined(__CUDA_ARCH__)
  else if constexpr (op == Op::FEXP) return realResult(realExp(f), r);
  else if constexpr (op == Op::FLN) return realResult(realLn(f), r);
  else if constexpr (op == Op::FSIN) return realResult(realSin(f), r);
  else if constexpr (op == Op::FCOS) return realResult(realCos(f), r);
  else if constexpr (op == Op::FATAN) return realResult(realArctan(f), r);
  else if constexpr (op == Op::FPOW) return realResult(realPower(f, g), r);
#endif
  else static_assert(op == Op::Count_, "scalarOp: an opcode of the Scalar class without a meaning here");
}

// The same with the opcode known only at run time (the checker's constant folding).
#if !defined(__CUDA_ARCH__)
inline FaultKind scalarOp(Op op, std::uint64_t x, std::uint64_t y, std::uint64_t& r) {
  switch (op) {
#define STAR_SCALAR_CASE(name) \
  case Op::name: return scalarOp<Op::name>(x, y, r);
#define STAR_HOST_MATH_CASE(name) STAR_SCALAR_CASE(name)
#include "vm/semantics/ScalarCases.inc"
    default: return FaultKind::None;
  }
}
#endif

}  // namespace star
