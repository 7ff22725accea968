// Code generation and the module file: the shape of generated functions (entry, CALL operands,
// the argument area, owned registers), verifyModule on compiled and hand-built modules, the
// .starc serializer and loader (round trip; truncation, corruption and version checks) and the
// disassembler.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/unit/support/VerifyError.h"
#include "tests/unit/support/StarTestUtil.h"
#include "vm/bytecode/BackendUse.h"
#include "vm/bytecode/Disassembler.h"
#include "core/NativeTable.h"
#include "vm/bytecode/ModuleFile.h"
#include "vm/bytecode/Verifier.h"

namespace star {
namespace {

using startest::Compiled;
using startest::TempDir;

constexpr std::uint32_t op(Op o) { return static_cast<std::uint32_t>(o); }
constexpr std::uint32_t G(std::uint32_t slot) { return slot | kGlobalBit; }

Compiled compileOk(const TempDir& dir, const std::string& source) {
  Compiled c = startest::compileSource(dir, source, "prog.star", /*warnUnused=*/false);
  EXPECT_TRUE(c.ok) << c.diagnostics;
  return c;
}

// The instructions of a function as (pc, opcode), decoded with instrSize.
std::vector<std::pair<std::uint32_t, Op>> instructions(const Function& f) {
  std::vector<std::pair<std::uint32_t, Op>> out;
  for (std::uint32_t pc = 0; pc < f.code.size(); pc += instrSize(static_cast<Op>(f.code[pc])))
    out.emplace_back(pc, static_cast<Op>(f.code[pc]));
  return out;
}

const Function* findFunction(const Module& m, const std::string& name) {
  for (const Function& f : m.functions)
    if (f.name == name) return &f;
  return nullptr;
}

// Every CALL in every function: its callee exists, and its argument block lies inside the frame.
void expectCallsWellFormed(const Module& m) {
  for (const Function& f : m.functions)
    for (auto [pc, o] : instructions(f)) {
      if (o != Op::CALL) continue;
      SCOPED_TRACE(f.name + " pc " + std::to_string(pc));
      std::uint32_t callee = f.code[pc + 1], base = f.code[pc + 2];
      ASSERT_LT(callee, m.functions.size());
      EXPECT_EQ(base & kGlobalBit, 0u) << "arguments are passed in frame registers";
      EXPECT_LE(base + m.functions[callee].params.size(), f.numRegs);
      // The argument block is not a variable's register: no bit vector or table lives there.
      for (auto& [reg, kind] : f.ownedRegs)
        EXPECT_TRUE(reg < base || reg >= base + m.functions[callee].params.size())
            << "owned register R" << reg << " inside the argument block";
    }
}

// ------------------------------------------------------------------ generated code

TEST(CodeGen, FunctionsAndEntry) {
  TempDir dir;
  Compiled c = compileOk(dir,
                         "program m;\n"
                         "var g: integer;\n"
                         "proc A(x: integer); begin g := x end;\n"
                         "func F(y: integer): integer; begin F := y + 1 end;\n"
                         "proc B(z: integer); begin A(F(z)) end;\n"
                         "begin B(2); writeln(g) end.\n");
  const Module& m = c.module;
  ASSERT_EQ(m.functions.size(), 4u);
  EXPECT_EQ(m.functions[0].name, "A");
  EXPECT_EQ(m.functions[1].name, "F");
  EXPECT_EQ(m.functions[2].name, "B");
  EXPECT_EQ(m.functions[3].name, "<main>");
  EXPECT_EQ(m.entry, 3u);
  ASSERT_EQ(m.globals.size(), 1u);
  EXPECT_EQ(m.globals[0].name, "g");
  EXPECT_EQ(m.globals[0].kind, SlotKind::Scalar);
  ASSERT_EQ(m.files.size(), 1u);
  EXPECT_EQ(m.files[0], dir.file("prog.star"));
  EXPECT_NO_THROW(verifyModule(m));
  for (const Function& f : m.functions) {
    SCOPED_TRACE(f.name);
    EXPECT_EQ(f.locs.size(), f.code.size());
    ASSERT_FALSE(f.code.empty());
    Op last = instructions(f).back().second;
    EXPECT_EQ(last, &f == &m.functions[m.entry] ? Op::HALT : Op::RET);
  }
  EXPECT_EQ(m.functions[1].resultReg, 1);  // after the one parameter
  EXPECT_EQ(m.functions[0].resultReg, -1);
  expectCallsWellFormed(m);
}

// A call of a routine without parameters, from a function whose argument area is empty (here
// the main body, which has no registers at all), must still give operands inside the frame:
// `star compile` writes such modules and `star run prog.starc` loads them through verifyModule.
TEST(CodeGen, CallOfParameterlessProcedureVerifies) {
  TempDir dir;
  Compiled c = compileOk(dir, "program m;\nproc B; begin writeln(42) end;\nbegin B end.\n");
  EXPECT_NO_THROW(verifyModule(c.module));
  std::string bytes = serializeModule(c.module);
  EXPECT_NO_THROW(deserializeModule(bytes));
  // Also from a procedure that has registers of its own but passes no arguments.
  Compiled d = compileOk(dir,
                         "program m;\nproc Q; begin writeln(1) end;\n"
                         "proc P; var i: integer; begin for i := 1 to 2 do Q end;\n"
                         "begin P(); writeln(2) end.\n");
  EXPECT_NO_THROW(verifyModule(d.module));
  expectCallsWellFormed(d.module);
}

// The argument area: `P(F(1), 2)` from a main body with no variables. Derived by hand from
// the register plan of CodeGen.h: a temporary is free again once its value is consumed, so R0
// holds 1 and then F's result, R1 holds 2; the argument area follows (P's block R2, R3; F's
// block above it, R4), so 5 registers.
TEST(CodeGen, CallOperandsAndArgumentArea) {
  TempDir dir;
  Compiled c = compileOk(dir,
                         "program c;\n"
                         "proc P(a, b: integer); begin writeln(a + b) end;\n"
                         "func F(x: integer): integer; begin F := x end;\n"
                         "begin\n  P(F(1), 2)\nend.\n");
  const Module& m = c.module;
  ASSERT_EQ(m.functions.size(), 3u);
  const Function& main = m.functions[m.entry];
  EXPECT_EQ(main.numRegs, 5u);
  const std::vector<std::uint32_t> want = {
      op(Op::LOADI), 0, 1,     // R0 := 1
      op(Op::MOVE),  4, 0,     // F's argument
      op(Op::CALL),  1, 4, 0,  // R0 := F(R4)
      op(Op::LOADI), 1, 2,     // R1 := 2
      op(Op::MOVE),  2, 0,     // P's arguments: R2, R3
      op(Op::MOVE),  3, 1,
      op(Op::CALL),  0, 2, 2,  // P(R2, R3); a procedure's result operand is its base
      op(Op::HALT)};
  EXPECT_EQ(main.code, want);

  const Function& p = m.functions[0];
  ASSERT_EQ(p.params.size(), 2u);
  EXPECT_EQ(p.params[0].kind, SlotKind::Scalar);
  EXPECT_FALSE(p.params[0].byRef);
  const Function& f = m.functions[1];
  EXPECT_EQ(f.numRegs, 2u);
  EXPECT_EQ(f.resultReg, 1);
  EXPECT_EQ(f.resultKind, SlotKind::Scalar);
  EXPECT_EQ(f.code, (std::vector<std::uint32_t>{op(Op::MOVE), 1, 0, op(Op::RET)}));
  EXPECT_NO_THROW(verifyModule(m));
}

TEST(CodeGen, VarParametersPassReferencesAndHandles) {
  TempDir dir;
  Compiled c = compileOk(dir,
                         "program v;\n"
                         "var n: integer; T: table; w: word;\n"
                         "proc Q(var k: integer; var U: table; x: word); begin k := ROWS(U) + LEN(x) end;\n"
                         "begin Q(n, T, w); writeln(n) end.\n");
  const Module& m = c.module;
  ASSERT_EQ(m.globals.size(), 3u);
  EXPECT_EQ(m.globals[0].kind, SlotKind::Scalar);
  EXPECT_EQ(m.globals[1].kind, SlotKind::Table);
  EXPECT_EQ(m.globals[2].kind, SlotKind::Bits);
  const Function& q = m.functions[0];
  ASSERT_EQ(q.params.size(), 3u);
  EXPECT_EQ(q.params[0].kind, SlotKind::Ref);  // a var scalar travels as a reference
  EXPECT_TRUE(q.params[0].byRef);
  EXPECT_EQ(q.params[1].kind, SlotKind::Table);
  EXPECT_TRUE(q.params[1].byRef);
  EXPECT_EQ(q.params[2].kind, SlotKind::Bits);
  EXPECT_FALSE(q.params[2].byRef);
  // k := ... stores through the reference.
  bool storesThroughRef = false;
  for (auto [pc, o] : instructions(q))
    if (o == Op::STREF && q.code[pc + 1] == 0) storesThroughRef = true;
  EXPECT_TRUE(storesThroughRef);
  // The main body: MKREF for n, the table and word handles moved as they are, then the CALL.
  const Function& main = m.functions[m.entry];
  const std::vector<std::uint32_t> callPart = {
      op(Op::MKREF), 0, G(0), op(Op::MOVE), 1, G(1), op(Op::MOVE), 2, G(2), op(Op::CALL), 0, 0, 0};
  ASSERT_GE(main.code.size(), callPart.size());
  EXPECT_EQ(std::vector<std::uint32_t>(main.code.begin(), main.code.begin() + callPart.size()),
            callPart);
  expectCallsWellFormed(m);
  EXPECT_NO_THROW(verifyModule(m));
}

TEST(CodeGen, OwnedRegistersForVectorLocals) {
  TempDir dir;
  Compiled c = compileOk(dir,
                         "program o;\n"
                         "var G1: table(2, 2);\n"
                         "proc L(a: word; var b: table; c: integer);\n"
                         "var s: slice; w: word(5); T: table; i: integer;\n"
                         "begin s := COL(1, T); w := ROW(1, T); i := c; writeln(s, w, i, a, b) end;\n"
                         "func W(x: integer): word; begin W := BIN(x, 4) end;\n"
                         "begin L(W(3), G1, 1) end.\n");
  const Module& m = c.module;
  const Function* l = findFunction(m, "L");
  ASSERT_TRUE(l);
  // Registers: parameters R0..R2, then s = R3, w = R4, T = R5, i = R6.
  using Owned = std::vector<std::pair<std::uint32_t, SlotKind>>;
  const Owned want = {{3, SlotKind::Bits}, {4, SlotKind::Bits}, {5, SlotKind::Table}};
  ASSERT_GE(l->ownedRegs.size(), 3u);
  EXPECT_EQ(Owned(l->ownedRegs.begin(), l->ownedRegs.begin() + 3), want);
  for (auto& [reg, kind] : l->ownedRegs) {
    EXPECT_GE(reg, 3u) << "parameters are not owned by the callee";
    EXPECT_NE(reg, 6u) << "the integer i owns no storage";
    EXPECT_LT(reg, l->numRegs);
  }
  // word(5) is shaped when L is entered: R7 := 5; BNEW R4, R7, fixed.
  const std::vector<std::uint32_t> prologue = {op(Op::LOADI), 7, 5, op(Op::BNEW), 4, 7, 1};
  ASSERT_GE(l->code.size(), prologue.size());
  EXPECT_EQ(std::vector<std::uint32_t>(l->code.begin(), l->code.begin() + prologue.size()), prologue);

  const Function* w = findFunction(m, "W");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->resultReg, 1);
  EXPECT_EQ(w->resultKind, SlotKind::Bits);
  EXPECT_NE(std::find(w->ownedRegs.begin(), w->ownedRegs.end(),
                      std::pair<std::uint32_t, SlotKind>{1, SlotKind::Bits}),
            w->ownedRegs.end());
  // The sized global table is shaped by the entry function: TNEW G0, rows, cols, fixed.
  const Function& main = m.functions[m.entry];
  bool shaped = false;
  for (auto [pc, o] : instructions(main))
    if (o == Op::TNEW && main.code[pc + 1] == G(0) && main.code[pc + 4] == 1) shaped = true;
  EXPECT_TRUE(shaped);
  expectCallsWellFormed(m);
  EXPECT_NO_THROW(verifyModule(m));
}

// usesBackend decides whether star run starts a backend (a GPU) at all: only a slice, word or
// table that the run can reach, or a native, needs one.
TEST(CodeGen, UsesBackendOnlyForReachableHandles) {
  TempDir dir;
  auto uses = [&](const std::string& source) { return usesBackend(compileOk(dir, source).module); };
  const std::string helpers =
      "func F(k: integer): integer; begin if k <= 1 then F := 1 else F := k * F(k - 1) end;\n"
      "proc Loc; var s: slice(70); begin SET(s); writeln(SOME(s)) end;\n"
      "proc Par(var T: table); begin writeln(ROWS(T)) end;\n"
      "func W(x: integer): word; begin W := BIN(x, 4) end;\n"
      "proc Calls; begin Loc end;\n";
  EXPECT_FALSE(uses("program a;\nvar i: integer;\nbegin i := 3; writeln(i * 2) end.\n"));
  EXPECT_FALSE(uses("program b;\n" + helpers + "begin writeln(F(5)) end.\n"))
      << "procedures with slices that are never called start nothing";
  EXPECT_TRUE(uses("program c;\nvar g: slice(5);\nbegin writeln(1) end.\n")) << "a global slice";
  EXPECT_TRUE(uses("program d;\n" + helpers + "begin Loc end.\n")) << "a local slice";
  EXPECT_TRUE(uses("program e;\n" + helpers + "begin Calls end.\n")) << "a local slice, two calls away";
  EXPECT_TRUE(uses("program f;\n" + helpers + "begin writeln(W(2)) end.\n")) << "a word result";
  EXPECT_TRUE(uses("program g;\nvar T: table(2, 2);\n" + helpers + "begin Par(T) end.\n"));
}

TEST(CodeGen, ConstantsArePooled) {
  TempDir dir;
  Compiled c = compileOk(dir,
                         "program k;\n"
                         "var i: integer; r: real; s: string; w: word;\n"
                         "begin\n"
                         "  i := 5000000000; i := 5000000000; i := 7;\n"
                         "  r := 2.5; r := 2.5;\n"
                         "  s := 'hi'; s := 'hi';\n"
                         "  w := %1011; w := %1011;\n"
                         "  writeln(i, r, s, w)\n"
                         "end.\n");
  const Module& m = c.module;
  // One constant per distinct value; 7 fits an immediate.
  ASSERT_EQ(m.constants.size(), 4u);
  EXPECT_EQ(m.constants[0].tag, ValueTag::Integer);
  EXPECT_EQ(m.constants[0].intValue, 5000000000);
  EXPECT_EQ(m.constants[1].tag, ValueTag::Real);
  EXPECT_DOUBLE_EQ(m.constants[1].realValue, 2.5);
  EXPECT_EQ(m.constants[2].tag, ValueTag::String);
  EXPECT_EQ(m.constants[2].text, "hi");
  EXPECT_EQ(m.constants[3].tag, ValueTag::Bits);
  EXPECT_EQ(m.constants[3].text, "1011");
  const Function& main = m.functions[m.entry];
  int loadi7 = 0, bconst = 0;
  for (auto [pc, o] : instructions(main)) {
    if (o == Op::LOADI && main.code[pc + 2] == 7) ++loadi7;
    if (o == Op::BCONST) ++bconst;
  }
  EXPECT_EQ(loadi7, 1);
  EXPECT_EQ(bconst, 2);
}

// Every program of the language tests and the examples that compiles gives a module that
// verifies and survives a serialize/deserialize round trip byte for byte.
TEST(CodeGen, EveryCompilableRepositoryProgramVerifiesAndRoundTrips) {
  namespace fs = std::filesystem;
  int compiled = 0;
  for (const char* sub : {"examples", "tests/lang", "bench"}) {
    fs::path root = fs::path(STAR_SOURCE_DIR) / sub;
    if (!fs::exists(root)) continue;
    for (auto& entry : fs::recursive_directory_iterator(root)) {
      if (entry.path().extension() != ".star") continue;
      Compiled c = startest::compileFile(entry.path().string(), false);
      if (!c.ok) continue;  // the error tests
      SCOPED_TRACE(entry.path().string());
      ++compiled;
      EXPECT_NO_THROW(verifyModule(c.module));
      expectCallsWellFormed(c.module);
      std::string bytes = serializeModule(c.module);
      Module back;
      ASSERT_NO_THROW(back = deserializeModule(bytes));
      EXPECT_EQ(serializeModule(back), bytes);
    }
  }
  EXPECT_GE(compiled, 10);
}

// ------------------------------------------------------------------ module files

// FNV-1a 64, written here from its definition (docs/BYTECODE.md names it).
std::uint64_t fnv1a(const std::string& s, std::size_t from, std::size_t n) {
  std::uint64_t h = 14695981039346656037ull;
  for (std::size_t i = from; i < from + n; ++i) {
    h ^= static_cast<unsigned char>(s[i]);
    h *= 1099511628211ull;
  }
  return h;
}

constexpr std::size_t kHeader = 8 + 4 + 8;  // magic, version, payload size

void putU64(std::string& s, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) s[at + i] = static_cast<char>(v >> (8 * i));
}

