#include "cli/ProcessExit.h"

#include <atomic>

namespace star {

namespace {
// Set on the thread that runs the command (runWithLargeStack), read by main's thread after it.
std::atomic<Ending> ending{Ending::Normal};
}  // namespace

bool mayEndWithoutTeardown(bool gpuStarted, const char* injectionPath, const char* fullExit) {
  const auto set = [](const char* v) { return v != nullptr && *v != '\0'; };
  return gpuStarted && !set(injectionPath) && !set(fullExit);
}

void endWithoutTeardown(bool releaseInHelper) {
  ending = releaseInHelper ? Ending::ReleaseInHelper : Ending::SkipHandlers;
}

Ending requestedEnding() {
  return ending;
}

}  // namespace star
