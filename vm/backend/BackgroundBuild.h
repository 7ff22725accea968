// A compiled tier's build on a thread of its own (--engine=tiered): the engine runs the program
// on the interpreter meanwhile and takes the result at a later hand-over (DeviceEngine::run), where
// the run's state is the interpreter's own and compiled code enters it anywhere. A build whose
// program was replaced meanwhile (load again, start again) finishes unseen: its thread is
// detached and its result dropped.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "vm/backend/DeviceEngine.h"

namespace star {

// Adds what one build did to the totals.
inline void addCompileStats(CompileStats& total, const CompileStats& one) {
  total.hits += one.hits;
  total.misses += one.misses;
  total.seconds += one.seconds;
}

// When an engine takes a finished build: at the first hand-over after it finishes; or, where
// $STAR_TIERED_SWITCH=N (tests), at exactly the N-th hand-over after the load (waiting for the
// build there), so that a test can switch a run from the interpreter to compiled code at a
// place of its choosing.
class TierSwitch {
 public:
  TierSwitch() {
    if (const char* n = std::getenv("STAR_TIERED_SWITCH"); n && *n)
      at_ = std::strtoull(n, nullptr, 10);
  }
  void loaded() { handOvers_ = 0; }
  // Called at each hand-over: whether to take the build now, and whether to wait for it.
  bool now(bool& block) {
    ++handOvers_;
    block = at_ != 0 && handOvers_ == at_;
    return at_ == 0 || handOvers_ >= at_;
  }

 private:
  std::uint64_t at_ = 0, handOvers_ = 0;
};

template <class T>
class BackgroundBuild {
 public:
  // Starts build(stats) on a thread of its own; a build started before is forgotten.
  void start(std::function<T(CompileStats&)> build) {
    switch_.loaded();
    auto state = std::make_shared<State>();
    state_ = state;
    std::thread([state, build = std::move(build)] {
      CompileStats stats;
      T result = build(stats);
      {
        const std::lock_guard lock(state->mutex);
        state->result = std::move(result);
        state->stats = stats;
        state->ready = true;
      }
      state->done.notify_all();
    }).detach();
  }
  // The result, once, when the build has finished (or, with `block`, after waiting for it): true,
  // with `out` and `stats` set. False while it runs, and when none was started.
  bool take(T& out, CompileStats& stats, bool block = false) {
    if (!state_) return false;
    {
      std::unique_lock lock(state_->mutex);
      if (block) state_->done.wait(lock, [&] { return state_->ready; });
      if (!state_->ready) return false;
      out = std::move(state_->result);
      stats = state_->stats;
    }
    state_.reset();
    return true;
  }
  // At an engine's hand-over: the finished build, when the switch says to take it (TierSwitch),
  // with what it did added to `total`.
  bool takeAtHandOver(T& out, CompileStats& total) {
    bool block = false;
    CompileStats stats;
    if (!state_ || !switch_.now(block) || !take(out, stats, block)) return false;
    addCompileStats(total, stats);
    return true;
  }
  bool pending() const { return state_ != nullptr; }
  void forget() { state_.reset(); }

 private:
  struct State {
    std::mutex mutex;
    std::condition_variable done;
    bool ready = false;
    T result{};
    CompileStats stats;
  };
  std::shared_ptr<State> state_;
  TierSwitch switch_;
};

}  // namespace star