// The checksum is FNV-1a (offset basis 14695981039346656037). To keep the robustness tests
// below meaningful whatever basis the writer uses, they reseal edited files with the basis that
// reproduces the writer's own checksum; LayoutOfTheHeader checks that it is the standard one.
constexpr std::uint64_t kFnvBasis = 14695981039346656037ull;
constexpr std::uint64_t kTruncatedFnvBasis = 1469598103934665603ull;  // one digit short

std::uint64_t fnvWithBasis(std::uint64_t h, const std::string& s, std::size_t from, std::size_t n) {
  for (std::size_t i = from; i < from + n; ++i) {
    h ^= static_cast<unsigned char>(s[i]);
    h *= 1099511628211ull;
  }
  return h;
}

std::uint64_t storedChecksum(const std::string& b) {
  std::uint64_t sum = 0;
  for (int i = 0; i < 8; ++i)
    sum |= std::uint64_t{static_cast<unsigned char>(b[b.size() - 8 + i])} << (8 * i);
  return sum;
}

std::uint64_t writersBasis(const std::string& sealed) {
  std::size_t payload = sealed.size() - kHeader - 8;
  for (std::uint64_t basis : {kFnvBasis, kTruncatedFnvBasis})
    if (fnvWithBasis(basis, sealed, kHeader, payload) == storedChecksum(sealed)) return basis;
  ADD_FAILURE() << "the module checksum is neither FNV-1a nor the truncated-basis variant";
  return kFnvBasis;
}

