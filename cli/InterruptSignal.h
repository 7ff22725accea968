// Ctrl-C for a run: while an InterruptCatcher lives, SIGINT sets gInterruptRequested
// (core/Interrupt.h), which the interpreter, the engines, long primitives and blocking reads poll.
//
// The signal may land on any thread of the process (the large-stack thread runs the program while
// the main thread waits for it; backends have worker threads), so the handler forwards it to the
// thread that installed the catcher: a blocking open or read there (a FIFO with no writer) returns
// EINTR, since the handler is installed without SA_RESTART. With Second::Kills (star run) a second
// Ctrl-C ends the process at once, as the default action would.
#pragma once

#include <signal.h>

namespace star {

class InterruptCatcher {
 public:
  enum class Second { Kills, Interrupts };
  explicit InterruptCatcher(Second second);
  ~InterruptCatcher();  // the previous handler back
  InterruptCatcher(const InterruptCatcher&) = delete;
  InterruptCatcher& operator=(const InterruptCatcher&) = delete;

 private:
  struct sigaction previous_ {};
};

}  // namespace star
