// The compiled tier's C++ compiles for the GPU: the code generated for the examples, with its
// kernels (runtime-cuda/kernels/CompiledKernels.cuh: the GPU team, one block or the grid with its
// own barrier) and the engine's headers as the binary carries them, compiled by NVRTC for sm_90
// (no GPU needed). It proves the code compiles and that both kernels are in the cubin, not a
// launch (that needs a GPU). Skipped where libnvrtc cannot be loaded.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "runtime-cuda/NvrtcCompiler.h"
#include "tests/unit/support/StarTestUtil.h"
#include "vm/compile/CompiledIr.h"
#include "vm/compile/EmitCpp.h"

namespace star {
namespace {

std::string generated(const Module& m) {
  std::vector<compile::FunctionCode> functions;
  for (const Function& f : m.functions) functions.push_back({f.name, f.code, f.numRegs});
  return compile::emitCpp(compile::buildIr(functions, m.entry)) + cuda::kCompiledKernelsEntry;
}

std::vector<EmbeddedFile> headers() {
  std::vector<EmbeddedFile> all(compile::engineHeaders().begin(), compile::engineHeaders().end());
  for (const EmbeddedFile& f : cuda::compiledKernelHeaders()) all.push_back(f);
  return all;
}

class NvrtcCompile : public ::testing::TestWithParam<const char*> {};

TEST_P(NvrtcCompile, GeneratedCodeCompilesForSm90) {
  cuda::NvrtcCompiler nvrtc;
  if (!nvrtc.available()) GTEST_SKIP() << nvrtc.unavailableReason();
  const auto c = startest::compileFile(startest::sourceDir() + "/" + GetParam(), false,
                                       {startest::sourceDir() + "/stdlib"});
  ASSERT_TRUE(c.ok) << c.diagnostics;
  std::string error;
  const auto started = std::chrono::steady_clock::now();
  const std::string cubin =
      nvrtc.compile(generated(c.module), headers(), 90, cuda::compiledCodeOptions(), error);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_FALSE(cubin.empty()) << error;
  EXPECT_EQ(cubin.substr(1, 3), "ELF");  // a cubin is an ELF image
  EXPECT_NE(cubin.find("star_compiled_block"), std::string::npos);
  EXPECT_NE(cubin.find("star_compiled_grid"), std::string::npos);
  std::printf("%s: NVRTC %s, %.2f s, %zu bytes of cubin\n", GetParam(), nvrtc.version().c_str(),
              seconds, cubin.size());
}

INSTANTIATE_TEST_SUITE_P(Programs, NvrtcCompile,
                         // Two programs: each takes NVRTC 5-20 s of one core (both kernels).
                         ::testing::Values("examples/warshall.star", "examples/dijkstra.star"),
                         [](const auto& info) {
                           std::string n = info.param;
                           n = n.substr(n.rfind('/') + 1);
                           return n.substr(0, n.find('.'));
                         });

}  // namespace
}  // namespace star