// Recomputes the checksum after an edit, the way the writer of `like` computes it.
std::string resealed(std::string bytes, const std::string& like) {
  std::size_t payload = bytes.size() - kHeader - 8;
  putU64(bytes, bytes.size() - 8, fnvWithBasis(writersBasis(like), bytes, kHeader, payload));
  return bytes;
}

class ModuleFile : public ::testing::Test {
 protected:
  void SetUp() override {
    Compiled c = compileOk(dir,
                           "program k;\n"
                           "var i: integer; r: real; s: string; w: word; T: table(3, 4);\n"
                           "func f(var x: integer; y: word): word; begin x := x + 1; f := y end;\n"
                           "begin\n"
                           "  i := 5000000000; r := 2.5; s := 'it''s'; w := f(i, %1011);\n"
                           "  while i > 0 do i := i div 2;\n"
                           "  writeln(i, r, s, w, T)\n"
                           "end.\n");
    ASSERT_TRUE(c.ok);
    module = std::move(c.module);
    bytes = serializeModule(module);
  }

  // Runs the loader; returns the error message, or "" when it loaded.
  static std::string loadError(const std::string& b) {
    try {
      deserializeModule(b);
      return "";
    } catch (const ModuleFormatError& e) {
      return e.what();
    }
  }

  TempDir dir;
  Module module;
  std::string bytes;
};

