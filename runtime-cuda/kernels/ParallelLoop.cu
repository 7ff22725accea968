#include "runtime-cuda/kernels/ParallelLoop.h"

#include <cmath>

#include "core/BitLayout.h"
#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/kernels/DeviceLoops.cuh"
#include "runtime-cuda/kernels/Warp.h"
#include "vm/backend/ParallelPlan.h"
#include "vm/semantics/ScalarOps.h"

namespace star::cuda {
namespace {

using Word = std::uint64_t;

struct Vec {
  Word* w;
  std::uint64_t len;
  __device__ std::uint64_t words() const { return (len + 63) / 64; }
};

// One warp running one iteration of the plan.
class WarpRun {
 public:
  __device__ WarpRun(const DevicePlan& plan, Word* area, unsigned warp, unsigned lane)
      : p_(plan), area_(area), warp_(warp), lane_(lane) {}

  // The body for iteration `it`; false when it failed (recorded in the state).
  __device__ void run(std::uint64_t it) {
    it_ = it;
    for (std::uint32_t k = 0; k < p_.nOps;) {
      const DeviceOp& op = p_.ops[k];
      std::uint32_t next = k + 1;
      if (op.fused) {
        fused(k);
        next = k + 3;
      } else if (!execute(op, k, next)) {
        return;
      }
      __syncwarp();
      k = next;
    }
  }

  std::uint64_t lastWrite[kMaxDeviceSlots * 2] = {};  // per slot: the last iteration that wrote it, + 1

 private:
  // ---- operands
  __device__ Word s(const DeviceOperand& o) const {
    if (o.source == static_cast<std::uint8_t>(Source::Private)) return area_[o.slot];
    if (o.source == static_cast<std::uint8_t>(Source::Index)) return it_;
    return o.value;
  }
  __device__ std::int64_t i(const DeviceOperand& o) const { return static_cast<std::int64_t>(s(o)); }
  __device__ void setS(const DeviceOperand& o, Word v) {
    if (lane_ == 0) area_[o.slot] = v;
    lastWrite[o.slot] = it_ + 1;
  }
  __device__ void setI(const DeviceOperand& o, std::int64_t v) { setS(o, static_cast<Word>(v)); }
  __device__ Vec b(const DeviceOperand& o) const {
    if (o.source == static_cast<std::uint8_t>(Source::Private))
      return {area_ + p_.scalarSlots + p_.bitsOffset[o.slot], p_.bitsLength[o.slot]};
    return {o.data, o.rows};
  }
  __device__ Vec written(const DeviceOperand& o) {
    lastWrite[kMaxDeviceSlots + o.slot] = it_ + 1;
    return b(o);
  }

  __device__ void fail(std::uint32_t k, FaultKind kind, std::int64_t v0 = 0, std::int64_t v1 = 0) {
    if (lane_ != 0) return;
    ParallelState* st = p_.state;
    while (atomicCAS(&st->lock, 0u, 1u) != 0u) {
    }
    __threadfence();
    if (it_ < st->faultIteration) {
      st->faultIteration = it_;
      st->faultInfo[0] = k;
      st->faultInfo[1] = static_cast<unsigned long long>(kind);
      st->faultInfo[2] = static_cast<unsigned long long>(v0);
      st->faultInfo[3] = static_cast<unsigned long long>(v1);
    }
    __threadfence();
    atomicExch(&st->lock, 0u);
  }

  // 1-based index in 1..limit, or a fault (only where the plan says the check is needed).
  __device__ bool inRange(const DeviceOp& op, std::uint32_t k, std::int64_t at, std::uint64_t limit) {
    if (!op.checked || sem::inRange(at, limit)) return true;
    fail(k, FaultKind::IndexRange, at, static_cast<std::int64_t>(limit));
    return false;
  }

  // Warp-wide: the first 1 of v as a 1-based index, 0 when none; with `clear`, that bit cleared.
  __device__ std::int64_t findFirst(Vec v, bool clear) {
    unsigned long long best = ~0ull;
    for (std::uint64_t w = lane_; w < v.words(); w += kWarp)
      if (v.w[w]) {
        best = w * 64 + static_cast<unsigned>(__ffsll(static_cast<long long>(v.w[w])) - 1);
        break;
      }
    best = warpMin(best);
    if (best == ~0ull) return 0;
    if (clear && lane_ == (best / 64) % kWarp) v.w[best / 64] &= ~(Word{1} << (best % 64));
    return static_cast<std::int64_t>(best) + 1;
  }

