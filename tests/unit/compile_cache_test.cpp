// core/DiskCache and the compiled tier's host build (runtime-cpu/HostCompiler): a corrupt,
// truncated or foreign entry reads as a miss and is rebuilt; concurrent writers leave one whole
// entry; a changed source (or star version: it is part of every key) is another entry.
#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/DiskCache.h"
#include "runtime-cpu/HostCompiler.h"
#include "vm/compile/EmitCpp.h"

namespace star {
namespace {

class CacheDir : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/star-cache-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }
  std::string file(const std::string& key) const { return dir_ + "/" + key; }
  std::string readRaw(const std::string& key) const {
    std::ifstream in(file(key), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  void writeRaw(const std::string& key, const std::string& bytes) const {
    std::ofstream(file(key), std::ios::binary | std::ios::trunc) << bytes;
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    if (DIR* d = opendir(dir_.c_str())) {
      while (dirent* e = readdir(d))
        if (e->d_name[0] != '.') names.push_back(e->d_name);
      closedir(d);
    }
    return names;
  }
  std::string dir_;
};

TEST_F(CacheDir, StoresAndReadsBack) {
  DiskCache cache(dir_ + "/nested/dir");
  EXPECT_FALSE(cache.read("k1").has_value());
  ASSERT_TRUE(cache.write("k1", std::string("binary\0payload", 14)));
  auto got = cache.read("k1");
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, std::string("binary\0payload", 14));
}

TEST_F(CacheDir, CorruptTruncatedOrForeignEntriesAreMisses) {
  DiskCache cache(dir_);
  ASSERT_TRUE(cache.write("k", "the compiled code"));
  const std::string whole = readRaw("k");
  std::string flipped = whole;
  flipped.back() ^= 1;
  writeRaw("k", flipped);
  EXPECT_FALSE(cache.read("k").has_value()) << "a flipped bit";
  writeRaw("k", whole.substr(0, whole.size() - 3));
  EXPECT_FALSE(cache.read("k").has_value()) << "truncated";
  writeRaw("k", whole + "more");
  EXPECT_FALSE(cache.read("k").has_value()) << "longer than it says";
  writeRaw("k",
           "\x7f"
           "ELF not ours");
  EXPECT_FALSE(cache.read("k").has_value()) << "foreign";
  writeRaw("k", "STARCACHE1\n99999999999999 1\n");
  EXPECT_FALSE(cache.read("k").has_value()) << "a length past the file";
  ASSERT_TRUE(cache.write("k", "the compiled code"));  // rebuilt over it
  EXPECT_EQ(cache.read("k").value_or(""), "the compiled code");
}

TEST_F(CacheDir, ConcurrentWritersLeaveOneWholeEntry) {
  DiskCache cache(dir_);
  std::vector<std::thread> writers;
  for (int w = 0; w < 8; ++w)
    writers.emplace_back([&, w] {
      for (int i = 0; i < 20; ++i)
        cache.write("shared", std::string(100000 + w, static_cast<char>('a' + w)));
    });
  for (auto& t : writers) t.join();
  auto got = cache.read("shared");
  ASSERT_TRUE(got.has_value());
  const char c = (*got)[0];
  EXPECT_EQ(got->size(), 100000u + static_cast<unsigned>(c - 'a'));
  EXPECT_EQ(got->find_first_not_of(c), std::string::npos) << "two writers' bytes mixed";
  EXPECT_EQ(entries(), std::vector<std::string>{"shared"}) << "a temporary file was left behind";
}

TEST_F(CacheDir, DirectoryComesFromTheEnvironment) {
  setenv("STAR_CACHE_DIR", dir_.c_str(), 1);
  EXPECT_EQ(cacheDirectory(), dir_);
  unsetenv("STAR_CACHE_DIR");
  setenv("XDG_CACHE_HOME", "/x", 1);
  EXPECT_EQ(cacheDirectory(), "/x/star");
  unsetenv("XDG_CACHE_HOME");
}

// The host build: compiled once, then a hit; a corrupt entry is rebuilt.
constexpr const char* kSource = "extern \"C\" int star_answer() { return 42; }\n";

TEST_F(CacheDir, HostBuildIsCachedAndACorruptEntryIsRebuilt) {
  setenv("STAR_CACHE_DIR", dir_.c_str(), 1);
  cpu::HostCompiler cc;
  std::string error;
  auto* f = reinterpret_cast<int (*)()>(cc.compile(kSource, {}, "star_answer", true, error));
  ASSERT_NE(f, nullptr) << error;
  EXPECT_EQ(f(), 42);
  EXPECT_EQ(cc.stats().misses, 1u);
  auto* g = reinterpret_cast<int (*)()>(cc.compile(kSource, {}, "star_answer", true, error));
  ASSERT_NE(g, nullptr) << error;
  EXPECT_EQ(g(), 42);
  EXPECT_EQ(cc.stats().hits, 1u);
  const std::vector<std::string> names = entries();
  ASSERT_EQ(names.size(), 1u);
  writeRaw(names[0], readRaw(names[0]).substr(0, 100));  // truncated
  auto* h = reinterpret_cast<int (*)()>(cc.compile(kSource, {}, "star_answer", true, error));
  ASSERT_NE(h, nullptr) << error;
  EXPECT_EQ(h(), 42);
  EXPECT_EQ(cc.stats().misses, 2u);
  // Another source is another entry.
  ASSERT_NE(
      cc.compile("extern \"C\" int star_answer() { return 7; }\n", {}, "star_answer", true, error),
      nullptr);
  EXPECT_EQ(entries().size(), 2u);
  unsetenv("STAR_CACHE_DIR");
}

TEST_F(CacheDir, NoCacheWritesNothing) {
  setenv("STAR_CACHE_DIR", dir_.c_str(), 1);
  cpu::HostCompiler cc;
  std::string error;
  ASSERT_NE(cc.compile(kSource, {}, "star_answer", false, error), nullptr) << error;
  EXPECT_TRUE(entries().empty());
  unsetenv("STAR_CACHE_DIR");
}

TEST_F(CacheDir, AMissingCompilerIsAClearError) {
  setenv("STAR_CXX", "/nonexistent/c++", 1);
  cpu::HostCompiler cc;
  std::string error;
  EXPECT_EQ(cc.compile(kSource, {}, "star_answer", false, error), nullptr);
  EXPECT_NE(error.find("no C++ compiler"), std::string::npos) << error;
  unsetenv("STAR_CXX");
}

TEST(GeneratorKey, CoversTheEmbeddedHeaders) {
  // Every header the generated code includes is embedded (a missing one would fail every host
  // build), and the key changes with them.
  bool core = false;
  for (const EmbeddedFile& f : compile::engineHeaders())
    core = core || f.path == "vm/engine/EngineCore.h";
  EXPECT_TRUE(core);
  EXPECT_NE(compile::generatorKey(), 0u);
}

}  // namespace
}  // namespace star
