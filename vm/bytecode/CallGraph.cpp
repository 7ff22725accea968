#include "vm/bytecode/CallGraph.h"

#include <string_view>

#include "vm/bytecode/Decode.h"

namespace star {

std::optional<std::vector<std::uint32_t>> calleesOf(const Module& m, std::uint32_t f) {
  if (f >= m.functions.size()) return std::nullopt;
  std::vector<std::uint32_t> callees;
  bool inRange = true;
  const DecodeStop stop = forEachInstruction(m.functions[f].code, [&](const Instr& in) {
    const std::string_view shape = in.shape();
    for (std::size_t k = 0; k < shape.size(); ++k) {
      if (shape[k] != 'f') continue;
      const std::uint32_t callee = in.operands[k];
      if (callee >= m.functions.size()) inRange = false;
      else callees.push_back(callee);
    }
  });
  if (stop.status != DecodeStatus::End || !inRange) return std::nullopt;
  return callees;
}

std::vector<bool> reachingFunctions(const Module& m, const std::vector<bool>& own) {
  const std::size_t n = m.functions.size();
  // Backwards from the functions that have the property: every caller of a reaching function
  // reaches.
  std::vector<std::vector<std::uint32_t>> callers(n);
  std::vector<bool> reaches(n, false);
  std::vector<std::uint32_t> work;
  for (std::uint32_t f = 0; f < n; ++f) {
    const auto callees = calleesOf(m, f);
    if ((f < own.size() && own[f]) || !callees) {
      reaches[f] = true;
      work.push_back(f);
    }
    if (callees)
      for (std::uint32_t c : *callees) callers[c].push_back(f);
  }
  while (!work.empty()) {
    const std::uint32_t f = work.back();
    work.pop_back();
    for (std::uint32_t caller : callers[f])
      if (!reaches[caller]) {
        reaches[caller] = true;
        work.push_back(caller);
      }
  }
  return reaches;
}

}  // namespace star
