// The REPL's meta-commands: a line that starts with ':' (which no Star input can).
#pragma once

#include <string>
#include <vector>

#include "cli/repl/ReplSession.h"

namespace star::repl {

enum class MetaResult { Continue, Quit };

// True when the line is a meta-command (its first non-blank character is ':').
bool isMetaCommand(const std::string& line);
MetaResult runMetaCommand(ReplSession& session, const std::string& line);
// The command names without the ':' (for completion).
const std::vector<std::string>& metaCommandNames();

}  // namespace star::repl
