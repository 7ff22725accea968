// The papers' update inside a parallel loop's plan, `v := COL(i, T); v := v op x; COL(i, T) := v`
// (or with ROW; op AND, OR or XOR): three instructions a backend may run as one in-place pass
// over column (row) i, the way the papers' hand-written kernel does. One matcher for every
// executor, so that they agree on what they fuse, and for the device engine, which runs a loop
// whose body is this update and nothing else itself (vm/interp/EngineLoops.cpp).
//
// The matcher reads only the plan's ops and liveOut, and compares operands only with sameOperand
// (a table operand: by its handle). The engine's decision is made when a module is loaded, before
// registers hold handles: it hands the matcher a plan whose operands carry register numbers in
// slot, handle and value. Keep it so.
#pragma once

#include <cstddef>
#include <optional>

#include "vm/backend/ParallelPlan.h"

namespace star {

struct FusedUpdate {
  bool columns = true;             // COL (else ROW)
  Op op = Op::BOR;                 // BAND, BOR or BXOR
  Handle table = kNoHandle;
  const PlanOperand* v = nullptr;  // the iteration's private temporary
  const PlanOperand* x = nullptr;  // the other operand of op (shared or private)
  bool keep = false;               // v is read later in the body or needed after the loop
};

inline bool sameOperand(const PlanOperand& x, const PlanOperand& y) {
  return x.source == y.source && x.slot == y.slot && x.handle == y.handle && x.value == y.value;
}

// The update at plan.ops[k .. k + 2], when it is one and no jump lands inside it.
inline std::optional<FusedUpdate> fusedUpdateAt(const ParallelPlan& plan, std::size_t k) {
  if (k + 2 >= plan.ops.size()) return std::nullopt;
  const PlanOp &get = plan.ops[k], &op = plan.ops[k + 1], &set = plan.ops[k + 2];
  const bool col = get.op == Op::TGETCOL && set.op == Op::TSETCOL;
  const bool row = get.op == Op::TGETROW && set.op == Op::TSETROW;
  if (!(col || row) || !(op.op == Op::BOR || op.op == Op::BAND || op.op == Op::BXOR)) return std::nullopt;
  const PlanOperand& v = get.a[0];
  if (v.source != Source::Private || get.a[2].source != Source::Index || set.a[1].source != Source::Index ||
      get.a[1].handle != set.a[0].handle || !sameOperand(set.a[2], v) || !sameOperand(op.a[0], v))
    return std::nullopt;
  const PlanOperand* x = sameOperand(op.a[1], v) ? &op.a[2] : sameOperand(op.a[2], v) ? &op.a[1] : nullptr;
  if (!x || sameOperand(*x, v)) return std::nullopt;
  for (const PlanOp& o : plan.ops)
    if ((o.op == Op::JMP || o.op == Op::JMPF || o.op == Op::JMPT) && (o.target == k + 1 || o.target == k + 2))
      return std::nullopt;
  FusedUpdate u{col, op.op, get.a[1].handle, &v, x, false};
  for (std::size_t j = k + 3; j < plan.ops.size() && !u.keep; ++j)
    for (const PlanOperand& o : plan.ops[j].a) u.keep = u.keep || sameOperand(o, v);
  for (const auto& lo : plan.liveOut) u.keep = u.keep || (lo.bits && lo.slot == v.slot);
  return u;
}

}  // namespace star
