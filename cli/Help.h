// `star help COMMAND` and `star COMMAND --help`: each command's usage, options and an example,
// from one table (cli/Help.cpp).
#pragma once

#include <string>

namespace star {

// That command's help on stdout (status 0), or `star: error: unknown command 'X'` on stderr
// (status 1). "--version" and "version" are the same command.
int printCommandHelp(const std::string& command);

// The help text of a command, "" for an unknown one.
std::string commandHelpText(const std::string& command);

// "1.5" or "30" as seconds (>= 0, finite).
bool parseSeconds(const std::string& text, double* seconds);

}  // namespace star
