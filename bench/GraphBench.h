// Shared by the graph benchmarks (sssp_grid_bench, dynamic_bench): the Boost Graph Library and
// its weighted graph types, with the references the graph oracle tests use
// (tests/unit/support/GraphReference.h), reading a distance field of a Star table, number
// formatting, the backend a name asks for, a driver's globals, and compiling a Star driver with
// the stdlib units. Both targets define STAR_SOURCE_DIR (and STAR_HAVE_CUDA in a CUDA build).
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/driver/Compilation.h"
#include "runtime-cpu/CpuBackend.h"
#include "tests/unit/support/GraphReference.h"
#ifdef STAR_HAVE_CUDA
#include "runtime-cuda/CudaBackend.h"
#endif

namespace star::bench {

using startest::Directed;
using startest::kInf;
using startest::Undirected;

// Field first..first+b-1 of row `row` of a table read column by column (wpc words a column), in
// excess code with all ones = unreachable, as GR_DISTTABLE and the single-source results
// (DIJKSTRA's D) keep it.
inline long distanceField(const std::vector<std::uint64_t>& words, std::uint64_t wpc,
                          std::uint64_t row, std::uint64_t first, std::uint64_t b) {
  std::uint64_t x = 0;
  for (std::uint64_t j = first; j < first + b; ++j)
    x = (x << 1) | ((words[j * wpc + row / 64] >> (row % 64)) & 1);
  const std::uint64_t excess = std::uint64_t{1} << (b - 1);
  return x == (excess << 1) - 1 ? kInf : static_cast<long>(x) - static_cast<long>(excess);
}

// Three significant digits: times span microseconds to seconds.
inline std::string sig3(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

inline std::string fixed(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

// The backend `name` names ("cpu", or "cuda" in a CUDA build); any other name stops the program.
inline std::unique_ptr<Backend> makeBackend(const std::string& name) {
#ifdef STAR_HAVE_CUDA
  if (name == "cuda") return makeCudaBackend();
#endif
  if (name != "cpu") {
    std::fprintf(stderr, "backend %s is not available\n", name.c_str());
    std::exit(1);
  }
  return makeCpuBackend();
}

// The index of the driver's global `name` (lower case); a missing one stops the program.
inline std::uint32_t globalIndex(const Module& m, const std::string& name) {
  for (std::uint32_t i = 0; i < m.globals.size(); ++i) {
    std::string g = m.globals[i].name;
    std::transform(g.begin(), g.end(), g.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (g == name) return i;
  }
  std::fprintf(stderr, "the driver has no global %s\n", name.c_str());
  std::exit(1);
}

// The source tree's `dir` (stdlib), or (on a machine the build was carried to) the one under the
// cwd.
inline std::string sourceDir(const std::string& dir) {
  const std::string tree = std::string(STAR_SOURCE_DIR) + "/" + dir;
  return std::filesystem::exists(tree) ? tree : dir;
}

// The driver program `text` (it uses stdlib units) compiled from a temporary file `fileName`,
// removed again; diagnostics go to stderr. nullopt when it does not compile.
inline std::optional<Module> compileDriver(const char* text, const std::string& fileName) {
  CompileOptions options;
  options.warnUnused = false;
  options.modulePath.push_back(sourceDir("stdlib"));
  Compilation c(std::cerr, options);
  const std::string source = (std::filesystem::temp_directory_path() / fileName).string();
  {
    std::FILE* f = std::fopen(source.c_str(), "w");
    if (!f || std::fputs(text, f) < 0 || std::fclose(f) != 0) {
      std::fprintf(stderr, "cannot write %s\n", source.c_str());
      return std::nullopt;
    }
  }
  const bool compiled = c.compileFile(source);
  std::filesystem::remove(source);
  if (!compiled) return std::nullopt;
  return c.takeModule();
}

}  // namespace star::bench
