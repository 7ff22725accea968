// The command line of `star`: the usage text and the options after the command, into a
// CommandLine (cli/main.cpp, and `star run-server` for each program it runs).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/Commands.h"

namespace star {

const char* usageText();
// `star: error: MESSAGE` and a note naming `star help COMMAND` (`star help` when COMMAND is not
// one), on stderr; returns 1.
int usageError(const std::string& message, const std::string& command = "");
// The words after the command name, into `cl` (its command set already). Returns an exit status
// when they end the command (a usage error, --help), nullopt to go on. Sets cl.modulePath.
std::optional<int> parseOptions(CommandLine& cl, const std::vector<std::string>& args);

}  // namespace star
