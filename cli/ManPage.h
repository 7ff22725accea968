// `star help --man`: the manual page star(1), in roff, made from the same tables as `star help`
// (cli/Help.cpp's per-command help, cli/Options.cpp's usage), so that the two never disagree.
// The build writes it to share/man/man1/star.1 and installs it.
#pragma once

#include <string>

namespace star {

std::string manPage(const std::string& version);

}  // namespace star
