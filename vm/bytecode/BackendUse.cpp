#include "vm/bytecode/BackendUse.h"

#include <vector>

#include "vm/bytecode/Opcodes.h"

namespace star {
namespace {

bool isHandle(SlotKind k) { return k == SlotKind::Bits || k == SlotKind::Table; }

bool holdsHandle(const Function& f) {
  if (!f.native.empty() || isHandle(f.resultKind)) return true;
  for (const ParamInfo& p : f.params)
    if (isHandle(p.kind)) return true;
  for (const auto& owned : f.ownedRegs)
    if (isHandle(owned.second)) return true;
  return false;
}

}  // namespace

bool usesBackend(const Module& m) {
  for (const GlobalInfo& g : m.globals)
    if (isHandle(g.kind)) return true;
  if (m.entry >= m.functions.size()) return true;  // not verified: assume the worst
  std::vector<bool> seen(m.functions.size(), false);
  std::vector<std::uint32_t> work{m.entry};
  seen[m.entry] = true;
  while (!work.empty()) {
    const Function& f = m.functions[work.back()];
    work.pop_back();
    if (holdsHandle(f)) return true;
    for (std::size_t pc = 0; pc < f.code.size();) {
      const Op op = static_cast<Op>(f.code[pc]);
      if (f.code[pc] >= kOpCount || pc + instrSize(op) > f.code.size()) return true;
      const std::string_view shape = opInfo(op).shape;
      for (std::size_t k = 0; k < shape.size(); ++k) {
        if (shape[k] != 'f') continue;
        const std::uint32_t callee = f.code[pc + 1 + k];
        if (callee >= m.functions.size()) return true;
        if (!seen[callee]) {
          seen[callee] = true;
          work.push_back(callee);
        }
      }
      pc += instrSize(op);
    }
  }
  return false;
}

}  // namespace star
