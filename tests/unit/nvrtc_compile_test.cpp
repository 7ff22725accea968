// The compiled tier's GPU build without a GPU: the code generated for programs, with its kernels
// (runtime-cuda/kernels/CompiledKernels.cuh), compiled by NVRTC to relocatable code and linked by
// nvJitLink with the interpreter's code star carries (CompiledLibrary.cu), as CompiledBuild.h does
// before a load. It proves the code compiles and links and that both kernels are in the cubin, not
// a launch (that needs a GPU), and reports the build's time. Skipped where libnvrtc or
// libnvJitLink cannot be loaded.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime-cuda/CompiledBuild.h"
#include "runtime-cuda/DeviceLinker.h"
#include "runtime-cuda/NvrtcCompiler.h"
#include "tests/unit/support/StarTestUtil.h"
#include "vm/compile/CompiledIr.h"
#include "vm/compile/EmitCpp.h"

namespace star {
namespace {

// The program's generated C++; every function of the module, not only those its entry reaches,
// when `all` (a unit's whole cost).
compile::GeneratedCpp generatedParts(const Module& m, bool all) {
  std::vector<compile::FunctionCode> functions;
  for (const Function& f : m.functions) functions.push_back({f.name, f.code, f.numRegs});
  std::vector<compile::IrFunction> ir = compile::buildIr(functions, m.entry);
  if (all)
    for (compile::IrFunction& f : ir) f.reached = true;
  return compile::emitCppParts(ir);
}

// The generated code of a small program with a loop (no functions if it did not compile).
compile::GeneratedCpp smallProgram(startest::TempDir& dir) {
  const auto c = startest::compileSource(
      dir,
      "program Small;\nvar i, s: integer;\nbegin\n  s := 0;\n  for i := 1 to 10 do s := s + i;\n"
      "  writeln(s)\nend.\n");
  EXPECT_TRUE(c.ok) << c.diagnostics;
  return c.ok ? generatedParts(c.module, false) : compile::GeneratedCpp{};
}

// Skips the test where libnvrtc or libnvJitLink cannot be loaded.
#define STAR_SKIP_WITHOUT_BUILD_LIBRARIES(nvrtc)                           \
  do {                                                                     \
    if (!(nvrtc).available()) GTEST_SKIP() << (nvrtc).unavailableReason(); \
    if (const cuda::DeviceLinker linker; !linker.available())              \
      GTEST_SKIP() << linker.unavailableReason();                          \
  } while (false)

class NvrtcCompile : public ::testing::TestWithParam<const char*> {};

TEST_P(NvrtcCompile, GeneratedCodeCompilesAndLinksForSm90) {
  cuda::NvrtcCompiler nvrtc;
  STAR_SKIP_WITHOUT_BUILD_LIBRARIES(nvrtc);
  const std::string file = GetParam();
  const bool wholeUnit = file.find("stdlib/") != std::string::npos;
  startest::TempDir dir;
  const auto c = wholeUnit ? startest::compileWithStdlib(
                                 dir, "program UsesGraphs;\nuses graphs;\nbegin\nend.\n")
                           : startest::compileFile(startest::sourceDir() + "/" + file, false,
                                                   {startest::sourceDir() + "/stdlib"});
  ASSERT_TRUE(c.ok) << c.diagnostics;
  // In as many parts as star would build it in on this machine (CompiledBuild.h).
  const compile::GeneratedCpp code = generatedParts(c.module, wholeUnit);
  for (const bool grid : {false, true}) {
    const cuda::GpuBuild build = cuda::buildForGpu(code, grid, 90, false);
    ASSERT_FALSE(build.cubin.empty()) << build.error;
    EXPECT_FALSE(build.fromCache);
    EXPECT_EQ(build.cubin.substr(1, 3), "ELF");  // a cubin is an ELF image
    // One form a build.
    EXPECT_EQ(build.cubin.find("star_compiled_block") != std::string::npos, !grid);
    EXPECT_EQ(build.cubin.find("star_compiled_grid") != std::string::npos, grid);
    // The interpreter's code came linked, not compiled again: its functions are in the cubin.
    EXPECT_NE(build.cubin.find("9interpretEj"), std::string::npos);
    // And so did each opcode's own code for the bits (Compiled::team<Op>, instantiated there).
    EXPECT_NE(build.cubin.find("4teamILNS_2OpE"), std::string::npos);
    std::printf("%s, %s form: NVRTC %s %.2f s, nvJitLink %.2f s, %zu bytes of cubin\n",
                file.c_str(), grid ? "grid" : "block", nvrtc.version().c_str(),
                build.compileSeconds, build.linkSeconds, build.cubin.size());
  }
}

// A program compiled in parts side by side links into its kernel: every part's functions resolve
// (a call into another part is an undefined symbol until the link), in both forms. (The whole
// build is every other test's; both have the program's one cache key, that of its whole text.)
TEST(NvrtcCompilePieces, PartsLinkIntoOneKernel) {
  cuda::NvrtcCompiler nvrtc;
  STAR_SKIP_WITHOUT_BUILD_LIBRARIES(nvrtc);
  startest::TempDir dir;
  const auto c = startest::compileFile(startest::sourceDir() + "/examples/dijkstra.star", false,
                                       {startest::sourceDir() + "/stdlib"});
  ASSERT_TRUE(c.ok) << c.diagnostics;
  const compile::GeneratedCpp code = generatedParts(c.module, false);
  ASSERT_GE(code.functions.size(), 3u);
  for (const bool grid : {false, true}) {
    const cuda::GpuBuild parts = cuda::buildForGpu(code, grid, 90, false, 3);
    ASSERT_FALSE(parts.cubin.empty()) << parts.error;
    EXPECT_EQ(parts.parts, 3u);  // really built in parts
    const char* kernel = grid ? "star_compiled_grid" : "star_compiled_block";
    EXPECT_NE(parts.cubin.find(kernel), std::string::npos);
    for (const std::uint32_t k : code.indices)  // each function's code is in the cubin
      EXPECT_NE(parts.cubin.find("13star_compiled" + std::to_string(std::to_string(k).size() + 1) +
                                 "f" + std::to_string(k) + "I"),
                std::string::npos)
          << "f" << k;
    std::printf("dijkstra, %s form: 3 parts, NVRTC %.2f s\n", grid ? "grid" : "block",
                parts.compileSeconds);
  }
}

// The cache returns what the build made, and a changed architecture is another entry.
TEST(NvrtcCompileCache, SecondBuildComesFromTheCache) {
  cuda::NvrtcCompiler nvrtc;
  STAR_SKIP_WITHOUT_BUILD_LIBRARIES(nvrtc);
  startest::TempDir dir;
  ::setenv("STAR_CACHE_DIR", dir.file("cache").c_str(), 1);
  const compile::GeneratedCpp source = smallProgram(dir);
  ASSERT_FALSE(source.functions.empty());
  const cuda::GpuBuild first = cuda::buildForGpu(source, false, 90, true);
  ASSERT_FALSE(first.cubin.empty()) << first.error;
  const cuda::GpuBuild second = cuda::buildForGpu(source, false, 90, true);
  EXPECT_TRUE(second.fromCache);
  EXPECT_EQ(second.cubin, first.cubin);
  EXPECT_EQ(second.key, first.key);
  // sm_100 links the library's PTX (compiled by nvJitLink): another key, a build of its own.
  const cuda::GpuBuild other = cuda::buildForGpu(source, false, 100, true);
  ASSERT_FALSE(other.cubin.empty()) << other.error;
  EXPECT_FALSE(other.fromCache);
  EXPECT_NE(other.key, first.key);
  ::unsetenv("STAR_CACHE_DIR");
}

// A build leaves the process's Ctrl-C handler as it found it: NVRTC 13.0 installs its own for a
// compile's length and puts the one it found back with SA_RESTART added (star's handler needs a
// blocked call to return EINTR: on the GPU, compiled code's first run of a program hung in the
// open of a FIFO after Ctrl-C), and compiles side by side may even put back one another's. A
// whole build and one in 3 parts.
TEST(NvrtcCompileSignals, BuildKeepsTheInterruptHandler) {
  cuda::NvrtcCompiler nvrtc;
  STAR_SKIP_WITHOUT_BUILD_LIBRARIES(nvrtc);
  startest::TempDir dir;
  const compile::GeneratedCpp source = smallProgram(dir);
  ASSERT_FALSE(source.functions.empty());
  const auto c = startest::compileFile(startest::sourceDir() + "/examples/dijkstra.star", false,
                                       {startest::sourceDir() + "/stdlib"});
  ASSERT_TRUE(c.ok) << c.diagnostics;
  const compile::GeneratedCpp parts = generatedParts(c.module, false);
  struct sigaction mine {
  }, old{};
  mine.sa_handler = [](int) {};
  sigemptyset(&mine.sa_mask);
  mine.sa_flags = 0;
  ASSERT_EQ(sigaction(SIGINT, &mine, &old), 0);
  for (const bool inParts : {false, true}) {
    const cuda::GpuBuild build = inParts ? cuda::buildForGpu(parts, false, 90, false, 3)
                                         : cuda::buildForGpu(source, false, 90, false);
    struct sigaction after {};
    sigaction(SIGINT, nullptr, &after);
    EXPECT_FALSE(build.cubin.empty()) << build.error;
    EXPECT_EQ(after.sa_handler, mine.sa_handler) << (inParts ? "in parts" : "whole");
    EXPECT_EQ(after.sa_flags & SA_RESTART, 0) << (inParts ? "in parts" : "whole");
  }
  sigaction(SIGINT, &old, nullptr);
}

// Without the toolkit's run-time libraries the build says what is missing (the engine then says
// it once and interprets). In a fresh process: the libraries are loaded once per process.
TEST(NvrtcCompileDeathTest, MissingLibrariesAreNamed) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::setenv("STAR_CUDA_LIBRARY_PATH", "/nonexistent-star-test", 1);
        const cuda::GpuBuild b = cuda::buildForGpu(compile::GeneratedCpp{}, false, 90, false);
        std::fprintf(stderr, "%s\n", b.error.c_str());
        std::exit(b.cubin.empty() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0),
      "NVRTC \\(libnvrtc\\) is not installed or not on the library path");
  EXPECT_EXIT(
      {
        ::setenv("STAR_CUDA_LIBRARY_PATH", "/nonexistent-star-test", 1);
        std::fprintf(stderr, "%s\n", cuda::DeviceLinker().unavailableReason().c_str());
        std::exit(cuda::DeviceLinker().available() ? 1 : 0);
      },
      ::testing::ExitedWithCode(0), "nvJitLink \\(libnvJitLink\\) is not installed");
}

