// Finding the standard library beside the executable and the STAR_PATH directories
// (frontend/driver/StdlibLocation.h).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "frontend/driver/StdlibLocation.h"
#include "support/StarTestUtil.h"

namespace {

namespace fs = std::filesystem;

TEST(StdlibLocation, BesideTheExecutableInAnyTree) {
  startest::TempDir dir;
  fs::create_directories(dir.file("prefix/bin"));
  EXPECT_EQ(star::findStdlibBeside(dir.file("prefix/bin/star")).dir, "");  // no share/ yet
  EXPECT_EQ(star::findStdlibBeside(dir.file("prefix/bin/star")).looked,
            fs::path(dir.file("prefix/share/star/stdlib")).lexically_normal().string());
  fs::create_directories(dir.file("prefix/share/star/stdlib"));
  std::string real = fs::canonical(dir.file("prefix/share/star/stdlib")).string();
  EXPECT_EQ(star::findStdlibBeside(dir.file("prefix/bin/star")).dir, real);
  // Moved elsewhere, the tree still works; a link to the directory is resolved.
  fs::rename(dir.file("prefix"), dir.file("moved"));
  EXPECT_EQ(star::findStdlibBeside(dir.file("moved/bin/star")).dir,
            fs::canonical(dir.file("moved/share/star/stdlib")).string());
  fs::create_directories(dir.file("build/bin"));
  fs::create_directories(dir.file("build/share/star"));
  fs::create_directory_symlink(dir.file("moved/share/star/stdlib"),
                               dir.file("build/share/star/stdlib"));
  EXPECT_EQ(star::findStdlibBeside(dir.file("build/bin/star")).dir,
            fs::canonical(dir.file("moved/share/star/stdlib")).string());
  EXPECT_EQ(star::findStdlibBeside("").dir, "");
}

TEST(StdlibLocation, ExecutablePathIsKnown) {
  // /proc/self/exe names this test binary (BUILD/bin/star's own lookup: the install test).
  EXPECT_EQ(fs::path(star::executablePath()).filename(), "stdlib_location_test");
}

TEST(StdlibLocation, SearchPathsSplitOnColons) {
  EXPECT_EQ(star::splitSearchPath(nullptr), std::vector<std::string>{});
  EXPECT_EQ(star::splitSearchPath(""), std::vector<std::string>{});
  EXPECT_EQ(star::splitSearchPath("a:b::/c/d:"), (std::vector<std::string>{"a", "b", "/c/d"}));
}

TEST(StdlibLocation, UnitSearchOrder) {
  setenv("STAR_PATH", "/env/one:/env/two", 1);
  std::vector<std::string> path = star::unitSearchPath({"first", "second"});
  unsetenv("STAR_PATH");
  ASSERT_GE(path.size(), 4u);
  // The last --stdlib-path first, then STAR_PATH in order, then (if any) the stdlib beside us.
  EXPECT_EQ(path[0], "second");
  EXPECT_EQ(path[1], "first");
  EXPECT_EQ(path[2], "/env/one");
  EXPECT_EQ(path[3], "/env/two");
}

}  // namespace
