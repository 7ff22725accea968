// The opcode enum and its metadata, generated from Opcodes.def.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/HostDevice.h"

namespace star {

enum class Op : std::uint8_t {
#define OP(name, shape, access, doc) name,
#include "vm/bytecode/Opcodes.def"
  Count_
};

inline constexpr std::uint32_t kOpCount = static_cast<std::uint32_t>(Op::Count_);
// A register operand with this bit set names a global slot instead of a frame register.
inline constexpr std::uint32_t kGlobalBit = 0x80000000u;

struct OpInfo {
  std::string_view name;
  std::string_view shape;   // operand letters, see Opcodes.def
  std::string_view access;  // per operand: - read, w written, u updated in part
  std::string_view doc;
};

inline constexpr OpInfo kOpInfo[] = {
#define OP(name, shape, access, doc) {#name, shape, access, doc},
#include "vm/bytecode/Opcodes.def"
};

inline const OpInfo& opInfo(Op op) { return kOpInfo[static_cast<std::uint32_t>(op)]; }

// Every access string has one letter per operand (checked when this header is compiled).
constexpr bool accessMatchesShape() {
  for (const OpInfo& i : kOpInfo)
    if (i.access.size() != i.shape.size()) return false;
  return true;
}
static_assert(accessMatchesShape(), "Opcodes.def: an access string differs in length from its shape");
// Code words an instruction takes: the opcode and one word per operand.
inline std::uint32_t instrSize(Op op) {
  return 1 + static_cast<std::uint32_t>(opInfo(op).shape.size());
}

// The same, usable on the GPU (the device engine decodes with it).
STAR_HD constexpr std::uint32_t operandCount(Op op) {
  switch (op) {
#define OP(name, shape, access, doc) \
  case Op::name:                     \
    return sizeof(shape) - 1;
#include "vm/bytecode/Opcodes.def"
    default:
      return 0;
  }
}

// Whether an operand of this shape letter names a register (Opcodes.def lists the letters).
inline constexpr bool isRegisterShape(char c) {
  return c == 'r' || c == 's' || c == 'b' || c == 'T' || c == 'p' || c == 'q' || c == 'a' ||
         c == 'm' || c == 'w' || c == 'c' || c == 'o';
}

// Tags of WRITE and of module values.
enum class ValueTag : std::uint8_t { Integer = 0, Boolean, String, Real, Bits, Table };

}  // namespace star
