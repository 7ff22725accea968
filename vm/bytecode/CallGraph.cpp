#include "vm/bytecode/CallGraph.h"

#include <string_view>

#include "vm/bytecode/Opcodes.h"

namespace star {

std::optional<std::vector<std::uint32_t>> calleesOf(const Module& m, std::uint32_t f) {
  if (f >= m.functions.size()) return std::nullopt;
  const std::vector<std::uint32_t>& code = m.functions[f].code;
  std::vector<std::uint32_t> callees;
  for (std::size_t pc = 0; pc < code.size();) {
    if (code[pc] >= kOpCount) return std::nullopt;
    const Op op = static_cast<Op>(code[pc]);
    if (pc + instrSize(op) > code.size()) return std::nullopt;
    const std::string_view shape = opInfo(op).shape;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      if (shape[k] != 'f') continue;
      const std::uint32_t callee = code[pc + 1 + k];
      if (callee >= m.functions.size()) return std::nullopt;
      callees.push_back(callee);
    }
    pc += instrSize(op);
  }
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