TEST_F(ModuleFile, LayoutOfTheHeader) {
  ASSERT_GT(bytes.size(), kHeader + 8);
  EXPECT_EQ(bytes.substr(0, 8), std::string("STARC\0\r\n", 8));
  EXPECT_EQ(static_cast<unsigned char>(bytes[8]), kModuleVersion);
  EXPECT_EQ(bytes.substr(9, 3), std::string(3, '\0'));
  std::uint64_t size = 0;
  for (int i = 0; i < 8; ++i) size |= std::uint64_t{static_cast<unsigned char>(bytes[12 + i])} << (8 * i);
  EXPECT_EQ(size, bytes.size() - kHeader - 8);
  // The trailer is the FNV-1a hash of the payload (ModuleFile.h, docs/BYTECODE.md).
  EXPECT_EQ(storedChecksum(bytes), fnv1a(bytes, kHeader, size))
      << (storedChecksum(bytes) == fnvWithBasis(kTruncatedFnvBasis, bytes, kHeader, size)
              ? "the writer uses offset basis 1469598103934665603, not FNV-1a's 14695981039346656037"
              : "");
}

TEST_F(ModuleFile, RoundTripIsExact) {
  Module back = deserializeModule(bytes);
  EXPECT_EQ(serializeModule(back), bytes);
  EXPECT_EQ(back.files, module.files);
  EXPECT_EQ(back.entry, module.entry);
  ASSERT_EQ(back.constants.size(), module.constants.size());
  for (std::size_t i = 0; i < back.constants.size(); ++i) {
    EXPECT_EQ(back.constants[i].tag, module.constants[i].tag);
    EXPECT_EQ(back.constants[i].intValue, module.constants[i].intValue);
    EXPECT_EQ(back.constants[i].realValue, module.constants[i].realValue);
    EXPECT_EQ(back.constants[i].text, module.constants[i].text);
  }
  ASSERT_EQ(back.globals.size(), module.globals.size());
  for (std::size_t i = 0; i < back.globals.size(); ++i) {
    EXPECT_EQ(back.globals[i].name, module.globals[i].name);
    EXPECT_EQ(back.globals[i].kind, module.globals[i].kind);
  }
  ASSERT_EQ(back.functions.size(), module.functions.size());
  for (std::size_t i = 0; i < back.functions.size(); ++i) {
    const Function& a = back.functions[i];
    const Function& b = module.functions[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.code, b.code);
    EXPECT_EQ(a.numRegs, b.numRegs);
    EXPECT_EQ(a.ownedRegs, b.ownedRegs);
    EXPECT_EQ(a.resultReg, b.resultReg);
    EXPECT_EQ(a.resultKind, b.resultKind);
    ASSERT_EQ(a.params.size(), b.params.size());
    for (std::size_t k = 0; k < a.params.size(); ++k) {
      EXPECT_EQ(a.params[k].kind, b.params[k].kind);
      EXPECT_EQ(a.params[k].byRef, b.params[k].byRef);
    }
    ASSERT_EQ(a.locs.size(), b.locs.size());
    for (std::size_t k = 0; k < a.locs.size(); ++k) {
      EXPECT_EQ(a.locs[k].file, b.locs[k].file);
      EXPECT_EQ(a.locs[k].line, b.locs[k].line);
      EXPECT_EQ(a.locs[k].col, b.locs[k].col);
    }
  }
}