  __device__ bool execute(const DeviceOp& op, std::uint32_t k, std::uint32_t& next) {
    const DeviceOperand* a = op.a;
    switch (static_cast<Op>(op.op)) {
      case Op::LOADI: case Op::LOADK: setS(a[0], a[1].value); break;
      case Op::MOVE: setS(a[0], s(a[1])); break;
      // The scalar operations (vm/semantics/ScalarOps.h): one case each, from Opcodes.def. The
      // HostMath class never comes here (isHostMathOp: CudaParallel::run leaves such loops to the
      // host, whose C library gives the CPU backend's bits).
#define STAR_SCALAR_CASE(name)                                                                \
  case Op::name: {                                                                            \
    const Word x = s(a[1]), y = operandCount(Op::name) > 2 ? s(a[2]) : 0;                     \
    std::uint64_t r;                                                                          \
    const FaultKind fault = scalarOp<Op::name>(x, y, r);                                      \
    if (fault != FaultKind::None) return fail(k, fault, static_cast<std::int64_t>(x)), false; \
    setS(a[0], r);                                                                            \
    break;                                                                                    \
  }
#include "vm/semantics/ScalarCases.inc"
      case Op::JMP: next = op.target; break;
      case Op::JMPF: if (!i(a[0])) next = op.target; break;
      case Op::JMPT: if (i(a[0])) next = op.target; break;
      case Op::RAISE: return fail(k, FaultKind::Raise, static_cast<std::int64_t>(s(a[0]))), false;

      // ---- bit vectors
      case Op::BCONST: {
        Vec d = written(a[0]);
        for (std::uint64_t w = lane_; w < d.words(); w += kWarp) d.w[w] = a[1].data[w];
        break;
      }
      case Op::BCOPY: {
        Vec x = b(a[1]);
        Vec d = written(a[0]);
        for (std::uint64_t w = lane_; w < d.words(); w += kWarp) d.w[w] = x.w[w];
        break;
      }
      case Op::BFILL: {
        Vec d = written(a[0]);
        for (std::uint64_t w = lane_; w < d.words(); w += kWarp)
          d.w[w] = a[1].value ? (w + 1 == d.words() ? tailMask(d.len) : kAllOnes) : 0;
        break;
      }
      case Op::BAND: case Op::BOR: case Op::BXOR: {
        Vec x = b(a[1]), y = b(a[2]);
        Vec d = written(a[0]);
        for (std::uint64_t w = lane_; w < d.words(); w += kWarp)
          d.w[w] = static_cast<Op>(op.op) == Op::BAND ? x.w[w] & y.w[w]
                   : static_cast<Op>(op.op) == Op::BOR ? x.w[w] | y.w[w] : x.w[w] ^ y.w[w];
        break;
      }
      case Op::BNOT: {
        Vec x = b(a[1]);
        Vec d = written(a[0]);
        for (std::uint64_t w = lane_; w < d.words(); w += kWarp)
          d.w[w] = ~x.w[w] & (w + 1 == d.words() ? tailMask(d.len) : kAllOnes);
        break;
      }
      case Op::BFRST: {
        Vec x = b(a[1]);
        std::int64_t first = findFirst(x, false);
        __syncwarp();
        Vec d = written(a[0]);
        for (std::uint64_t w = lane_; w < d.words(); w += kWarp) d.w[w] = 0;
        __syncwarp();
        if (first && lane_ == 0) d.w[(first - 1) / 64] = Word{1} << ((first - 1) % 64);
        break;
      }
      case Op::BFND: setI(a[0], findFirst(b(a[1]), false)); break;
      case Op::BSTEP: setI(a[0], findFirst(written(a[1]), true)); break;
      case Op::BNUMB: {
        Vec x = b(a[1]);
        unsigned long long n = 0;
        for (std::uint64_t w = lane_; w < x.words(); w += kWarp) n += __popcll(x.w[w]);
        n = warpSum(n);
        setI(a[0], static_cast<std::int64_t>(n));
        break;
      }
      case Op::BSOME: {
        Vec x = b(a[1]);
        bool any = false;
        for (std::uint64_t w = lane_; w < x.words() && !any; w += kWarp) any = x.w[w] != 0;
        setI(a[0], __any_sync(kFullMask, any));
        break;
      }
      case Op::BLEN: setI(a[0], static_cast<std::int64_t>(b(a[1]).len)); break;
      case Op::BGET: {
        Vec x = b(a[1]);
        std::int64_t at = i(a[2]);
        if (!inRange(op, k, at, x.len)) return false;
        std::uint64_t bit = static_cast<std::uint64_t>(at - 1);
        setI(a[0], static_cast<std::int64_t>((x.w[bit / 64] >> (bit % 64)) & 1));
        break;
      }
      case Op::BSET: {
        bool own = a[0].source == static_cast<std::uint8_t>(Source::Private);
        Vec x = own ? written(a[0]) : b(a[0]);
        std::int64_t at = i(a[1]), v = i(a[2]);
        if (!inRange(op, k, at, x.len)) return false;
        if (op.checked && !sem::isComponent(v)) return fail(k, FaultKind::ComponentValue, v), false;
        std::uint64_t bit = static_cast<std::uint64_t>(at - 1);
        Word mask = Word{1} << (bit % 64);
        if (lane_ == 0) {
          // Another iteration may write another bit of the same word at the same time.
          if (v) atomicOr(reinterpret_cast<unsigned long long*>(&x.w[bit / 64]), mask);
          else atomicAnd(reinterpret_cast<unsigned long long*>(&x.w[bit / 64]), ~mask);
        }
        break;
      }
      case Op::WEQ: case Op::WNE: case Op::WLT: case Op::WLE: case Op::WGT: case Op::WGE: {
        Vec x = b(a[1]), y = b(a[2]);
        unsigned long long first = ~0ull;
        for (std::uint64_t w = lane_; w < x.words(); w += kWarp)
          if (x.w[w] != y.w[w]) {
            first = w;
            break;
          }
        first = warpMin(first);
        int c = 0;
        if (first != ~0ull) {
          Word diff = x.w[first] ^ y.w[first];
          c = (x.w[first] & (diff & (0 - diff))) ? 1 : -1;
        }
        Op o = static_cast<Op>(op.op);
        setI(a[0], o == Op::WEQ ? c == 0 : o == Op::WNE ? c != 0 : o == Op::WLT ? c < 0
                   : o == Op::WLE ? c <= 0 : o == Op::WGT ? c > 0 : c >= 0);
        break;
      }

      // ---- tables
      case Op::TROWS: setI(a[0], static_cast<std::int64_t>(a[1].rows)); break;
      case Op::TCOLS: setI(a[0], static_cast<std::int64_t>(a[1].cols)); break;
      case Op::TGETCOL: case Op::TSETCOL: {
        bool get = static_cast<Op>(op.op) == Op::TGETCOL;
        const DeviceOperand& t = get ? a[1] : a[0];
        std::int64_t j = i(get ? a[2] : a[1]);
        if (!inRange(op, k, j, t.cols)) return false;
        const std::uint64_t wpc = (t.rows + 63) / 64;
        Word* column = t.data + static_cast<std::uint64_t>(j - 1) * wpc;
        if (get) {
          Vec d = written(a[0]);
          for (std::uint64_t w = lane_; w < wpc; w += kWarp) d.w[w] = column[w];
        } else {
          Vec x = b(a[2]);
          for (std::uint64_t w = lane_; w < wpc; w += kWarp) column[w] = x.w[w];
        }
        break;
      }
      case Op::TGETROW: case Op::TSETROW: {
        bool get = static_cast<Op>(op.op) == Op::TGETROW;
        const DeviceOperand& t = get ? a[1] : a[0];
        std::int64_t r = i(get ? a[2] : a[1]);
        if (!inRange(op, k, r, t.rows)) return false;
        const std::uint64_t wpc = (t.rows + 63) / 64, row = static_cast<std::uint64_t>(r - 1), q = row / 64;
        const unsigned shift = static_cast<unsigned>(row % 64);
        if (get) {
          gatherRow(written(a[0]), t, wpc, q, shift);
        } else {
          Vec x = b(a[2]);
          for (std::uint64_t j = lane_; j < t.cols; j += kWarp) {
            auto* w = reinterpret_cast<unsigned long long*>(&t.data[j * wpc + q]);
            if ((x.w[j / 64] >> (j % 64)) & 1) atomicOr(w, Word{1} << shift);
            else atomicAnd(w, ~(Word{1} << shift));
          }
        }
        break;
      }
      default:
        break;
    }
    return true;
  }

