#include "vm/interp/EngineLoops.h"

#include "vm/bytecode/CallGraph.h"

namespace star {

static_assert(static_cast<std::uint32_t>(LoopForm::Forall) == 1 &&
                  static_cast<std::uint32_t>(LoopForm::StepWhile) == 2 &&
                  static_cast<std::uint32_t>(LoopForm::SomeStep) == 3 &&
                  static_cast<std::uint32_t>(LoopForm::ForIf) == 4,
              "EngineCore.h's kForall..kForIf");

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
  if (!body.ok || body.ops.size() != 3 || body.privates.size() != 1) return info;
  const ParallelBody::Private& v = body.privates[0];
  if (v.kind != SlotKind::Bits) return info;
  const ParallelBody::Op &get = body.ops[0], &update = body.ops[1], &set = body.ops[2];
  const bool cols = get.op == Op::TGETCOL && set.op == Op::TSETCOL;
  const bool rows = get.op == Op::TGETROW && set.op == Op::TSETROW;
  if (!(cols || rows)) return info;
  if (update.op != Op::BAND && update.op != Op::BOR && update.op != Op::BXOR) return info;
  // TGETCOL v, T, i; op v, v, x (or v, x, v); TSETCOL T, i, v
  if (get.operand[0] != v.reg || get.operand[2] != loop.index) return info;
  if (set.operand[0] != get.operand[1] || set.operand[1] != loop.index || set.operand[2] != v.reg)
    return info;
  if (update.operand[0] != v.reg) return info;
  std::uint32_t x;
  if (update.operand[1] == v.reg && update.operand[2] != v.reg)
    x = update.operand[2];
  else if (update.operand[2] == v.reg && update.operand[1] != v.reg)
    x = update.operand[1];
  else
    return info;
  info.kind = cols ? engine::kLoopColumns : engine::kLoopRows;
  info.table = get.operand[1];
  info.update = x;
  info.temp = v.reg;
  info.op = static_cast<std::uint32_t>(update.op);
  info.tempLiveOut = v.liveOut ? 1 : 0;
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
