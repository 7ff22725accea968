// The compiled tier's C++: the IR (CompiledIr.h) as source that runs on the device engine's team
// (vm/engine/EngineCompiled.h). The same text compiles with NVRTC for the GPU and with the host
// compiler for host threads; each wraps it with its own entry point (the kernel, or a C function
// over the host team). `star dis --emit=cuda` prints it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/EmbeddedFile.h"
#include "vm/compile/CompiledIr.h"
#include "vm/engine/EngineRun.h"

namespace star::compile {

// The functions and the trampoline, in namespace star_compiled:
//   template <class Team> STAR_HD_FN void run(Team&, const star::engine::Program&,
//                                               star::engine::Region);
// which runs until the engine stops, as Core::run does. Includes vm/engine/EngineCompiled.h.
// countOps: each instruction counts itself for --stats (Compiled::counted); without it the code
// counts nothing (and builds a third faster).
std::string emitCpp(std::span<const IrFunction> functions, bool countOps = false);

// The same text in parts, for a build that compiles pieces of it side by side (the functions are
// kept apart by STAR_CFN, so a piece needs the others' declarations only): `prelude` (the include,
// every function's declaration, the namespace opened), each reached function's definition (fK,
// K = indices[i]), the trampoline run(); then kNamespaceEnd closes the namespace. text() joins them
// into emitCpp's text.
struct GeneratedCpp {
  static constexpr const char* kNamespaceEnd = "}  // namespace star_compiled\n";
  std::string prelude;
  std::vector<std::string> functions;
  std::vector<std::uint32_t> indices;
  std::string trampoline;
  std::string text() const;
};
GeneratedCpp emitCppParts(std::span<const IrFunction> functions, bool countOps = false);
GeneratedCpp emitCppParts(const EngineProgramImage& image);
// The same for the program the device engine loads (its op words back to plain opcodes), from
// the image's entry: what both run-time builds compile.
std::string emitCpp(const EngineProgramImage& image);

// The headers the generated code includes (the engine's, and what they include), by their paths
// from the repository root, for the run-time compilers.
std::span<const EmbeddedFile> engineHeaders();

// The macros NVRTC needs for vm/bytecode/Opcodes.h, which it compiles without the opcode table
// (no <string_view> there): the masks and packed operand counts, as "-DNAME=VALUE" options.
std::vector<std::string> deviceOpcodeDefines();

// A hash of everything besides the generated source that changes compiled code: the embedded
// headers and star's version.
std::uint64_t generatorKey();

}  // namespace star::compile