TEST_F(ModuleFile, RejectsWrongMagic) {
  for (std::size_t i = 0; i < 8; ++i) {
    std::string b = bytes;
    b[i] = static_cast<char>(b[i] ^ 0x20);
    EXPECT_EQ(loadError(b), "not a Star module (bad magic number)") << "byte " << i;
  }
  EXPECT_EQ(loadError("#!/bin/sh\necho hi\n"), "not a Star module (bad magic number)");
}

TEST_F(ModuleFile, RejectsOtherVersions) {
  for (std::uint32_t v : {0u, kModuleVersion + 1, 0x01000001u}) {
    std::string b = bytes;
    for (int i = 0; i < 4; ++i) b[8 + i] = static_cast<char>(v >> (8 * i));
    EXPECT_EQ(loadError(b), "module format version " + std::to_string(v) +
                                " is not supported (this star reads version " + std::to_string(kModuleVersion) + "); recompile the program");
  }
}

TEST_F(ModuleFile, RejectsEveryTruncation) {
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    std::string b = bytes.substr(0, n);
    try {
      deserializeModule(b);
      ADD_FAILURE() << "loaded a module truncated to " << n << " bytes";
    } catch (const ModuleFormatError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "truncated to " << n << " bytes: not a ModuleFormatError: " << e.what();
    }
  }
  EXPECT_EQ(loadError(bytes + '\0'), "module file is truncated or has trailing bytes");
}

TEST_F(ModuleFile, RejectsEverySingleByteCorruption) {
  const std::size_t payloadEnd = bytes.size() - 8;
  for (std::size_t i = 8; i < bytes.size(); ++i) {
    for (unsigned mask : {0x01u, 0x80u, 0xffu}) {
      std::string b = bytes;
      b[i] = static_cast<char>(static_cast<unsigned char>(b[i]) ^ mask);
      std::string err = loadError(b);
      SCOPED_TRACE("byte " + std::to_string(i) + " mask " + std::to_string(mask));
      if (i < 12)
        EXPECT_EQ(err.rfind("module format version", 0), 0u) << err;
      else if (i < kHeader)
        EXPECT_EQ(err, "module file is truncated or has trailing bytes");
      else if (i < payloadEnd)
        EXPECT_EQ(err, "module file is corrupt (checksum mismatch)");
      else
        EXPECT_EQ(err, "module file is corrupt (checksum mismatch)");  // the checksum itself
    }
  }
}

// A payload that passes its checksum but is garbage must still be rejected cleanly: every
// single-byte change with the checksum recomputed either loads a module that verifies, or
// throws ModuleFormatError.
TEST_F(ModuleFile, CorruptPayloadWithValidChecksumNeverCrashes) {
  int rejected = 0;
  for (std::size_t i = kHeader; i < bytes.size() - 8; ++i) {
    for (unsigned mask : {0x01u, 0xffu}) {
      std::string b = bytes;
      b[i] = static_cast<char>(static_cast<unsigned char>(b[i]) ^ mask);
      b = resealed(b, bytes);
      try {
        Module m = deserializeModule(b);
        EXPECT_NO_THROW(verifyModule(m)) << "byte " << i;
      } catch (const ModuleFormatError&) {
        ++rejected;
      } catch (const std::exception& e) {
        ADD_FAILURE() << "byte " << i << ": " << e.what();
      }
    }
  }
  EXPECT_GT(rejected, 0);
}

TEST_F(ModuleFile, HugeCountIsRejectedWithoutAllocating) {
  // A payload claiming 2^32 - 1 source files, correctly sealed.
  std::string b = bytes.substr(0, kHeader) + std::string("\xff\xff\xff\xff", 4) + std::string(8, '\0');
  putU64(b, 12, 4);
  b = resealed(b, bytes);
  EXPECT_EQ(loadError(b), "module file is corrupt (a count exceeds the file size)");
}

