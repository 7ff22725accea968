// Keeps a library call from changing how this process's signal handlers behave. NVRTC 13.0's
// compile re-installs the SIGINT and SIGTERM handlers it finds with SA_RESTART added; star's
// Ctrl-C handler (cli/InterruptSignal.cpp, the REPL's prompt) is installed without it, so that a
// blocked call returns EINTR instead of restarting. Around such a call, a KeepSignalFlags puts back
// the flags of every handler the call left in place; a handler that was replaced meanwhile (by
// star's own code on another thread) is left as it is.
#pragma once

#include <signal.h>

namespace star {

class KeepSignalFlags {
 public:
  KeepSignalFlags() {
    for (int s = 1; s < kSignals; ++s) known_[s] = sigaction(s, nullptr, &saved_[s]) == 0;
  }
  ~KeepSignalFlags() {
    for (int s = 1; s < kSignals; ++s) {
      struct sigaction now {};
      if (!known_[s] || sigaction(s, nullptr, &now) != 0) continue;
      if (now.sa_handler == saved_[s].sa_handler && now.sa_flags != saved_[s].sa_flags)
        sigaction(s, &saved_[s], nullptr);
    }
  }
  KeepSignalFlags(const KeepSignalFlags&) = delete;
  KeepSignalFlags& operator=(const KeepSignalFlags&) = delete;

 private:
  static constexpr int kSignals = 32;  // the standard signals; glibc keeps the real-time ones
  struct sigaction saved_[kSignals] = {};
  bool known_[kSignals] = {};
};

}  // namespace star
