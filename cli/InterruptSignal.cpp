#include "cli/InterruptSignal.h"

#include <pthread.h>

#include <atomic>

#include "core/Interrupt.h"

namespace star {

namespace {

// Set before the handler is installed (sigaction orders them) and read only by the handler.
pthread_t gWorker;
volatile sig_atomic_t gSecondKills = 0;
// A SIGINT this handler sent on to the worker, not one the user sent: the worker ignores it.
std::atomic<bool> gForwarded{false};
static_assert(std::atomic<bool>::is_always_lock_free, "used in a signal handler");

void onInterrupt(int) {
  const bool again = gInterruptRequested.exchange(true);
  if (!pthread_equal(pthread_self(), gWorker)) {
    if (!(again && gSecondKills)) {
      gForwarded.store(true);
      pthread_kill(gWorker, SIGINT);  // wakes the worker's blocking call with EINTR
      return;
    }
  } else if (gForwarded.exchange(false) || !again || !gSecondKills) {
    return;
  }
  signal(SIGINT, SIG_DFL);  // a second Ctrl-C: end the process as the default action does
  raise(SIGINT);
}

}  // namespace

InterruptCatcher::InterruptCatcher(Second second) {
  gWorker = pthread_self();
  gSecondKills = second == Second::Kills;
  gForwarded = false;
  struct sigaction sa {};
  sa.sa_handler = onInterrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking call returns EINTR (file opens, reads and writes
                    // also look at the flag every 50 ms: core/FileText.cpp)
  sigaction(SIGINT, &sa, &previous_);
}

InterruptCatcher::~InterruptCatcher() {
  sigaction(SIGINT, &previous_, nullptr);
}

}  // namespace star
