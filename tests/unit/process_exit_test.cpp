// cli/ProcessExit.h: when `star run` may end without the CUDA driver's teardown.
#include <gtest/gtest.h>

#include "cli/ProcessExit.h"

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
  EXPECT_FALSE(endingWithoutTeardown());
  endWithoutTeardown();
  EXPECT_TRUE(endingWithoutTeardown());
}

}  // namespace
}  // namespace star
