// How `star run` and the REPL show a run-time error: the message at its location, then the call
// trace that led there, so that an error inside a unit's procedure also names the user's call.
#pragma once

#include <string>

#include "frontend/diag/Diagnostics.h"
#include "vm/interp/Interpreter.h"

namespace star {

// "PATH:LINE:COL: runtime error: MESSAGE", the source line and its caret (when the source text
// is at hand), then one "note: called from PATH:LINE:COL" line per call site, innermost first
// ("(N times)" for a run of recursive calls from one place, "note: ... N more calls" past the
// cap of RuntimeError::kMaxCallers lines), then the error's notes (RuntimeNote: with a location
// and its source line, or a plain "note: ..." line).
std::string formatRuntimeError(const SourceManager& sources, const RuntimeError& e);

}  // namespace star
