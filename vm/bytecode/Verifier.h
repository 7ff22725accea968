// The bytecode verifier (vm/bytecode/Verifier.cpp): everything a running VM relies on, proved
// before a module runs, so that a module the loader accepts cannot take the VM outside its memory
// (docs/BYTECODE.md 4.3). The loader (ModuleFile.h) calls it on every module it reads.
#pragma once

#include <stdexcept>

#include "vm/bytecode/Module.h"

namespace star {

// A module the VM must not run: a module file that is truncated, corrupt or of another version
// (ModuleFile.h), or a module that fails verification.
struct ModuleFormatError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Opcodes exist, operands are in range, jumps land on instruction boundaries, every function
// ends in RET, HALT or JMP, every register holds the kind of value its instructions expect (a
// handle operand never holds an integer), frames are bounded, the entry function takes nothing,
// natives have their parameters. Throws ModuleFormatError.
void verifyModule(const Module& m);

}  // namespace star
