// cli/ProcessExit.h: when `star run` may end without the CUDA driver's teardown; and
// core/DetachedExit.h: how it ends then.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "cli/ProcessExit.h"
#include "core/DetachedExit.h"

namespace star {
namespace {

TEST(ProcessExit, OnlyARunThatStartedTheGpuSkipsTheTeardown) {
  EXPECT_TRUE(mayEndWithoutTeardown(true, nullptr, nullptr));
  EXPECT_FALSE(mayEndWithoutTeardown(false, nullptr, nullptr));
}

TEST(ProcessExit, CudaToolsAndStarFullExitKeepIt) {
  // compute-sanitizer and Nsight inject themselves and report at the context's destruction.
  EXPECT_FALSE(mayEndWithoutTeardown(true, "/opt/nvidia/libInjection.so", nullptr));
  EXPECT_FALSE(mayEndWithoutTeardown(true, nullptr, "1"));
  // Set but empty is unset.
  EXPECT_TRUE(mayEndWithoutTeardown(true, "", ""));
}

TEST(ProcessExit, TheRequestIsRemembered) {
  EXPECT_EQ(requestedEnding(), Ending::Normal);
  endWithoutTeardown(true);
  EXPECT_EQ(requestedEnding(), Ending::ReleaseInHelper);
  // A GPU in exclusive-process mode: no helper, which would keep the device from the next star.
  endWithoutTeardown(false);
  EXPECT_EQ(requestedEnding(), Ending::SkipHandlers);
}

// The ending leaves the kernel's release of the process's files and address space to a helper
// that holds them and dies with the process: this test process becomes a subreaper, so the
// helper, orphaned when the process ends, is reparented to it and can be waited for. A process
// that merely exits leaves no helper behind.
TEST(ProcessExit, TheReleaseIsLeftToAHelperThatDiesWithTheProcess) {
  ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  struct NoLongerSubreaper {
    ~NoLongerSubreaper() { prctl(PR_SET_CHILD_SUBREAPER, 0); }
  } restore;
  int out[2];
  ASSERT_EQ(pipe2(out, O_CLOEXEC), 0);
  std::fflush(nullptr);  // nothing of this process's buffers reaches the child's pipe
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    dup2(out[1], 1);
    close(out[0]);
    close(out[1]);
    std::printf("written before the end\n");  // still buffered: the ending flushes it
    exitLeavingReleaseToHelper(7);
  }
  close(out[1]);
  // The output arrives, and its end too: the helper shares the file table, in which the
  // standard streams were closed first, so a caller reading to the end does not wait for it.
  std::string text;
  char buf[256];
  for (ssize_t n; (n = read(out[0], buf, sizeof buf)) > 0;)
    text.append(buf, static_cast<std::size_t>(n));
  close(out[0]);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7);
  EXPECT_EQ(text, "written before the end\n");
  // Every other child left now is the helper, reparented to this process: killed at its
  // creator's death, or (when the creator was gone before it asked to be) ended by itself.
  int helpers = 0;
  for (int helperStatus = 0; waitpid(-1, &helperStatus, 0) > 0;) {
    ++helpers;
    EXPECT_TRUE((WIFSIGNALED(helperStatus) && WTERMSIG(helperStatus) == SIGKILL) ||
                (WIFEXITED(helperStatus) && WEXITSTATUS(helperStatus) == 0));
  }
  EXPECT_EQ(helpers, 1) << "no helper was left to end after the process";
}

}  // namespace
}  // namespace star
