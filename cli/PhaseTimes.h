// star run --time-report: the wall time of each phase of a run (compile, backend start, run,
// release), printed on stderr when the run ends, as LLVM's -ftime-report does for its passes.
// What happens before main (loading the executable and its shared libraries) and after it (the
// driver tearing down a CUDA context) is what an outside timer sees beyond the total printed here.
#pragma once

#include <chrono>
#include <cstdio>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace star {

class PhaseTimes {
 public:
  explicit PhaseTimes(bool on) : on_(on), last_(Clock::now()), start_(last_) {}

  // Ends the phase that ran since the previous mark (or the start), naming it.
  void mark(std::string name) {
    if (!on_) return;
    const Clock::time_point now = Clock::now();
    phases_.emplace_back(std::move(name), Ms(now - last_).count());
    last_ = now;
  }

  // As mark, with `partMs` of the phase reported as a phase of its own, `part`, before it (the
  // compiled tier's build inside a run).
  void markSplit(std::string part, double partMs, std::string name) {
    if (!on_) return;
    const Clock::time_point now = Clock::now();
    const double all = Ms(now - last_).count();
    phases_.emplace_back(std::move(part), partMs);
    phases_.emplace_back(std::move(name), all - partMs);
    last_ = now;
  }

  void print(std::ostream& out) const {
    if (!on_) return;
    out << "time report (wall, ms):\n";
    for (const auto& [name, ms] : phases_) line(out, name, ms);
    line(out, "total in star", Ms(last_ - start_).count());
  }

 private:
  using Clock = std::chrono::steady_clock;
  using Ms = std::chrono::duration<double, std::milli>;

  static void line(std::ostream& out, const std::string& name, double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%10.2f", ms);
    out << "  " << buf << "  " << name << "\n";
  }

  bool on_;
  Clock::time_point last_, start_;
  std::vector<std::pair<std::string, double>> phases_;
};

}  // namespace star
