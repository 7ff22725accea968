#include "bench/StarLoopPrimitives.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "bench/BenchEngine.h"
#include "bench/BenchUtil.h"
#include "frontend/driver/Compilation.h"
#include "vm/interp/Interpreter.h"

namespace star::bench {
namespace {

struct LoopStatement {
  const char* name;
  const char* statement;  // the loop's body; X all ones, Y only its last bit, Z all ones
};

// The first row is the reference: a loop whose body is one scalar assignment.
const LoopStatement kStatements[] = {
    {"(scalar r := k)", "r := k"},
    {"or", "Z := X or Y"},
    {"and", "Z := X and Y"},
    {"not", "Z := not X"},
    {"copy (Z := X)", "Z := X"},
    {"fill (SET)", "SET(Z)"},
    {"COL read", "Z := COL(3, T)"},
    {"COL write", "COL(3, T) := X"},
    {"ROW read (8 columns)", "w := ROW(5, T)"},
    {"Y(i) := 1", "Z(7) := 1"},
    {"Y(i) read", "r := X(7)"},
    {"FND (last bit)", "r := FND(Y)"},
    {"SOME", "if SOME(Y) then r := k"},
    {"NUMB", "r := NUMB(X)"},
    {"STEP", "r := STEP(Z)"},
};

std::string programFor(const char* statement) {
  return std::string(R"(program LoopPrimitive;
proc BENCH(n, reps: integer);
var T: table(n, 8); X, Y, Z: slice(T); w: word; k, r: integer;
begin
  SET(X); CLR(Y); Y(n) := 1; SET(Z); r := 0;
  for k := 1 to reps do )") +
         statement + R"(;
  if r < 0 then writeln(r, LEN(w))
end;
begin
  BENCH(StrToInt(ParamStr(1)), StrToInt(ParamStr(2)))
end.
)";
}

struct Timing {
  double seconds;
  std::uint64_t engineInstructions;
};

Timing runOnce(Backend& backend, const std::string& engine, const Module& m, std::uint64_t n,
               std::uint64_t reps) {
  std::ostringstream sink;
  Interpreter vm(backend, sink);
  enableEngine(vm, engine);
  vm.setArguments({std::to_string(n), std::to_string(reps)});
  backend.synchronize();
  const auto start = std::chrono::steady_clock::now();
  vm.run(m, m.entry);
  backend.synchronize();
  if (!ranAsAsked(vm, engine))
    throw std::runtime_error(
        "no compiled code ran (star said why on stderr): not a compiled figure");
  return {secondsSince(start), vm.engineStats().instructions};
}

// Seconds per iteration of the statement's loop: the median of three runs of `reps` iterations
// less the median of three of none (the call, the table and the engine's start are in both).
double perIteration(Backend& backend, const std::string& engine, const Module& m, std::uint64_t n,
                    std::uint64_t reps, double* instructions) {
  auto median = [&](std::uint64_t r, std::uint64_t* instr) {
    std::vector<double> t;
    for (int i = 0; i < 3; ++i) {
      Timing x = runOnce(backend, engine, m, n, r);
      t.push_back(x.seconds);
      *instr = x.engineInstructions;
    }
    std::sort(t.begin(), t.end());
    return t[1];
  };
  std::uint64_t none = 0, some = 0;
  const double base = median(0, &none);
  const double full = median(reps, &some);
  *instructions = static_cast<double>(some - none) / static_cast<double>(reps);
  return std::max(0.0, full - base) / static_cast<double>(reps);
}

}  // namespace

bool runStarLoopPrimitives(Backend& backend, const std::string& engine,
                           const std::vector<std::uint64_t>& sizes) {
  {
    std::ostringstream sink;
    Interpreter probe(backend, sink);
    enableEngine(probe, engine);
    if (engine != "host" && !probe.deviceEngineOn()) return false;
  }
  std::printf("\n### Inside a Star loop: backend %s (%s), %s engine\n\n", backend.name().c_str(),
              backend.device().c_str(), engine.c_str());
  std::printf(
      "`for k := 1 to reps do S`: microseconds per primitive (the loop's time per iteration less "
      "the scalar loop's, first row: the scalar loop itself; 0.000: within the noise)%s.\n\n",
      engine == "device" ? "; in brackets, the engine's instructions per iteration" : "");
  std::printf("| statement S |");
  for (auto n : sizes) std::printf(" n=%llu |", static_cast<unsigned long long>(n));
  std::printf("\n|---|");
  for (std::size_t i = 0; i < sizes.size(); ++i) std::printf("---|");
  std::printf("\n");
  std::vector<double> scalar(sizes.size(), 0.0);
  for (const LoopStatement& s : kStatements) {
    Compilation c(std::cerr, CompileOptions{{}, false});
    if (!c.compileText("loop_primitive.star", programFor(s.statement))) return false;
    const Module m = c.takeModule();
    const bool reference = &s == &kStatements[0];
    std::printf("| %s |", s.name);
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const std::uint64_t n = sizes[i];
      // STEP takes one bit an iteration: at most n of them.
      std::uint64_t reps = n >= 10000000 ? 1000 : n >= 1000000 ? 4000 : 10000;
      reps = std::min(reps, n);
      double instructions = 0;
      const double t = perIteration(backend, engine, m, n, reps, &instructions);
      if (reference) scalar[i] = t;
      // Below the scalar loop's own time the difference is noise: it shows as 0.000.
      std::printf(" %.3f", (reference ? t : std::max(0.0, t - scalar[i])) * 1e6);
      if (engine == "device") std::printf(" (%.0f)", instructions);
      std::printf(" |");
      std::fflush(stdout);
    }
    std::printf("\n");
  }
  return true;
}

}  // namespace star::bench
