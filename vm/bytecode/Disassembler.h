// `star dis`: a readable listing of a module, with the source lines interleaved.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

#include "vm/bytecode/Module.h"

namespace star {

// sourceLine(file, line) returns the text of a source line, or "" when unavailable.
using SourceLineFn = std::function<std::string(std::uint32_t file, std::uint32_t line)>;

void disassemble(const Module& m, std::ostream& out, const SourceLineFn& sourceLine);
void disassembleFunction(const Module& m, std::uint32_t index, std::ostream& out,
                         const SourceLineFn& sourceLine);

}  // namespace star
