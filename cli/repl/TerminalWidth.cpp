#include "cli/repl/TerminalWidth.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "cli/repl/BitPicture.h"

namespace star::repl {

int terminalColumns() {
  struct winsize size {};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  if (const char* columns = std::getenv("COLUMNS")) {
    char* end = nullptr;
    long n = std::strtol(columns, &end, 10);
    if (end != columns && *end == '\0' && n >= 1 && n <= 10000) return static_cast<int>(n);
  }
  return kDefaultTerminalColumns;
}

}  // namespace star::repl
