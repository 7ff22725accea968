// Keeps library calls from changing this process's signal handling. NVRTC 13.0's compile installs
// a SIGINT and a SIGTERM handler of its own for the compile's length and then puts back the one it
// found with SA_RESTART added; star's Ctrl-C handlers (cli/InterruptSignal.cpp, the REPL's
// prompt) are installed without it, so that a blocked call returns EINTR instead of going on
// waiting. With several compiles at once (a build in parts) one compile can even take another's
// handler for the one to put back. So every KeepSignalFlags alive at once shares one record: the
// first to begin saves every handler, and the last to end puts back each one that changed.
// (A handler star's own code changed meanwhile on another thread would be put back too; star
// installs and removes its handlers around runs and prompts, which do not overlap a build's end
// in a way that loses one: at worst star's Ctrl-C handler stays installed between two REPL
// inputs, where it only sets the flag.)
#pragma once

#include <signal.h>

#include <mutex>

namespace star {

class KeepSignalFlags {
 public:
  KeepSignalFlags() {
    const std::lock_guard lock(shared().mutex);
    if (shared().users++ > 0) return;
    for (int s = 1; s < kSignals; ++s) sigaction(s, nullptr, &shared().saved[s]);
  }
  ~KeepSignalFlags() {
    const std::lock_guard lock(shared().mutex);
    if (--shared().users > 0) return;
    for (int s = 1; s < kSignals; ++s) {
      const struct sigaction& was = shared().saved[s];
      struct sigaction now {};
      if (sigaction(s, nullptr, &now) != 0) continue;
      if (now.sa_handler != was.sa_handler || now.sa_flags != was.sa_flags)
        sigaction(s, &was, nullptr);
    }
  }
  KeepSignalFlags(const KeepSignalFlags&) = delete;
  KeepSignalFlags& operator=(const KeepSignalFlags&) = delete;

 private:
  static constexpr int kSignals = 32;  // the standard signals (glibc reserves 32 and 33)
  struct Shared {
    std::mutex mutex;
    int users = 0;
    struct sigaction saved[kSignals] = {};
  };
  static Shared& shared() {
    static Shared s;
    return s;
  }
};

}  // namespace star
