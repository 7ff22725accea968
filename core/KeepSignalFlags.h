// Keeps a library call from making this process's signal handlers restart what they interrupt.
// NVRTC 13.0's compile re-installs the SIGINT and SIGTERM handlers it finds with SA_RESTART added;
// star's Ctrl-C handlers (cli/InterruptSignal.cpp, the REPL's prompt) are installed without it, so
// that a blocked call returns EINTR instead of going on waiting. When a KeepSignalFlags made
// before such a call ends, every handler that has SA_RESTART now but had not then loses it again
// (also one that star's own code installed meanwhile on another thread: star never asks for it).
#pragma once

#include <signal.h>

namespace star {

class KeepSignalFlags {
 public:
  KeepSignalFlags() {
    for (int s = 1; s < kSignals; ++s) restarting_[s] = restarts(s);
  }
  ~KeepSignalFlags() {
    for (int s = 1; s < kSignals; ++s) {
      struct sigaction now {};
      if (restarting_[s] || sigaction(s, nullptr, &now) != 0 || !(now.sa_flags & SA_RESTART))
        continue;
      now.sa_flags &= ~SA_RESTART;
      sigaction(s, &now, nullptr);
    }
  }
  KeepSignalFlags(const KeepSignalFlags&) = delete;
  KeepSignalFlags& operator=(const KeepSignalFlags&) = delete;

 private:
  static constexpr int kSignals = 32;  // the standard signals; glibc keeps the real-time ones
  static bool restarts(int s) {
    struct sigaction a {};
    return sigaction(s, nullptr, &a) == 0 && (a.sa_flags & SA_RESTART);
  }
  bool restarting_[kSignals] = {};
};

}  // namespace star
