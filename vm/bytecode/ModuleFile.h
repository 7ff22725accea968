// Reading and writing compiled modules (.starc files). The format is in docs/BYTECODE.md: a
// magic number, the format version, the payload, and an FNV-1a checksum of the payload. The
// loader rejects anything truncated, corrupt or of another version, then verifies the code.
#pragma once

#include <stdexcept>
#include <string>

#include "core/Printable.h"
#include "vm/bytecode/Module.h"

namespace star {

struct ModuleFormatError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string serializeModule(const Module& m);
Module deserializeModule(const std::string& bytes);  // throws ModuleFormatError
// A module file around `payload` (magic, version, size, checksum): for the fuzzer, which mutates
// payloads that would otherwise almost never pass the checksum.
std::string sealModulePayload(const std::string& payload);

// Everything a running VM relies on (vm/bytecode/Verifier.cpp): opcodes exist, operands are in
// range, jumps land on instruction boundaries, every function ends in RET, HALT or JMP, every
// register holds the kind of value its instructions expect (a handle operand never holds an
// integer), frames are bounded, the entry function takes nothing, natives have their
// parameters. Throws ModuleFormatError.
void verifyModule(const Module& m);

}  // namespace star
