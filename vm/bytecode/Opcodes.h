// The opcode enum and its metadata, generated from Opcodes.def.
#pragma once

#include <cstdint>
#if !defined(__CUDACC_RTC__)
#include <string_view>
#endif

#include "core/HostDevice.h"

namespace star {

enum class Op : std::uint8_t {
#define OP(name, shape, access, executor, flags, doc) name,
#include "vm/bytecode/Opcodes.def"
  Count_
};

inline constexpr std::uint32_t kOpCount = static_cast<std::uint32_t>(Op::Count_);
// A register operand with this bit set names a global slot instead of a frame register.
inline constexpr std::uint32_t kGlobalBit = 0x80000000u;

inline constexpr std::uint32_t kOperandCountsPerWord = 21;  // 3 bits each (operandCount)

#if !defined(__CUDACC_RTC__)
// Who runs an instruction (Opcodes.def's executor column).
enum class Executor : std::uint8_t { Scalar, HostMath, Leader, Team, Host };

struct OpInfo {
  std::string_view name;
  std::string_view shape;   // operand letters, see Opcodes.def
  std::string_view access;  // per operand: - read, w written, u updated in part
  Executor executor;
  std::string_view flags;   // p f r and an index operand's digit, see Opcodes.def
  std::string_view doc;
};

inline constexpr OpInfo kOpInfo[] = {
#define OP(name, shape, access, executor, flags, doc) {#name, shape, access, Executor::executor, flags, doc},
#include "vm/bytecode/Opcodes.def"
};

constexpr const OpInfo& opInfo(Op op) { return kOpInfo[static_cast<std::uint32_t>(op)]; }

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

// The same, usable on the GPU (the device engine decodes with it). A switch over the opcodes
// compiles there to a tree of about seven compares and branches, which a lone interpreting thread
// pays at every instruction; instead the counts are packed 3 bits each, 21 to a 64-bit word, and
// one word is selected without a branch.
constexpr std::uint64_t packedOperandCounts(std::uint32_t word) {
  std::uint64_t w = 0;
  for (std::uint32_t i = 0; i < kOperandCountsPerWord; ++i) {
    const std::uint32_t op = word * kOperandCountsPerWord + i;
    if (op < kOpCount) w |= static_cast<std::uint64_t>(kOpInfo[op].shape.size()) << (3 * i);
  }
  return w;
}
#define STAR_OPERAND_COUNTS(k) packedOperandCounts(k)
#else
// NVRTC (the compiled tier's GPU build) has no <string_view>: the host passes the values it
// computed from the table above as macros (vm/compile/EmitCpp.h, deviceOpcodeDefines).
#define STAR_OPERAND_COUNTS(k) STAR_RTC_OPERAND_COUNTS_##k
#endif
inline constexpr std::uint64_t kOperandCounts0 = STAR_OPERAND_COUNTS(0), kOperandCounts1 = STAR_OPERAND_COUNTS(1),
                               kOperandCounts2 = STAR_OPERAND_COUNTS(2), kOperandCounts3 = STAR_OPERAND_COUNTS(3),
                               kOperandCounts4 = STAR_OPERAND_COUNTS(4), kOperandCounts5 = STAR_OPERAND_COUNTS(5);
#undef STAR_OPERAND_COUNTS
#if !defined(__CUDACC_RTC__)
static_assert(kOpCount <= 6 * kOperandCountsPerWord, "Opcodes.def: more opcodes than kOperandCounts* hold");
constexpr bool operandCountsFit() {
  for (const OpInfo& i : kOpInfo)
    if (i.shape.size() > 7) return false;
  return true;
}
static_assert(operandCountsFit(), "Opcodes.def: an instruction with more than 7 operands");

#endif

STAR_HD constexpr std::uint32_t operandCount(Op op) {
  const std::uint32_t o = static_cast<std::uint32_t>(op), word = o / kOperandCountsPerWord;
  const std::uint64_t w = word == 0 ? kOperandCounts0 : word == 1 ? kOperandCounts1 : word == 2 ? kOperandCounts2
                          : word == 3 ? kOperandCounts3 : word == 4 ? kOperandCounts4 : kOperandCounts5;
  return static_cast<std::uint32_t>(w >> (3 * (o % kOperandCountsPerWord))) & 7;
}

#if !defined(__CUDACC_RTC__)
// Whether an operand of this shape letter names a register (Opcodes.def lists the letters).
inline constexpr bool isRegisterShape(char c) {
  return c == 'r' || c == 's' || c == 'b' || c == 'T' || c == 'p' || c == 'q' || c == 'a' ||
         c == 'm' || c == 'w' || c == 'c' || c == 'o';
}

// ---- The predicates of Opcodes.def's executor and flags columns. Each is one bit of a 128-bit
// mask built when this header is compiled, so that the device engine tests it without a branch.
constexpr bool hasFlag(const OpInfo& i, char f) { return i.flags.find(f) != std::string_view::npos; }
struct OpMask {
  std::uint64_t lo = 0, hi = 0;
};
template <class Pred>
constexpr OpMask opMask(Pred pred) {
  OpMask m;
  for (std::uint32_t o = 0; o < kOpCount; ++o)
    if (pred(kOpInfo[o])) (o < 64 ? m.lo : m.hi) |= std::uint64_t{1} << (o % 64);
  return m;
}
static_assert(kOpCount <= 128, "Opcodes.def: more opcodes than an OpMask holds");
#endif
STAR_HD constexpr bool inMask(std::uint64_t lo, std::uint64_t hi, Op op) {
  const auto o = static_cast<std::uint32_t>(op);
  return ((o < 64 ? lo >> o : hi >> (o - 64)) & 1) != 0;
}
// Plain integers, which device code may read (a constexpr object it may not).
#if !defined(__CUDACC_RTC__)
#define STAR_OP_MASK(name, pred)                                 \
  inline constexpr std::uint64_t name##Lo = opMask(pred).lo;     \
  inline constexpr std::uint64_t name##Hi = opMask(pred).hi;
#else
#define STAR_OP_MASK(name, pred)                                 \
  inline constexpr std::uint64_t name##Lo = STAR_RTC_##name##Lo; \
  inline constexpr std::uint64_t name##Hi = STAR_RTC_##name##Hi;
#endif
STAR_OP_MASK(kScalarOps, [](const OpInfo& i) {
  return i.executor == Executor::Scalar || i.executor == Executor::HostMath;
})
STAR_OP_MASK(kTeamOps, [](const OpInfo& i) { return i.executor == Executor::Team; })
STAR_OP_MASK(kHostMathOps, [](const OpInfo& i) { return i.executor == Executor::HostMath; })
STAR_OP_MASK(kHostOps, [](const OpInfo& i) { return i.executor == Executor::Host; })
STAR_OP_MASK(kParallelOps, [](const OpInfo& i) { return hasFlag(i, 'p'); })
STAR_OP_MASK(kFaultingOps, [](const OpInfo& i) { return hasFlag(i, 'f'); })
STAR_OP_MASK(kBitReadingOps, [](const OpInfo& i) { return hasFlag(i, 'r'); })
STAR_OP_MASK(kNoFallThroughOps, [](const OpInfo& i) { return hasFlag(i, 'n'); })
STAR_OP_MASK(kLeavingOps, [](const OpInfo& i) { return hasFlag(i, 'x'); })
STAR_OP_MASK(kOwnedWriteOps, [](const OpInfo& i) { return hasFlag(i, 'o'); })
STAR_OP_MASK(kOwnedReductionOps, [](const OpInfo& i) { return hasFlag(i, 'v'); })
#undef STAR_OP_MASK

// The scalar operations: vm/semantics/ScalarOps.h gives their meaning.
STAR_HD constexpr bool isScalarOp(Op op) { return inMask(kScalarOpsLo, kScalarOpsHi, op); }
// The instructions every thread of the device engine's team takes part in: they write the bits
// of values or reduce them. The leader runs the others alone (they may read bits: earlier steps
// made them visible).
STAR_HD constexpr bool isTeamOp(Op op) { return inMask(kTeamOpsLo, kTeamOpsHi, op); }
// The transcendental functions: computed by the host's C library on every engine, so that a
// result is the same bits whatever runs the program (a GPU's exp, log, sin, cos, atan and pow
// differ from it in the last bit for some arguments). The device engine hands them to the host;
// the GPU's parallel-loop kernel leaves loops that hold them to the host's sequential run.
STAR_HD constexpr bool isHostMathOp(Op op) { return inMask(kHostMathOpsLo, kHostMathOpsHi, op); }
// The instructions the device engine always hands back (not worth a launch).
STAR_HD constexpr bool isHostOp(Op op) { return inMask(kHostOpsLo, kHostOpsHi, op); }
// The instructions a parallel loop's plan may contain.
STAR_HD constexpr bool isParallelOp(Op op) { return inMask(kParallelOpsLo, kParallelOpsHi, op); }
// Whether the result can fault on its operands' values (index faults aside).
STAR_HD constexpr bool canFault(Op op) { return inMask(kFaultingOpsLo, kFaultingOpsHi, op); }
// The instructions the engine's leader runs alone that read the bits of values. In a grid,
// another block may be ahead, already in the next instruction on the bits: that one must wait
// until every block's leader has read (EngineCore's pendingReads_).
STAR_HD constexpr bool leaderReadsBits(Op op) { return inMask(kBitReadingOpsLo, kBitReadingOpsHi, op); }
// Control flow: whether the next instruction may follow this one, and whether it leaves the function.
STAR_HD constexpr bool fallsThrough(Op op) { return !inMask(kNoFallThroughOpsLo, kNoFallThroughOpsHi, op); }
STAR_HD constexpr bool leavesFunction(Op op) { return inMask(kLeavingOpsLo, kLeavingOpsHi, op); }
// Owned instructions (compiled code runs them without barriers between them): element-wise
// writes of operand 0's words, and reductions that read only each thread's own words.
STAR_HD constexpr bool isOwnedWrite(Op op) { return inMask(kOwnedWriteOpsLo, kOwnedWriteOpsHi, op); }
STAR_HD constexpr bool isOwnedReduction(Op op) {
  return inMask(kOwnedReductionOpsLo, kOwnedReductionOpsHi, op);
}
STAR_HD constexpr bool isOwned(Op op) { return isOwnedWrite(op) || isOwnedReduction(op); }
#if !defined(__CUDACC_RTC__)
// The operand of op that holds a 1-based index into a vector or table; -1 when none.
constexpr int indexOperand(Op op) {
  for (char c : opInfo(op).flags)
    if (c >= '0' && c <= '9') return c - '0';
  return -1;
}
#endif

// Tags of WRITE and of module values.
enum class ValueTag : std::uint8_t { Integer = 0, Boolean, String, Real, Bits, Table };

}  // namespace star
