// Reading a function's code instruction by instruction: the opcode word, then one word per
// operand (its shape letters, Opcodes.def). The one decoder outside the interpreter's and the
// device engine's dispatch loops: the verifier, the control-flow graph (ControlFlow.h), the call
// graph, the disassembler and the parallel-loop analysis read code through it.
//
// It never reads outside the code: at an unknown opcode, or at an instruction whose operands
// would run past the code's end, it stops and says so (the verifier runs it on hostile .starc
// files, before anything else has looked at them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string_view>

#include "vm/bytecode/Opcodes.h"

namespace star {

// One decoded instruction: a view into the code it came from.
struct Instr {
  std::size_t pc = 0;                       // the offset of its opcode word
  Op op = Op::HALT;
  const std::uint32_t* operands = nullptr;  // its size - 1 operand words, in shape order
  std::uint32_t size = 1;                   // code words: the opcode and the operands

  std::size_t next() const { return pc + size; }  // the offset after it
  std::string_view shape() const { return opInfo(op).shape; }
};

// The operand of an instruction of this opcode that names a jump target (shape letter 'j'), or
// -1 when it has none: JMP, JMPF and JMPT.
inline int jumpOperand(Op op) {
  const std::size_t k = opInfo(op).shape.find('j');
  return k == std::string_view::npos ? -1 : static_cast<int>(k);
}
inline bool isJump(Op op) { return jumpOperand(op) >= 0; }

enum class DecodeStatus : std::uint8_t {
  Ok,             // an instruction was decoded
  End,            // nothing left: the offset is at (or past) the end
  UnknownOpcode,  // the word at the offset is not an opcode
  Truncated,      // the instruction's operands run past the end of the code
};

// Decodes the instruction at code[pc] into `out`. On Truncated, out has the instruction's pc, op
// and size (where it would end) but no operands; on End and UnknownOpcode it is left as it was.
inline DecodeStatus decodeAt(std::span<const std::uint32_t> code, std::size_t pc, Instr& out) {
  if (pc >= code.size()) return DecodeStatus::End;
  if (code[pc] >= kOpCount) return DecodeStatus::UnknownOpcode;
  const Op op = static_cast<Op>(code[pc]);
  const std::uint32_t size = instrSize(op);
  if (size > code.size() - pc) {
    out = Instr{pc, op, nullptr, size};
    return DecodeStatus::Truncated;
  }
  out = Instr{pc, op, code.data() + pc + 1, size};
  return DecodeStatus::Ok;
}

// The instructions that start at offsets begin, next(), ... below end, decoded one at a time:
//   for (const Instr& in : instructions(fn.code)) ...
// Iteration stops early, silently, where decodeAt does not give an instruction; code that must
// tell a malformed function from a well-formed one uses forEachInstruction.
class InstrIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = Instr;
  using difference_type = std::ptrdiff_t;
  using pointer = const Instr*;
  using reference = const Instr&;

  InstrIterator() = default;
  InstrIterator(std::span<const std::uint32_t> code, std::size_t pc, std::size_t end) : code_(code), end_(end) {
    decode(pc);
  }
  const Instr& operator*() const { return instr_; }
  const Instr* operator->() const { return &instr_; }
  InstrIterator& operator++() {
    decode(instr_.next());
    return *this;
  }
  void operator++(int) { ++*this; }
  bool operator==(std::default_sentinel_t) const { return status_ != DecodeStatus::Ok; }

 private:
  void decode(std::size_t pc) { status_ = pc < end_ ? decodeAt(code_, pc, instr_) : DecodeStatus::End; }

  std::span<const std::uint32_t> code_;
  std::size_t end_ = 0;
  Instr instr_;
  DecodeStatus status_ = DecodeStatus::End;
};

class InstrRange {
 public:
  InstrRange(std::span<const std::uint32_t> code, std::size_t begin, std::size_t end)
      : code_(code), begin_(begin), end_(end < code.size() ? end : code.size()) {}
  InstrIterator begin() const { return InstrIterator(code_, begin_, end_); }
  std::default_sentinel_t end() const { return {}; }

 private:
  std::span<const std::uint32_t> code_;
  std::size_t begin_, end_;
};

inline InstrRange instructions(std::span<const std::uint32_t> code, std::size_t begin = 0,
                               std::size_t end = SIZE_MAX) {
  return InstrRange(code, begin, end);
}

// Where decoding a function's code from its start stopped: at its end (status End, pc the code's
// size), or at the first instruction that is not well formed (UnknownOpcode or Truncated, at pc;
// for Truncated, instr says where that instruction would have ended).
struct DecodeStop {
  DecodeStatus status = DecodeStatus::End;
  std::size_t pc = 0;
  Instr instr;
};

// Calls f(const Instr&) for each instruction of the code in order, up to its end or its first
// malformed instruction; says which.
template <class F>
DecodeStop forEachInstruction(std::span<const std::uint32_t> code, F&& f) {
  Instr in;
  for (std::size_t pc = 0;; pc = in.next()) {
    const DecodeStatus status = decodeAt(code, pc, in);
    if (status != DecodeStatus::Ok) return DecodeStop{status, pc, in};
    f(static_cast<const Instr&>(in));
  }
}

}  // namespace star
