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
// The answer to `exit`, `quit`, `exit()`, `quit()`, `help` or `help()` typed alone (any case, as
// Star names are), which newcomers type at a prompt: a pointer to :quit or :help, or "" for any
// other line and for a name the session declares (`var quit: integer` is then read as Star).
std::string exitOrHelpHint(const std::string& line, const std::vector<std::string>& namesInScope);
// The command names without the ':' (for completion).
const std::vector<std::string>& metaCommandNames();

}  // namespace star::repl
