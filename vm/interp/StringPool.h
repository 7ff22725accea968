// String values: a string in a register or global is an index into this process-wide,
// append-only pool of interned strings (index 0 is ''). Indices stay valid however the module
// grows or shrinks (the REPL), and a corrupt index is detected instead of dereferenced.
#pragma once

#include <cstdint>
#include <string>

namespace star {

std::uint64_t internString(const std::string& s);
// The same for a string a program computed (WordToStr): a text not yet in the pool counts against
// the memory limit for the rest of the process (core/MemoryLimit.h; throws OutOfMemory beyond it),
// since the pool never gives it back.
std::uint64_t internCountedString(const std::string& s);
// Throws std::out_of_range for an index that was never handed out.
const std::string& pooledString(std::uint64_t index);
// Strings interned so far: every index below it is a valid string.
std::uint64_t pooledStringCount();

}  // namespace star
