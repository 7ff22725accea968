// Runs a command with its standard output and error captured, for `star test`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace star::test {

struct ChildResult {
  int status = 0;            // the exit status; 128 + N when killed by signal N
  bool timedOut = false;     // killed after the time limit
  bool interrupted = false;  // killed because `star test` was interrupted (StopSignals)
  std::string out, err;      // what it wrote, at most `maxCaptured` bytes of each
  std::string failure;       // why it could not be run ("" when it ran)
  // How much it wrote in all: more than out.size() (err.size()) when the output was cut.
  std::uint64_t outBytes = 0, errBytes = 0;
};

// Runs argv[0] (a path) with argv, in directory `dir`, stdin from /dev/null; kills it after
// `timeoutSeconds` (0: no limit), or as soon as a StopSignals handler has caught a signal.
ChildResult runChild(const std::vector<std::string>& argv, const std::string& dir,
                     double timeoutSeconds, std::uint64_t maxCaptured);

// While one exists, Ctrl-C (SIGINT) and SIGTERM stop `star test` after killing the running
// child, instead of killing `star test` alone, which left the child behind (with SIGTERM, or a
// SIGINT sent to `star test` only). A second signal ends `star test` at once. A signal that was
// ignored when it started (a background job) stays ignored.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  // The signal caught (SIGINT, SIGTERM), or 0.
  static int received();
};

}  // namespace star::test
