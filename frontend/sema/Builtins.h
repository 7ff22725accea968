// Builtin procedures and functions, generated from Builtins.def (the one table: typed signature,
// opcode, signature text, one-line description).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vm/bytecode/Opcodes.h"

namespace star {

enum class Builtin : int {
#define BUILTIN(id, params, result, opcode, sig, doc) id,
#include "frontend/sema/Builtins.def"
  Count_
};

// What a parameter accepts (Builtins.def's kind letters).
enum class ParamKind : std::uint8_t {
  Integer,    // I
  Real,       // R: an integer argument is converted
  Boolean,    // B
  String,     // S
  Bits,       // Y: a slice or a word
  Word,       // W
  Table,      // T
  Number,     // N: an integer or a real
  Any,        // A: any value
  Vector,     // X: a slice, a word or a table
};

struct BuiltinParam {
  ParamKind kind = ParamKind::Any;
  bool byRef = false;     // must be a variable
  std::string role;       // "index" for "the index of COL"; empty: the default naming
  std::string varRole;    // "table" for "the table of LOAD must be a variable"; empty: as role
};

// How the result's type is found.
enum class ResultKind : std::uint8_t {
  None,         // a procedure
  Integer, Real, Boolean, String, Word, Slice,
  SameAsFirst,  // the type and size of the first argument
  OtherBits,    // CONVERT: slice <-> word, same size
};

struct BuiltinInfo {
  std::string name;        // upper case: what calls are matched against (case-insensitively)
  std::string spelling;    // as the docs write it: "StrToInt", "write"
  std::vector<BuiltinParam> params;
  bool variadic = false;   // the last parameter repeats (write, writeln)
  ResultKind result = ResultKind::None;
  Op opcode = Op::Count_;  // Op::Count_: irregular, compiled by CodeGen::irregularBuiltin
  std::string_view signature;
  std::string_view doc;

  int minArgs() const { return static_cast<int>(params.size()) - (variadic ? 1 : 0); }
  int maxArgs() const { return variadic ? -1 : static_cast<int>(params.size()); }
  bool isProcedure() const { return result == ResultKind::None; }
  // "the argument of FND", "the second argument of TRIM", "the index of COL"; `asVariable`
  // picks the by-reference naming ("the table of LOAD").
  std::string describeParam(std::size_t i, bool asVariable = false) const;
};

// Every builtin, indexed by Builtin.
std::span<const BuiltinInfo> builtins();
inline const BuiltinInfo& builtinInfo(Builtin b) { return builtins()[static_cast<std::size_t>(b)]; }
// The builtin with this (case-insensitive) name, or -1.
int findBuiltin(std::string_view name);
// A builtin procedure (SET, WRITELN, LOAD, ...): it has no value.
inline bool isStatementLikeBuiltin(Builtin b) { return builtinInfo(b).isProcedure(); }

}  // namespace star
