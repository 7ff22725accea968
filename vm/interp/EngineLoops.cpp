#include "vm/interp/EngineLoops.h"

#include <optional>
#include <string_view>

#include "vm/backend/FusedUpdate.h"
#include "vm/bytecode/CallGraph.h"

namespace star {

static_assert(static_cast<std::uint32_t>(LoopForm::Forall) == 1 &&
                  static_cast<std::uint32_t>(LoopForm::StepWhile) == 2 &&
                  static_cast<std::uint32_t>(LoopForm::SomeStep) == 3 &&
                  static_cast<std::uint32_t>(LoopForm::ForIf) == 4,
              "EngineCore.h's kForall..kForIf");

namespace {

// The body as fusedUpdateAt reads a plan, before any register has a value: a register operand is
// Private or Shared with its register in slot, handle and value alike (the loop variable read as a
// scalar: Index, as the interpreter's plans have it), so that two operands, or two tables'
// handles, are the same exactly when they name the same register.
ParallelPlan registerPlan(const ParallelBody& body, const ParallelLoop& loop) {
  ParallelPlan plan;
  auto isPrivate = [&](std::uint32_t r) {
    for (const ParallelBody::Private& p : body.privates)
      if (p.reg == r) return true;
    return false;
  };
  for (const ParallelBody::Op& bo : body.ops) {
    PlanOp po;
    po.op = bo.op;
    po.pc = bo.pc;
    po.target = bo.target;
    const std::string_view shape = opInfo(bo.op).shape;
    for (std::size_t k = 0; k < shape.size() && k < 4; ++k) {
      const std::uint32_t r = bo.operand[k];
      const char c = shape[k];
      if (!isRegisterShape(c)) po.a[k] = {Source::None, 0, kNoHandle, r};
      else if (r == loop.index && c != 'b' && c != 'T') po.a[k] = {Source::Index, 0, kNoHandle, 0};
      else po.a[k] = {isPrivate(r) ? Source::Private : Source::Shared, r, static_cast<Handle>(r), r};
    }
    plan.ops.push_back(po);
  }
  for (const ParallelBody::Private& p : body.privates)
    if (p.liveOut) plan.liveOut.push_back({p.kind == SlotKind::Bits, p.reg, kNoHandle});
  return plan;
}

}  // namespace

engine::LoopInfo engineLoopOf(const ParallelBody& body, const ParallelLoop& loop) {
  engine::LoopInfo info{};
  info.kind = engine::kLoopHost;
  info.form = static_cast<std::uint32_t>(loop.form);
  info.selector = loop.selector;
  info.index = loop.index;
  info.first = loop.first;
  info.last = loop.last;
  info.exit = loop.exit;
  info.indexLiveOut = body.indexLiveOut ? 1 : 0;
  // The engine runs a body that is the update and nothing else, with v its one private.
  if (!body.ok || body.ops.size() != 3 || body.privates.size() != 1) return info;
  if (body.privates[0].kind != SlotKind::Bits) return info;
  const ParallelPlan plan = registerPlan(body, loop);
  const std::optional<FusedUpdate> u = fusedUpdateAt(plan, 0);
  if (!u) return info;
  info.kind = u->columns ? engine::kLoopColumns : engine::kLoopRows;
  info.table = u->table;                              // registers: see registerPlan
  info.update = static_cast<std::uint32_t>(u->x->value);
  info.temp = u->v->slot;
  info.op = static_cast<std::uint32_t>(u->op);
  info.tempLiveOut = u->keep ? 1 : 0;
  return info;
}

std::vector<bool> reachesEngineLoops(const Module& m, const std::vector<engine::LoopInfo>& loops) {
  std::vector<bool> own(m.functions.size(), false);
  std::size_t next = 0;
  for (std::uint32_t fi = 0; fi < m.functions.size(); ++fi)
    for (std::size_t l = 0; l < m.functions[fi].parallelLoops.size() && next < loops.size(); ++l, ++next)
      own[fi] = own[fi] || loops[next].kind != engine::kLoopHost;
  return reachingFunctions(m, own);
}

}  // namespace star