// ------------------------------------------------------------------ verifyModule

Function fn(std::string name, std::uint32_t numRegs, std::vector<std::uint32_t> code) {
  Function f;
  f.name = std::move(name);
  f.numRegs = numRegs;
  f.code = std::move(code);
  f.locs.assign(f.code.size(), SourceLoc{0, 1, 1});
  return f;
}

Module oneFunction(std::uint32_t numRegs, std::vector<std::uint32_t> code) {
  Module m;
  m.files = {"x.star"};
  m.functions.push_back(fn("<main>", numRegs, std::move(code)));
  return m;
}

using test_support::verifyError;

TEST(VerifyModule, AcceptsAValidHandBuiltModule) {
  Module m = oneFunction(2, {op(Op::LOADI), 0, 7, op(Op::JMP), 6, op(Op::RET), op(Op::HALT)});
  m.globals.push_back({"g", SlotKind::Scalar});
  m.functions[0].code[1] = G(0);
  EXPECT_EQ(verifyError(m), "");
  // And it survives the file format.
  EXPECT_EQ(serializeModule(deserializeModule(serializeModule(m))), serializeModule(m));
}

TEST(VerifyModule, RejectsBadOpcode) {
  Module m = oneFunction(1, {kOpCount, op(Op::HALT)});
  EXPECT_EQ(verifyError(m), "invalid bytecode in function '<main>' at 0: unknown opcode " +
                                std::to_string(kOpCount));
  Module m2 = oneFunction(1, {op(Op::HALT), 0xffffffffu});
  EXPECT_EQ(verifyError(m2), "invalid bytecode in function '<main>' at 1: unknown opcode 4294967295");
}

TEST(VerifyModule, RejectsRegistersOutOfRange) {
  EXPECT_EQ(verifyError(oneFunction(2, {op(Op::LOADI), 2, 7, op(Op::HALT)})),
            "invalid bytecode in function '<main>' at 0: register out of range");
  EXPECT_EQ(verifyError(oneFunction(2, {op(Op::HALT), op(Op::IADD), 0, 1, 2, op(Op::HALT)})),
            "invalid bytecode in function '<main>' at 1: register out of range");
  EXPECT_EQ(verifyError(oneFunction(2, {op(Op::LOADI), G(0), 7, op(Op::HALT)})),
            "invalid bytecode in function '<main>' at 0: global slot out of range");
  Module m = oneFunction(0, {op(Op::LOADI), G(0), 7, op(Op::HALT)});
  m.globals.push_back({"g", SlotKind::Scalar});
  EXPECT_EQ(verifyError(m), "");
}

TEST(VerifyModule, RejectsJumpsIntoTheMiddleOfAnInstruction) {
  // 0: LOADI R0, 7   3: JMP ->?   5: HALT
  for (std::uint32_t target : {1u, 2u, 4u, 6u, 1000u}) {
    EXPECT_EQ(verifyError(oneFunction(1, {op(Op::LOADI), 0, 7, op(Op::JMP), target, op(Op::HALT)})),
              "invalid bytecode in function '<main>' at 3: jump target is not an instruction")
        << "target " << target;
  }
  for (std::uint32_t target : {0u, 3u, 5u})
    EXPECT_EQ(verifyError(oneFunction(1, {op(Op::LOADI), 0, 7, op(Op::JMP), target, op(Op::HALT)})), "");
  EXPECT_EQ(verifyError(oneFunction(1, {op(Op::JMPF), 0, 1, op(Op::HALT)})),
            "invalid bytecode in function '<main>' at 0: jump target is not an instruction");
}

TEST(VerifyModule, RejectsOtherMalformedCode) {
  auto bad = [](std::uint32_t numRegs, std::vector<std::uint32_t> code) {
    return verifyError(oneFunction(numRegs, std::move(code)));
  };
  EXPECT_EQ(bad(1, {op(Op::HALT), op(Op::LOADI), 0}),
            "invalid bytecode in function '<main>' at 4: truncated instruction");
  EXPECT_EQ(bad(1, {op(Op::LOADI), 0, 7}),
            "invalid bytecode in function '<main>' at 3: function does not end in RET, HALT or JMP");
  EXPECT_EQ(bad(1, {}),
            "invalid bytecode in function '<main>' at 0: function does not end in RET, HALT or JMP");
  EXPECT_EQ(bad(1, {op(Op::LOADK), 0, 0, op(Op::HALT)}),
            "invalid bytecode in function '<main>' at 0: constant index out of range");
  EXPECT_EQ(bad(1, {op(Op::CALL), 5, 0, 0, op(Op::HALT)}),
            "invalid bytecode in function '<main>' at 0: function index out of range");
  EXPECT_EQ(bad(1, {op(Op::BFILL), 0, 2, op(Op::HALT)}),
            "invalid bytecode in function '<main>' at 0: flag is not 0 or 1");
  EXPECT_EQ(bad(1, {op(Op::WRITE), 0, 6, op(Op::HALT)}),
            "invalid bytecode in function '<main>' at 0: bad value tag");
}

