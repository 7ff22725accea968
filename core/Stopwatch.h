// Wall time since a point, in seconds (the compiled tier's build and load times, --stats).
#pragma once

#include <chrono>

namespace star {

class Stopwatch {
 public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace star
