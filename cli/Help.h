// `star help COMMAND` and `star COMMAND --help`: each command's usage, options and an example,
// from one table (cli/Help.cpp).
#pragma once

#include <string>
#include <vector>

namespace star {

// That command's help on stdout (status 0), or `star: error: unknown command 'X'` on stderr
// (status 1). "--version" and "version" are the same command.
int printCommandHelp(const std::string& command);

// The help text of a command, "" for an unknown one.
std::string commandHelpText(const std::string& command);

// The commands of the help table, in its order (star(1) has a section for each).
std::vector<std::string> helpCommands();

// A command of the help table ("version" also as "--version"; "--help" and "-h").
bool isCommand(const std::string& word);

// `star: error: unknown command 'X'`, with `; did you mean 'Y'?` when a command is close, and a
// note pointing at `star help`, on stderr; returns 1.
int unknownCommandError(const std::string& word);

// The closest command to a mistyped one, "" when none is close (core/Spelling.h's rule).
std::string suggestCommand(const std::string& word);

// The closest option of the option table to a mistyped one, with the value the user gave
// ("--bakend=cpu": "--backend=cpu"), "" when none is close. Leading dashes are not compared.
std::string suggestOption(const std::string& word);

// "1.5" or "30" as seconds (>= 0, finite).
bool parseSeconds(const std::string& text, double* seconds);

}  // namespace star