TEST(VerifyModule, RejectsBadFunctionTables) {
  Module callee = oneFunction(2, {op(Op::CALL), 1, 0, 0, op(Op::HALT)});
  Function f = fn("three", 3, {op(Op::RET)});
  f.params.resize(3);
  callee.functions.push_back(f);
  EXPECT_EQ(verifyError(callee),
            "invalid bytecode in function '<main>' at 0: call arguments exceed the register file");
  callee.functions[0].numRegs = 3;
  EXPECT_EQ(verifyError(callee), "");

  Module m = oneFunction(1, {op(Op::HALT)});
  m.functions[0].params.resize(2);
  EXPECT_EQ(verifyError(m), "invalid bytecode in function '<main>' at 0: more parameters than registers");
  m = oneFunction(1, {op(Op::HALT)});
  m.functions[0].resultReg = 1;
  EXPECT_EQ(verifyError(m), "invalid bytecode in function '<main>' at 0: result register out of range");
  m = oneFunction(1, {op(Op::HALT)});
  m.functions[0].ownedRegs.push_back({1, SlotKind::Bits});
  EXPECT_EQ(verifyError(m), "invalid bytecode in function '<main>' at 0: owned register out of range");
  m = oneFunction(1, {op(Op::HALT)});
  m.functions[0].locs.pop_back();
  EXPECT_EQ(verifyError(m),
            "invalid bytecode in function '<main>' at 0: line table size differs from code size");
  m = oneFunction(1, {op(Op::HALT)});
  m.functions[0].locs[0].file = 1;
  EXPECT_EQ(verifyError(m), "invalid bytecode in function '<main>' at 0: source file index out of range");
  m = oneFunction(1, {op(Op::HALT)});
  m.entry = 1;
  EXPECT_EQ(verifyError(m), "module has no entry function");
  EXPECT_EQ(verifyError(Module{}), "module has no entry function");
}

// The classes of crafted modules that used to take the VM outside its memory: each is rejected
// by the verifier before anything runs.
TEST(VerifyModule, RejectsWhatWouldCrashTheInterpreter) {
  auto at = [](const std::string& what) { return "invalid bytecode in function '<main>' at 0: " + what; };
  // A CALL whose argument base is a global slot (it used to skip the register-file bound).
  Module m = oneFunction(2, {op(Op::CALL), 1, G(0), 0, op(Op::HALT)});
  m.globals.push_back({"g", SlotKind::Scalar});
  Function callee = fn("p", 1, {op(Op::RET)});
  callee.params.resize(1);
  m.functions.push_back(callee);
  EXPECT_EQ(verifyError(m), at("call arguments must be frame registers"));
  // An integer register used where a slice handle is expected.
  EXPECT_EQ(verifyError(oneFunction(2, {op(Op::LOADI), 0, 3, op(Op::BNOT), 1, 0, op(Op::HALT)})),
            "invalid bytecode in function '<main>' at 3: operand R1 holds a scalar, not a slice or word");
  EXPECT_EQ(verifyError(oneFunction(1, {op(Op::WRITE), 0, 4, op(Op::HALT)})),
            at("operand R0 holds a scalar, not a slice or word"));
  // A handle register overwritten with an integer, then used.
  Module owned = oneFunction(1, {op(Op::LOADI), 0, 5, op(Op::BNOT), 0, 0, op(Op::HALT)});
  owned.functions[0].ownedRegs.push_back({0, SlotKind::Bits});
  EXPECT_EQ(verifyError(owned), at("cannot store a scalar in R0, which holds a slice or word"));
  // A global table's handle replaced by MOVE.
  Module global = oneFunction(1, {op(Op::MOVE), G(0), 0, op(Op::HALT)});
  global.globals.push_back({"t", SlotKind::Table});
  EXPECT_EQ(verifyError(global), at("cannot store a scalar in G0, which holds a table"));
  // The entry function with a slice parameter, or an absurd register count.
  Module entry = oneFunction(1, {op(Op::HALT)});
  entry.functions[0].params.push_back({SlotKind::Bits, false});
  EXPECT_EQ(verifyError(entry), "the entry function takes no parameters and returns nothing");
  EXPECT_EQ(verifyError(oneFunction(0xffffffffu, {op(Op::HALT)})), at("more than 262144 registers"));
  // A function declared native with other parameters than the native's.
  Module native = oneFunction(1, {op(Op::HALT)});
  Function closure = fn("CLOSURE", 1, {op(Op::RET)});
  closure.params.push_back({SlotKind::Scalar, false});
  closure.native = "transitive_closure";
  closure.nativeId = findNative("transitive_closure");
  native.functions.push_back(closure);
  EXPECT_EQ(verifyError(native), "function 'CLOSURE' does not have the parameters of native 'transitive_closure'");
  // Control characters in names are not printed raw.
  Module named = oneFunction(1, {op(Op::LOADI), 5, 0, op(Op::HALT)});
  named.functions[0].name = "x\x1b[2Jy";
  EXPECT_EQ(verifyError(named), "invalid bytecode in function 'x\\x1b[2Jy' at 0: register out of range");
}

// Call arguments are set and consumed in one basic block; a register MOVE gave a handle is not
// trusted after a jump (its kind could differ along another path).
TEST(VerifyModule, TracksMovedHandlesWithinABlock) {
  Module m = oneFunction(3, {op(Op::MOVE), 1, 0, op(Op::CALL), 1, 1, 1, op(Op::HALT)});
  m.functions[0].ownedRegs.push_back({0, SlotKind::Bits});
  Function p = fn("p", 1, {op(Op::RET)});
  p.params.push_back({SlotKind::Bits, true});
  m.functions.push_back(p);
  EXPECT_EQ(verifyError(m), "");
  // The same with a jump target between the MOVE and the CALL.
  Module split = oneFunction(3, {op(Op::MOVE), 1, 0, op(Op::JMP), 5, op(Op::CALL), 1, 1, 1, op(Op::HALT)});
  split.functions[0].ownedRegs.push_back({0, SlotKind::Bits});
  split.functions.push_back(p);
  EXPECT_EQ(verifyError(split),
            "invalid bytecode in function '<main>' at 5: operand R1 holds no known value, not a slice or word");
  // A scalar passed where the callee takes a slice.
  Module scalar = oneFunction(3, {op(Op::LOADI), 1, 4, op(Op::CALL), 1, 1, 1, op(Op::HALT)});
  scalar.functions.push_back(p);
  EXPECT_EQ(verifyError(scalar),
            "invalid bytecode in function '<main>' at 3: operand R1 holds a scalar, not a slice or word");
}

