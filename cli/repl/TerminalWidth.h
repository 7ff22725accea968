// The width of the terminal that shows the REPL's output, for :show.
#pragma once

namespace star::repl {

// Standard output's terminal width when it is a terminal; else $COLUMNS when it is a number
// (1..10000); else 80.
int terminalColumns();

}  // namespace star::repl
