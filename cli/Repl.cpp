#include <iostream>

#include "cli/Commands.h"

namespace star {

int commandRepl(const CommandLine&) {
  std::cerr << "star: the REPL is not available yet\n";
  return 1;
}

}  // namespace star