TEST(VerifyModule, TheLoaderVerifies) {
  // A sealed file whose code jumps into an instruction is rejected by deserializeModule too.
  Module m = oneFunction(1, {op(Op::LOADI), 0, 7, op(Op::JMP), 1, op(Op::HALT)});
  std::string b = serializeModule(m);
  try {
    deserializeModule(b);
    ADD_FAILURE() << "loaded an invalid module";
  } catch (const ModuleFormatError& e) {
    EXPECT_EQ(std::string(e.what()),
              "invalid bytecode in function '<main>' at 3: jump target is not an instruction");
  }
}

// ------------------------------------------------------------------ disassembler

TEST(Disassembler, SmallProgramListing) {
  TempDir dir;
  const std::string source =
      "program d;\n"
      "var x: integer;\n"
      "begin\n"
      "  x := 5;\n"
      "  writeln(x)\n"
      "end.\n";
  Compiled c = compileOk(dir, source);
  std::vector<std::string> lines;
  std::istringstream in(source);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::ostringstream out;
  disassemble(c.module, out, [&](std::uint32_t, std::uint32_t line) {
    return line >= 1 && line <= lines.size() ? lines[line - 1] : std::string();
  });
  // x := 5 stores straight into the global; writeln(x) writes it and a line break; the entry
  // function ends in HALT, located at the main body's `begin`.
  EXPECT_EQ(out.str(),
            "; Star bytecode module, format version " + std::to_string(kModuleVersion) + "\n"
            "; 1 functions, 0 constants, 1 globals; entry F0\n"
            "; G0 x: scalar\n"
            "\n"
            "function F0 <main> (0 params, 0 registers)\n"
            "  ; prog.star:4: x := 5;\n"
            "      0  LOADI   G0(x), 5\n"
            "  ; prog.star:5: writeln(x)\n"
            "      3  WRITE   G0(x), integer\n"
            "      6  WRITELN \n"
            "  ; prog.star:3: begin\n"
            "      7  HALT    \n");
}

TEST(Disassembler, PrintsEveryInstructionOfACompiledProgram) {
  Compiled c = startest::compileFile(std::string(STAR_SOURCE_DIR) + "/examples/warshall.star");
  ASSERT_TRUE(c.ok) << c.diagnostics;
  std::ostringstream out;
  disassemble(c.module, out, nullptr);
  const std::string text = out.str();
  std::set<std::string> mnemonics;
  for (std::uint32_t i = 0; i < c.module.functions.size(); ++i) {
    const Function& f = c.module.functions[i];
    std::ostringstream one;
    disassembleFunction(c.module, i, one, nullptr);
    const std::string section = one.str();
    EXPECT_NE(text.find(section), std::string::npos) << "function " << f.name;
    EXPECT_EQ(section.rfind("function F" + std::to_string(i) + " " + f.name + " (", 0), 0u);
    for (auto [pc, o] : instructions(f)) {
      std::string name(opInfo(o).name);
      mnemonics.insert(name);
      std::string pcText = std::to_string(pc);
      // (A parallel loop's body is marked with '|' instead of the second blank.)
      std::string prefix = "\n  " + std::string(5 - pcText.size(), ' ') + pcText + "  " + name;
      std::size_t at = section.find(prefix);
      if (at == std::string::npos) {
        prefix = "\n |" + std::string(5 - pcText.size(), ' ') + pcText + "  " + name;
        at = section.find(prefix);
      }
      ASSERT_NE(at, std::string::npos) << f.name << " pc " << pc << " " << name;
      // The mnemonic is followed by padding or the end of the line, not more letters.
      char next = section[at + prefix.size()];
      EXPECT_TRUE(next == ' ' || next == '\n') << name;
    }
  }
  // Listing 1 and 2 use, among others, these instructions.
  for (const char* want : {"TGETCOL", "TGETROW", "TSETROW", "TSETCOL", "BSTEP", "BSOME", "BOR",
                           "CALL", "RET", "HALT", "TLOAD", "TEQ", "TCOPY", "BNEW"})
    EXPECT_TRUE(mnemonics.count(want)) << want;
  // CALL operands name the callee.
  EXPECT_NE(text.find("CALL    F0(WARSHALL), R"), std::string::npos);
  EXPECT_NE(text.find("CALL    F1(WARSHALL_C), R"), std::string::npos);
}

// The device engine decodes with operandCount, the packed table; every opcode's count must be its
// shape's length (a wrong one would make the engine read the next instruction from an operand).
TEST(Opcodes, PackedOperandCountsMatchTheShapes) {
  for (std::uint32_t o = 0; o < kOpCount; ++o) {
    const Op op = static_cast<Op>(o);
    EXPECT_EQ(operandCount(op), opInfo(op).shape.size()) << opInfo(op).name;
    EXPECT_EQ(operandCount(op) + 1, instrSize(op)) << opInfo(op).name;
  }
}

}  // namespace
}  // namespace star
