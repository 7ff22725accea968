// The compiled tier's C++ compiles for the GPU: the code generated for the examples and for the
// graph procedures, with the engine's headers as the binary carries them, compiled by NVRTC for
// sm_90 (no GPU needed). The team here is a stand-in of one thread that satisfies EngineTeam: the
// GPU's own team for compiled code is not written yet, so this proves the generated code and the
// engine's headers, not a launch. Skipped where libnvrtc cannot be loaded.
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

constexpr const char* kStandInTeam = R"(
struct OneThreadTeam {
  bool leader() const { return true; }
  bool teamFirst() const { return true; }
  std::uint64_t rank() const { return 0; }
  std::uint64_t size() const { return 1; }
  std::uint64_t blockRank() const { return 0; }
  std::uint64_t blockSize() const { return 1; }
  void syncBlock() { __syncthreads(); }
  void syncData() { __syncthreads(); }
  std::uint64_t reduceMin(std::uint64_t v) { return v; }
  std::uint64_t reduceSum(std::uint64_t v) { return v; }
  bool reduceOr(bool v) { return v; }
  star::engine::Ctl* ctl() { return ctl_; }
  bool interrupted() const { return *flag_ != 0; }
  star::engine::Ctl* ctl_;
  const volatile unsigned long long* flag_;
};
static_assert(star::engine::EngineTeam<OneThreadTeam>);

extern "C" __global__ void star_compiled_check(star::engine::Program p, star::engine::Region s,
                                               const unsigned long long* flag) {
  __shared__ star::engine::Ctl ctl[2];
  OneThreadTeam t{ctl, flag};
  star_compiled::run(t, p, s);
}
)";

std::string generated(const Module& m) {
  std::vector<compile::FunctionCode> functions;
  for (const Function& f : m.functions) functions.push_back({f.name, f.code, f.numRegs});
  return compile::emitCpp(compile::buildIr(functions, m.entry)) + kStandInTeam;
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
      nvrtc.compile(generated(c.module), compile::engineHeaders(), 90, compile::deviceOpcodeDefines(), error);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_FALSE(cubin.empty()) << error;
  EXPECT_EQ(cubin.substr(1, 3), "ELF");  // a cubin is an ELF image
  std::printf("%s: NVRTC %s, %.2f s, %zu bytes of cubin\n", GetParam(), nvrtc.version().c_str(), seconds, cubin.size());
}

INSTANTIATE_TEST_SUITE_P(Programs, NvrtcCompile,
                         ::testing::Values("examples/warshall.star", "examples/dijkstra.star", "examples/floyd.star",
                                           "examples/sort/cells.star", "examples/nbody/crystal.star"),
                         [](const auto& info) {
                           std::string n = info.param;
                           n = n.substr(n.rfind('/') + 1);
                           return n.substr(0, n.find('.'));
                         });

}  // namespace
}  // namespace star
