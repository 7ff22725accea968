#include "runtime-cuda/CudaParallel.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>

#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/Elementwise.h"
#include "runtime-cuda/kernels/ParallelLoop.h"
#include "runtime-cuda/kernels/Search.h"
#include "vm/backend/FusedUpdate.h"

namespace star::cuda {
namespace {

// The warps' private areas may take at most this much device memory (fewer warps beyond it).
constexpr std::uint64_t kMaxScratchWords = std::uint64_t{1} << 25;  // 256 MB

constexpr ParallelState kIdleState = [] {
  ParallelState s{};
  s.faultIteration = ~0ull;
  return s;
}();

// canFault and indexOperand are columns of vm/bytecode/Opcodes.def.

}  // namespace

CudaParallel::~CudaParallel() {
  ctx_.release(scratch_);
  ctx_.release(constants_);
  if (state_ != nullptr) cudaFree(state_);
}

bool CudaParallel::run(const ParallelPlan& plan, ParallelOutcome& outcome) {
  if (plan.ops.size() > kMaxDeviceOps || plan.scalarSlots > kMaxDeviceSlots ||
      plan.bitsSlotLength.size() > kMaxDeviceSlots || plan.liveOut.size() > 2 * kMaxDeviceSlots)
    return false;
  // The transcendental functions give the host's bits only when the host computes them: such a
  // loop runs sequentially (tests/lang/parallel/transcendental_loops.star).
  // VAL, FVAL and FBIN in a body run in parallel on the CPU backend (runtime-cpu/ParallelRun.cpp);
  // the GPU's kernel does not run them yet: such a loop runs sequentially here.
  for (const PlanOp& po : plan.ops)
    if (isHostMathOp(po.op) || po.op == Op::WVAL || po.op == Op::WFVAL || po.op == Op::WFBIN)
      return false;
  outcome = ParallelOutcome{};
  outcome.liveOutScalars.assign(plan.liveOut.size(), 0);
  outcome.liveOutWritten.assign(plan.liveOut.size(), 0);
  DeviceValue& selector = values_.bits(plan.selector);
  if (plan.from < 1 || plan.to > selector.rows) return false;
  if (plan.to < plan.from) return true;  // no candidate: nothing runs, nothing changes

  if (state_ == nullptr) {
    checkAlloc(cudaMalloc(&state_, sizeof(ParallelState)), sizeof(ParallelState));
    check(cudaMemcpy(state_, &kIdleState, sizeof(ParallelState), cudaMemcpyHostToDevice),
          "parallel loop state");
  }

  // BCONST's words, one device buffer for the plan.
  std::vector<std::uint64_t> constantOffset;
  staging_.clear();
  for (const auto& words : plan.constantWords) {
    constantOffset.push_back(staging_.size());
    staging_.insert(staging_.end(), words.begin(), words.end());
  }
  if (!staging_.empty()) {
    ctx_.grow(constants_, constants_capacity_, staging_.size());
    check(cudaMemcpyAsync(constants_, staging_.data(), staging_.size() * sizeof(std::uint64_t),
                          cudaMemcpyHostToDevice, ctx_.stream()),
          "parallel loop constants");
  }

  DevicePlan dp{};
  dp.nOps = static_cast<std::uint32_t>(plan.ops.size());
  dp.scalarSlots = plan.scalarSlots;
  dp.bitsSlots = static_cast<std::uint32_t>(plan.bitsSlotLength.size());
  bool mayFault = false;
  for (std::size_t k = 0; k < plan.ops.size(); ++k) {
    const PlanOp& po = plan.ops[k];
    DeviceOp& d = dp.ops[k];
    d.op = static_cast<std::uint8_t>(po.op);
    d.target = po.target;
    const std::string_view shape = opInfo(po.op).shape;
    for (std::size_t j = 0; j < 4; ++j) {
      const PlanOperand& o = po.a[j];
      DeviceOperand& to = d.a[j];
      to.source = static_cast<std::uint8_t>(o.source);
      to.slot = o.slot;
      to.value = o.value;
      const char c = j < shape.size() ? shape[j] : ' ';
      if (o.source == Source::Shared && (c == 'b' || c == 'T')) {
        DeviceValue& v = values_.at(o.handle);
        to.data = v.data;
        to.rows = v.rows;
        to.cols = v.cols;
      } else if (po.op == Op::BCONST && j == 1) {
        to.data = constants_ + constantOffset[o.slot];
        to.rows = plan.constantLength[o.slot];
      }
    }
    // Checks: every instruction that may fail keeps its check, except an index that is the
    // iteration's own and lies within the operand for every candidate.
    d.checked = 1;
    const int ix = indexOperand(po.op);
    if (ix >= 0 && po.a[ix].source == Source::Index) {
      std::uint64_t limit = ~std::uint64_t{0};
      if (po.op == Op::TGETCOL) limit = d.a[1].cols;
      else if (po.op == Op::TSETCOL) limit = d.a[0].cols;
      else if (po.op == Op::TGETROW) limit = d.a[1].rows;
      else if (po.op == Op::TSETROW) limit = d.a[0].rows;
      else if (po.op == Op::BGET && po.a[1].source == Source::Shared) limit = d.a[1].rows;
      else if (po.op == Op::BSET && po.a[0].source == Source::Shared) limit = d.a[0].rows;
      else if (po.op == Op::BGET || po.op == Op::BSET) {
        const std::uint32_t slot = po.a[po.op == Op::BGET ? 1 : 0].slot;
        limit = plan.bitsSlotLength[slot];
      }
      bool valueOk = true;
      if (po.op == Op::BSET)
        valueOk = po.a[2].source == Source::Shared && (po.a[2].value == 0 || po.a[2].value == 1);
      if (plan.to <= limit && valueOk) d.checked = 0;
    } else if (ix < 0 && !canFault(po.op)) {
      d.checked = 0;
    }
    mayFault = mayFault || d.checked;
  }
  // `v := COL(i, T); v := v op x; COL(i, T) := v` (or with ROW) as one in-place update.
  for (std::size_t k = 0; k + 2 < plan.ops.size(); ++k) {
    const auto update = fusedUpdateAt(plan, k);
    if (!update || dp.ops[k].checked || dp.ops[k + 2].checked) continue;
    const bool col = update->columns, row = !update->columns, keep = update->keep;
    const PlanOperand* x = update->x;
    dp.ops[k].fused = col ? kFuseCol : kFuseRow;
    dp.ops[k].keep = keep;
    // The whole loop is this update, with the same x in every iteration: one pass over the table
    // (which finds no last index, and counts iterations only over the whole selector).
    const bool countable = !plan.countIterations || (plan.from == 1 && plan.to == selector.rows);
    if (row && !keep && plan.ops.size() == 3 && x->source == Source::Shared && !plan.wantLastIndex &&
        countable) {
      const DeviceValue& t = values_.table(update->table);
      launchRowUpdateAll(ctx_.launch(), t.data, t.rows, t.cols, values_.at(x->handle).data,
                         selector.data, plan.from, plan.to, static_cast<std::uint8_t>(update->op));
      if (plan.countIterations) {  // before the selector is cleared
        launchCount(ctx_.launch(), ctx_.nextResult(), selector.data, selector.words());
        outcome.iterations = ctx_.result();
      }
      if (plan.clearSelector)
        check(cudaMemsetAsync(selector.data, 0, selector.words() * sizeof(std::uint64_t), ctx_.stream()),
              "parallel loop selector");
      return true;
    }
    k += 2;
  }

  // Private areas: the scalars, then each vector.
  std::uint64_t warpWords = plan.scalarSlots;
  for (std::size_t s = 0; s < plan.bitsSlotLength.size(); ++s) {
    dp.bitsLength[s] = plan.bitsSlotLength[s];
    dp.bitsOffset[s] = warpWords - plan.scalarSlots;
    warpWords += wordsForBits(plan.bitsSlotLength[s]);
  }
  warpWords = std::max<std::uint64_t>(warpWords, 1);
  if (warpWords > kMaxScratchWords) return false;
  const std::uint64_t candidates = plan.to - plan.from + 1;
  const std::uint64_t maxWarps = std::uint64_t{ctx_.launch().max_blocks} * kBlockThreads / 32;
  const unsigned warps = static_cast<unsigned>(
      std::min({candidates, maxWarps, kMaxScratchWords / warpWords}));
  dp.warpWords = warpWords;
  dp.scratch = ctx_.grow(scratch_, scratch_capacity_, warps * warpWords);
  dp.selector = selector.data;
  dp.from = plan.from;
  dp.to = plan.to;
  dp.state = static_cast<ParallelState*>(state_);
  dp.clearSelector = plan.clearSelector;
  dp.countIterations = plan.countIterations;
  dp.wantLastIndex = plan.wantLastIndex;
  dp.liveOuts = static_cast<std::uint32_t>(plan.liveOut.size());
  bool needHost = mayFault || plan.countIterations || plan.wantLastIndex;
  for (std::size_t e = 0; e < plan.liveOut.size(); ++e) {
    const auto& lo = plan.liveOut[e];
    dp.liveOutSlot[e] = lo.slot;
    dp.liveOutBits[e] = lo.bits;
    dp.liveOutTarget[e] = 0;
    if (lo.bits && values_.bits(lo.handle).rows == plan.bitsSlotLength[lo.slot])
      dp.liveOutTarget[e] = reinterpret_cast<std::uint64_t>(values_.bits(lo.handle).data);
    else
      needHost = true;
  }

  launchParallelBody(ctx_.launch(), dp, warps);
  if (!needHost && dp.liveOuts == 0) return true;
  const DeviceContext::MappedArea area = ctx_.mappedArea(kParallelHostWords);
  const std::uint64_t ticket = ctx_.nextTicket();
  launchParallelFinish(ctx_.launch(), dp, area.device, ticket);
  if (!needHost) return true;  // the finish kernel copies the vectors and resets the state
  ctx_.waitTicket(&area.host[kParallelTicketWord], ticket);
  const volatile std::uint64_t* host = area.host;
  if (host[0] != ~0ull) {
    outcome.fault.iteration = static_cast<std::int64_t>(host[0]);
    outcome.fault.op = static_cast<std::uint32_t>(host[1]);
    outcome.fault.kind = static_cast<FaultKind>(host[2]);
    outcome.fault.values[0] = static_cast<std::int64_t>(host[3]);
    outcome.fault.values[1] = static_cast<std::int64_t>(host[4]);
  }
  outcome.iterations = host[5];
  outcome.lastIndex = static_cast<std::int64_t>(host[6]);
  for (std::size_t e = 0; e < plan.liveOut.size(); ++e) {
    if (!host[8 + 2 * e]) continue;
    outcome.liveOutWritten[e] = 1;
    const auto& lo = plan.liveOut[e];
    if (!lo.bits) {
      outcome.liveOutScalars[e] = host[9 + 2 * e];
    } else if (!dp.liveOutTarget[e]) {
      const std::uint64_t length = plan.bitsSlotLength[lo.slot];
      reshapeBits_(lo.handle, length);
      const DeviceValue& v = values_.bits(lo.handle);
      if (v.words())
        check(cudaMemcpyAsync(v.data, reinterpret_cast<const void*>(host[9 + 2 * e]),
                              v.words() * sizeof(std::uint64_t), cudaMemcpyDeviceToDevice, ctx_.stream()),
              "parallel loop result");
    }
  }
  return true;
}

}  // namespace star::cuda