  // Row `q * 64 + shift` of table t (wpc words a column) into d, 64 columns a step: each lane
  // reads two columns' bits and one ballot per half packs them.
  __device__ void gatherRow(Vec d, const DeviceOperand& t, std::uint64_t wpc, std::uint64_t q, unsigned shift) {
    for (std::uint64_t base = 0; base < t.cols; base += 64) {
      const std::uint64_t j0 = base + lane_, j1 = base + 32 + lane_;
      const bool b0 = j0 < t.cols && ((t.data[j0 * wpc + q] >> shift) & 1);
      const bool b1 = j1 < t.cols && ((t.data[j1 * wpc + q] >> shift) & 1);
      const unsigned lo = __ballot_sync(kFullMask, b0), hi = __ballot_sync(kFullMask, b1);
      if (lane_ == 0) d.w[base / 64] = Word{lo} | (Word{hi} << 32);
    }
  }

  // `v := COL(i, T); v := v op x; COL(i, T) := v` in place (or with ROW, bit by bit with atomics).
  __device__ void fused(std::uint32_t k) {
    const DeviceOp& get = p_.ops[k];
    const DeviceOp& op = p_.ops[k + 1];
    const DeviceOperand& t = get.a[1];
    const DeviceOperand& x = op.a[1].slot == get.a[0].slot && op.a[1].source == get.a[0].source ? op.a[2] : op.a[1];
    const Vec xs = b(x);
    const std::uint64_t wpc = (t.rows + 63) / 64, at = it_ - 1;
    const Op o = static_cast<Op>(op.op);
    if (get.fused == kFuseCol) {
      Word* c = t.data + at * wpc;
      for (std::uint64_t w = lane_; w < wpc; w += kWarp)
        c[w] = o == Op::BOR ? c[w] | xs.w[w] : o == Op::BAND ? c[w] & xs.w[w] : c[w] ^ xs.w[w];
      if (get.keep) {
        Vec d = written(get.a[0]);
        for (std::uint64_t w = lane_; w < wpc; w += kWarp) d.w[w] = c[w];
      }
      return;
    }
    const std::uint64_t q = at / 64;
    const unsigned shift = static_cast<unsigned>(at % 64);
    for (std::uint64_t j = lane_; j < t.cols; j += kWarp) {
      bool bit = (xs.w[j / 64] >> (j % 64)) & 1;
      auto* w = reinterpret_cast<unsigned long long*>(&t.data[j * wpc + q]);
      if (o == Op::BOR && bit) atomicOr(w, Word{1} << shift);
      else if (o == Op::BAND && !bit) atomicAnd(w, ~(Word{1} << shift));
      else if (o == Op::BXOR && bit) atomicXor(w, Word{1} << shift);
    }
    if (get.keep) {
      __syncwarp();
      __threadfence_block();
      gatherRow(written(get.a[0]), t, wpc, q, shift);
    }
  }

