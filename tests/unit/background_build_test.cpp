// vm/backend/BackgroundBuild.h: a compiled tier's build on a thread of its own, taken once when it
// is done; a build replaced by a newer one (or forgotten) is never taken; TierSwitch's test hook.
#include <gtest/gtest.h>

#include <cstdlib>
#include <future>
#include <string>

#include "vm/backend/BackgroundBuild.h"

namespace star {
namespace {

TEST(BackgroundBuild, TakesTheResultOnceItIsDone) {
  BackgroundBuild<std::string> build;
  std::string out;
  CompileStats stats;
  EXPECT_FALSE(build.take(out, stats));  // none started
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  build.start([gate](CompileStats& s) {
    gate.wait();
    s.misses = 1;
    return std::string("built");
  });
  EXPECT_TRUE(build.pending());
  EXPECT_FALSE(build.take(out, stats));  // still building
  release.set_value();
  ASSERT_TRUE(build.take(out, stats, /*block=*/true));
  EXPECT_EQ(out, "built");
  EXPECT_EQ(stats.misses, 1u);
  EXPECT_FALSE(build.pending());
  out.clear();
  EXPECT_FALSE(build.take(out, stats, true));  // taken once
  EXPECT_TRUE(out.empty());
}

TEST(BackgroundBuild, AReplacedBuildIsNeverTaken) {
  BackgroundBuild<std::string> build;
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  build.start([gate](CompileStats&) {
    gate.wait();
    return std::string("old program");
  });
  build.start([](CompileStats&) { return std::string("new program"); });
  std::string out;
  CompileStats stats;
  ASSERT_TRUE(build.take(out, stats, true));
  EXPECT_EQ(out, "new program");
  release.set_value();  // the old build finishes unseen
  build.forget();
  EXPECT_FALSE(build.take(out, stats, true));
}

TEST(TierSwitch, FirstHandOverByDefaultOrTheOneTheHookNames) {
  ::unsetenv("STAR_TIERED_SWITCH");
  TierSwitch any;
  bool block = true;
  EXPECT_TRUE(any.now(block));
  EXPECT_FALSE(block);
  ::setenv("STAR_TIERED_SWITCH", "3", 1);
  TierSwitch third;
  third.loaded();
  EXPECT_FALSE(third.now(block));
  EXPECT_FALSE(third.now(block));
  EXPECT_TRUE(third.now(block));
  EXPECT_TRUE(block);  // waits for the build at the third
  third.loaded();      // a new program counts again
  EXPECT_FALSE(third.now(block));
  ::unsetenv("STAR_TIERED_SWITCH");
}

TEST(CompileStats, AddsUp) {
  CompileStats total{1, 2, 0.5};
  addCompileStats(total, CompileStats{3, 4, 1.0});
  EXPECT_EQ(total.hits, 4u);
  EXPECT_EQ(total.misses, 6u);
  EXPECT_DOUBLE_EQ(total.seconds, 1.5);
}

}  // namespace
}  // namespace star
