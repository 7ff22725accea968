// Runs a command with its standard output and error captured, for `star test`.
#pragma once

#include <string>
#include <vector>

namespace star::test {

struct ChildResult {
  int status = 0;         // the exit status; 128 + N when killed by signal N
  bool timedOut = false;  // killed after the time limit
  std::string out, err;   // what it wrote (at most 64 MB of each)
  std::string failure;    // why it could not be run ("" when it ran)
};

// Runs argv[0] (a path) with argv, in directory `dir`, stdin from /dev/null; kills it after
// `timeoutSeconds` (0: no limit).
ChildResult runChild(const std::vector<std::string>& argv, const std::string& dir,
                     double timeoutSeconds);

}  // namespace star::test