  const DevicePlan& p_;
  Word* area_;
  unsigned warp_, lane_;
  std::uint64_t it_ = 0;
};

__global__ void parallelBodyKernel(const __grid_constant__ DevicePlan plan) {
  const unsigned lane = threadIdx.x % kWarp;
  const unsigned warp = static_cast<unsigned>(globalThread() / kWarp);
  const unsigned warps = static_cast<unsigned>(gridThreads() / kWarp);
  Word* area = plan.scratch + std::uint64_t{warp} * plan.warpWords;
  WarpRun run(plan, area, warp, lane);
  std::uint64_t count = 0, last = 0;
  for (std::uint64_t it = plan.from + warp; it <= plan.to; it += warps) {
    const std::uint64_t bit = it - 1;
    Word word = plan.selector[bit / 64];
    if (!((word >> (bit % 64)) & 1)) continue;
    run.run(it);
    __syncwarp();
    if (plan.clearSelector && lane == 0)
      atomicAnd(reinterpret_cast<unsigned long long*>(&plan.selector[bit / 64]), ~(Word{1} << (bit % 64)));
    ++count;
    last = it;
  }
  if (lane != 0) return;
  if (plan.countIterations && count) atomicAdd(&plan.state->iterations, count);
  if (plan.wantLastIndex && last) atomicMax(&plan.state->lastIndex, last);
  for (std::uint32_t e = 0; e < plan.liveOuts; ++e) {
    std::uint32_t slot = plan.liveOutSlot[e] + (plan.liveOutBits[e] ? kMaxDeviceSlots : 0);
    if (run.lastWrite[slot])
      atomicMax(&plan.state->lastWriter[e], ((run.lastWrite[slot] - 1) << 24 | warp) + 1);
  }
}

__global__ void rowUpdateAllKernel(Word* table, std::uint64_t rows, std::uint64_t cols, const Word* x,
                                   const Word* selector, std::uint64_t from, std::uint64_t to, std::uint8_t op) {
  const std::uint64_t wpc = (rows + 63) / 64;
  const std::uint64_t lo = from - 1, hi = to;  // bits [lo, hi) of the selector
  for (std::uint64_t e = globalThread(); e < cols * wpc; e += gridThreads()) {
    const std::uint64_t j = e / wpc, w = e % wpc;
    const bool bit = (x[j / 64] >> (j % 64)) & 1;
    const std::uint64_t first = w * 64;
    Word mask = selector[w];
    if (first < lo) mask &= lo - first >= 64 ? 0 : ~Word{0} << (lo - first);
    if (first + 64 > hi) mask &= hi <= first ? 0 : (hi - first >= 64 ? ~Word{0} : (Word{1} << (hi - first)) - 1);
    Word& c = table[j * wpc + w];
    if (op == static_cast<std::uint8_t>(Op::BOR) && bit) c |= mask;
    else if (op == static_cast<std::uint8_t>(Op::BAND) && !bit) c &= ~mask;
    else if (op == static_cast<std::uint8_t>(Op::BXOR) && bit) c ^= mask;
  }
}

__global__ void parallelFinishKernel(const __grid_constant__ DevicePlan plan, std::uint64_t* host,
                                     std::uint64_t ticket) {
  ParallelState* st = plan.state;
  for (std::uint32_t e = 0; e < plan.liveOuts; ++e) {
    unsigned long long key = st->lastWriter[e];
    if (!key) {
      if (threadIdx.x == 0) host[8 + 2 * e] = 0;  // not written
      continue;
    }
    const unsigned warp = static_cast<unsigned>((key - 1) & 0xffffff);
    const Word* area = plan.scratch + std::uint64_t{warp} * plan.warpWords;
    const std::uint32_t slot = plan.liveOutSlot[e];
    if (plan.liveOutBits[e] && plan.liveOutTarget[e]) {
      Word* to = reinterpret_cast<Word*>(plan.liveOutTarget[e]);
      const Word* from = area + plan.scalarSlots + plan.bitsOffset[slot];
      for (std::uint64_t w = threadIdx.x; w < (plan.bitsLength[slot] + 63) / 64; w += blockDim.x) to[w] = from[w];
    } else if (threadIdx.x == 0) {
      // A scalar's value, or where a vector is that the host copies after reshaping its target.
      host[8 + 2 * e] = 1;
      host[9 + 2 * e] = plan.liveOutBits[e] ? reinterpret_cast<std::uint64_t>(area + plan.scalarSlots + plan.bitsOffset[slot])
                                            : area[slot];
    }
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  host[0] = st->faultIteration;
  for (int k = 0; k < 4; ++k) host[1 + k] = st->faultInfo[k];
  host[5] = st->iterations;
  host[6] = st->lastIndex;
  // Idle again for the next run.
  st->faultIteration = ~0ull;
  st->iterations = 0;
  st->lastIndex = 0;
  for (std::uint32_t e = 0; e < plan.liveOuts; ++e) st->lastWriter[e] = 0;
  __threadfence_system();
  reinterpret_cast<volatile std::uint64_t*>(host)[kParallelTicketWord] = ticket;
}

}  // namespace

void launchParallelBody(const Launch& launch, const DevicePlan& plan, unsigned warps) {
  const unsigned blocks = std::max(1u, (warps * kWarp + kBlockThreads - 1) / kBlockThreads);
  parallelBodyKernel<<<blocks, kBlockThreads, 0, launch.stream>>>(plan);
  checkLaunch("parallel loop body");
}

void launchRowUpdateAll(const Launch& launch, std::uint64_t* table, std::uint64_t rows,
                        std::uint64_t cols, const std::uint64_t* x, const std::uint64_t* selector,
                        std::uint64_t from, std::uint64_t to, std::uint8_t op) {
  const std::uint64_t items = cols * wordsForBits(rows);
  if (items == 0) return;
  rowUpdateAllKernel<<<gridFor(launch, items), kBlockThreads, 0, launch.stream>>>(table, rows, cols, x, selector,
                                                                                  from, to, op);
  checkLaunch("parallel row update");
}

void launchParallelFinish(const Launch& launch, const DevicePlan& plan, std::uint64_t* host,
                          std::uint64_t ticket) {
  parallelFinishKernel<<<1, kBlockThreads, 0, launch.stream>>>(plan, host, ticket);
  checkLaunch("parallel loop finish");
}

}  // namespace star::cuda
