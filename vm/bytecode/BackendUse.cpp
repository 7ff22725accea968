#include "vm/bytecode/BackendUse.h"

#include <vector>

#include "vm/bytecode/CallGraph.h"

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
    const std::uint32_t fn = work.back();
    work.pop_back();
    const Function& f = m.functions[fn];
    if (holdsHandle(f)) return true;
    const auto callees = calleesOf(m, fn);
    if (!callees) return true;  // not verified: assume the worst
    for (std::uint32_t callee : *callees)
      if (!seen[callee]) {
        seen[callee] = true;
        work.push_back(callee);
      }
  }
  return false;
}

}  // namespace star
