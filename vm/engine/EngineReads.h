// The instructions that read a value's shape or bits into a scalar (BGET, BLEN, VAL, SVAL, FVAL,
// ROWS, COLS), once: the device engine's leader and compiled code (where every thread reads)
// call these. Each gives the scalar, or false where the host must report an error.
#pragma once

#include <cstdint>

#include "core/BitLayout.h"
#include "core/CheckedMath.h"
#include "core/HostFloat.h"
#include "vm/bytecode/Opcodes.h"
#include "vm/engine/EngineLayout.h"
#include "vm/semantics/Scalar.h"

namespace star::engine {

// Whether `op` is one of them.
STAR_HD constexpr bool isShapeRead(Op op) {
  return op == Op::BGET || op == Op::BLEN || op == Op::WVAL || op == Op::WSVAL || op == Op::WFVAL ||
         op == Op::TROWS || op == Op::TCOLS;
}

// x's value as `op` reads it; `index` is BGET's (1-based), ignored by the others.
STAR_HD bool readShape(Op op, const Shape& x, std::int64_t index, Word& out) {
  switch (op) {
    case Op::BGET: {
      if (!sem::inRange(index, x.rows)) return false;
      const std::uint64_t bit = static_cast<std::uint64_t>(index - 1);
      out = (x.data[bit / 64] >> (bit % 64)) & 1;
      return true;
    }
    case Op::BLEN:
    case Op::TROWS:
      out = x.rows;
      return true;
    case Op::TCOLS:
      out = x.cols;
      return true;
    default:
      break;
  }
  const std::uint64_t len = x.rows;
  if (op == Op::WVAL && len > 63) return false;
  if (op == Op::WSVAL && (len < 1 || len > 64)) return false;
  if (op == Op::WFVAL && len != 32 && len != 64) return false;
  const Word v = len ? wordToNumber(x.data[0], len) : 0;
  if (op == Op::WVAL)
    out = v;
  else if (op == Op::WSVAL)
    out = static_cast<Word>(signExtend(v, static_cast<unsigned>(len)));
  else
    out = len == 32 ? realBitsOf(floatBitsToReal(static_cast<std::uint32_t>(v))) : v;
  return true;
}

}  // namespace star::engine