#ifdef STAR_REAL_NVRTC
// An NVRTC without --split-compile (support/RefusingNvrtc.cpp refuses it as such an NVRTC does):
// the build drops the option and compiles on one thread, with the same kernels.
// (Nothing may load NVRTC before the child sets the path: the library is loaded once a process.)
TEST(NvrtcCompileDeathTest, AnNvrtcWithoutSplitCompileStillBuilds) {
  // The stand-in lives in the build tree beside this test and forwards to the toolkit's NVRTC
  // where the build found it: a copy of the test elsewhere (the GPU bundle) has neither.
  const std::filesystem::path refusing =
      std::filesystem::read_symlink("/proc/self/exe").parent_path() / "refusing-nvrtc";
  if (!std::filesystem::exists(refusing / "libnvrtc.so") ||
      !std::filesystem::exists(STAR_REAL_NVRTC))
    GTEST_SKIP() << "no stand-in NVRTC beside this test, or no toolkit NVRTC at " STAR_REAL_NVRTC;
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  startest::TempDir dir;
  const compile::GeneratedCpp source = smallProgram(dir);
  ASSERT_FALSE(source.functions.empty());
  EXPECT_EXIT(
      {
        ::setenv("STAR_CUDA_LIBRARY_PATH", refusing.c_str(), 1);
        const cuda::GpuBuild b = cuda::buildForGpu(source, false, 90, false);
        const bool refused = std::getenv("STAR_TEST_NVRTC_REFUSED") != nullptr;
        std::fprintf(stderr, "refused %d, cubin %zu bytes %s\n", refused, b.cubin.size(),
                     b.error.c_str());
        std::exit(refused && b.cubin.find("star_compiled_block") != std::string::npos ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "refused 1, cubin");
}
#endif

INSTANTIATE_TEST_SUITE_P(Programs, NvrtcCompile,
                         // Two programs, and the graphs unit whole.
                         ::testing::Values("examples/warshall.star", "examples/dijkstra.star",
                                           "stdlib/graphs.star"),
                         [](const auto& info) {
                           std::string n = info.param;
                           n = n.substr(n.rfind('/') + 1);
                           return n.substr(0, n.find('.'));
                         });

}  // namespace
}  // namespace star
