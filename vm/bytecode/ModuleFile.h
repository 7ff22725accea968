// Reading and writing compiled modules (.starc files). The format is in docs/BYTECODE.md: a
// magic number, the format version, the payload, and an FNV-1a checksum of the payload. The
// loader rejects anything truncated, corrupt or of another version, then verifies the code.
#pragma once

#include <string>

#include "core/Printable.h"
#include "vm/bytecode/Module.h"
#include "vm/bytecode/Verifier.h"  // ModuleFormatError; the loader verifies what it reads

namespace star {

std::string serializeModule(const Module& m);
Module deserializeModule(const std::string& bytes);  // throws ModuleFormatError
// A module file around `payload` (magic, version, size, checksum): for the fuzzer, which mutates
// payloads that would otherwise almost never pass the checksum.
std::string sealModulePayload(const std::string& payload);

}  // namespace star
