// A compiled Star module: what `star compile` writes and the VM runs (docs/BYTECODE.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/SourceLoc.h"
#include "vm/bytecode/Opcodes.h"

namespace star {

// 2: graph-loading opcodes, FNV-1a checksum with the standard offset basis.
// 3: native procedures (Function::native); CHKSTEP removed.
inline constexpr std::uint32_t kModuleVersion = 3;

// The most registers a function may have (the verifier rejects more).
inline constexpr std::uint32_t kMaxRegisters = 1u << 18;

// How a register or global slot holds its value.
enum class SlotKind : std::uint8_t {
  Scalar = 0,  // integer, boolean, real or string, by value
  Bits = 1,    // a slice or word: a backend handle
  Table = 2,   // a table: a backend handle
  Ref = 3,     // a var parameter of scalar type: a reference to the caller's slot
};

struct Constant {
  ValueTag tag = ValueTag::Integer;
  std::int64_t intValue = 0;   // integer, boolean
  double realValue = 0;
  std::string text;            // string; for Bits the '0'/'1' characters
};

struct ParamInfo {
  SlotKind kind = SlotKind::Scalar;  // Ref for a var scalar
  bool byRef = false;                // var parameter (bits/tables share the caller's handle)
};

struct Function {
  std::string name;
  std::vector<ParamInfo> params;     // registers 0..params.size()-1
  std::uint32_t numRegs = 0;
  // Registers (beyond the parameters) that own a bit vector or table for the call's duration.
  std::vector<std::pair<std::uint32_t, SlotKind>> ownedRegs;
  std::int32_t resultReg = -1;       // functions: the register holding the result
  SlotKind resultKind = SlotKind::Scalar;
  std::vector<std::uint32_t> code;
  std::vector<SourceLoc> locs;       // one per code word: where the instruction came from
  std::string native;                // a native implementation the VM may call instead
  std::int32_t nativeId = -1;        // `native` resolved (core/NativeTable.h); -1: none
};

struct GlobalInfo {
  std::string name;
  SlotKind kind = SlotKind::Scalar;
};

struct Module {
  std::vector<std::string> files;  // source paths, indexed by SourceLoc::file
  std::vector<Constant> constants;
  std::vector<GlobalInfo> globals;
  std::vector<Function> functions;
  std::uint32_t entry = 0;  // the main body
};

}  // namespace star
