#include "runtime-cuda/MultiGpuNatives.h"

#include <cuda_runtime_api.h>

#include <memory>
#include <vector>

#include "core/BitLayout.h"
#include "core/Interrupt.h"
#include "runtime-cuda/CudaBackend.h"
#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/Nccl.h"
#include "runtime-cuda/kernels/Closure.h"
#include "runtime-cuda/kernels/NBody.h"
#include "runtime-cuda/kernels/NBodyDevice.h"
#include "runtime-cuda/kernels/NBodyForces.h"
#include "runtime-cuda/kernels/SortShard.h"
#include "runtime-cuda/kernels/SortSplit.h"
#include "vm/backend/NBodySystem.h"

namespace star {
namespace {

using cuda::nbody::DeviceSystem;
using cuda::nbody::ForcePlan;

class MultiGpuNatives final : public ShardedNatives {
 public:
  explicit MultiGpuNatives(int devices) : devices_(devices) {}
  ~MultiGpuNatives() override {
    group_.reset();
    for (std::size_t g = ctx_.size(); g-- > 0;) {  // device 0 last: it stays the current one
      cudaSetDevice(static_cast<int>(g));
      ctx_[g].reset();
    }
  }

  // Closure.cu's blocked Warshall on every GPU's rows (ClosurePart), on each backend's own stream;
  // before each step, the step's pivot column goes from the GPU that holds it to the others.
  bool closureParts(const ShardedValue& t, std::uint64_t n) override {
    if (!group()) return false;
    std::vector<std::unique_ptr<cuda::ClosurePart>> parts;
    std::vector<std::uint64_t*> scratch;
    std::vector<cudaStream_t> streams;
    std::vector<cuda::DeviceContext*> ctx;
    for (std::size_t g = 0; g < t.devices.size(); ++g)
      if (!(ctx.emplace_back(cudaContextOf(*t.devices[g])))) return false;
    struct Release {  // the scratch, stream-ordered, on every way out
      std::vector<cuda::DeviceContext*>& ctx;
      std::vector<std::uint64_t*>& scratch;
      ~Release() {
        for (std::size_t g = scratch.size(); g-- > 0;) {
          cudaSetDevice(static_cast<int>(g));
          ctx[g]->release(scratch[g]);
        }
      }
    } release{ctx, scratch};
    for (std::size_t g = 0; g < t.devices.size(); ++g) {
      t.devices[g]->makeCurrent();
      const std::uint64_t elements = wordsForBits(t.rows[g]);
      scratch.push_back(ctx[g]->allocate(cuda::ClosurePart::scratchWords(n, elements)));
      parts.push_back(std::make_unique<cuda::ClosurePart>(
          ctx[g]->launch(), cudaDataOf(*t.devices[g], t.parts[g]), n, t.firstRow[g] / 64, elements,
          scratch.back()));
      streams.push_back(ctx[g]->stream());
    }
    // The column snapshot of step b, from the part that holds element b to every part.
    auto share = [&](std::uint64_t b) {
      int root = 0;
      std::vector<std::uint64_t*> columns;
      for (std::size_t g = 0; g < parts.size(); ++g) {
        if (parts[g]->holds(b)) root = static_cast<int>(g);
        columns.push_back(parts[g]->column(b));
      }
      group_->broadcast(columns, n, root, streams);
    };
    for (std::size_t g = 0; g < parts.size(); ++g) {
      t.devices[g]->makeCurrent();
      parts[g]->snapshot();
    }
    share(0);
    const std::uint64_t steps = wordsForBits(n);
    for (std::uint64_t b = 0; b < steps; ++b) {
      throwIfInterrupted();  // as on one GPU: the queued launches still run
      for (std::size_t g = 0; g < parts.size(); ++g) {
        t.devices[g]->makeCurrent();
        parts[g]->step(b);
      }
      if (b + 1 < steps) share(b + 1);
    }
    t.devices[0]->makeCurrent();
    ++partsRun_;
    return true;
  }

  // SortShard.h's phases on every GPU's block, the records exchanged through NCCL between the
  // local sorts and the merges: block h's marked positions receive the records of ranks
  // [P_h, P_h + M_h) of the stable order of all marked rows (M_h: block h's marked rows, P_h:
  // those of the blocks before it), cut out of every GPU's sorted run by SortSplit.h.
  bool sortParts(const ShardedValue& t, const ShardedValue& x, std::uint64_t cols,
                 std::uint64_t first, std::uint64_t len, KeyKind kind, bool descending) override {
    const std::size_t k = t.devices.size();
    if (k - 1 > cuda::SortShard::kMaxProbes || !group()) return false;
    std::vector<cuda::DeviceContext*> ctx;
    for (std::size_t g = 0; g < k; ++g) {
      if (!cuda::SortShard::handles(t.rows[g], cols, len)) return false;
      if (!(ctx.emplace_back(cudaContextOf(*t.devices[g])))) return false;
    }
    std::vector<std::unique_ptr<cuda::SortShard>> shard;
    std::vector<cudaStream_t> streams;
    for (std::size_t g = 0; g < k; ++g) {
      t.devices[g]->makeCurrent();
      shard.push_back(std::make_unique<cuda::SortShard>(
          *ctx[g], cudaDataOf(*t.devices[g], t.parts[g]), t.rows[g], cols,
          cudaDataOf(*x.devices[g], x.parts[g]), first, len, kind, descending));
      shard.back()->queueCount();
      streams.push_back(ctx[g]->stream());
    }
    std::vector<std::uint64_t> marked(k), boundaries;
    std::uint64_t total = 0;
    for (std::size_t g = 0; g < k; ++g) {
      t.devices[g]->makeCurrent();
      marked[g] = shard[g]->marked();
      total += marked[g];
      if (g + 1 < k) boundaries.push_back(total);
      shard[g]->sortLocal();
    }
    // take[h][g]: run g's records among the first P_{h+1}; run g sends [take[h-1][g], take[h][g])
    // to block h.
    auto take = cuda::splitSortedRuns(boundaries, shard[0]->maxKey(),
                                      [&](const std::vector<std::uint64_t>& probes) {
                                        cuda::RunRanks ranks;
                                        for (std::size_t g = 0; g < k; ++g) {
                                          t.devices[g]->makeCurrent();
                                          shard[g]->queueRanks(probes);
                                        }
                                        for (std::size_t g = 0; g < k; ++g)
                                          ranks.push_back(shard[g]->ranks());
                                        return ranks;
                                      });
    take.push_back(marked);
    std::vector<cuda::NcclGroup::Transfer> transfers;
    std::vector<std::vector<std::uint64_t>> runs(k, std::vector<std::uint64_t>(k));
    for (std::size_t h = 0; h < k; ++h) {
      std::uint64_t at = 0;  // where run g lands among block h's incoming records
      for (std::size_t g = 0; g < k; ++g) {
        const std::uint64_t from = h == 0 ? 0 : take[h - 1][g];
        const std::uint64_t count = take[h][g] - from;
        runs[h][g] = count;
        if (g == h) t.devices[g]->makeCurrent();
        move(transfers, *shard[g], *shard[h], static_cast<int>(g), static_cast<int>(h), from, at,
             count, streams[g]);
        at += count;
      }
    }
    group_->exchange(transfers, streams);
    // Every merge (which may fail to allocate) before any block is written: a failure leaves the
    // table as it was.
    for (std::size_t h = 0; h < k; ++h) {
      t.devices[h]->makeCurrent();
      shard[h]->merge(runs[h]);
    }
    for (std::size_t h = 0; h < k; ++h) {
      t.devices[h]->makeCurrent();
      shard[h]->writeBack();
    }
    t.devices[0]->makeCurrent();
    ++partsRun_;
    return true;
  }

  std::uint64_t partsRun() const override { return partsRun_; }

  // One evaluation: each GPU its part of the pairs, the parts summed on every GPU, device 0's
  // gathered and copied back.
  bool nbodyForces(const NBodySystem& s, std::vector<double>& fx, std::vector<double>& fy,
                   std::vector<double>& fz) override {
    Systems up{*this, {}, {}};
    if (s.n == 0 || !prepare(s, up)) return false;
    forces(up);
    select(0);
    cuda::nbody::launchGather(ctx_[0]->launch(), up.d[0], 1);
    cuda::nbody::downloadForces(*ctx_[0], up.d[0], fx, fy, fz);
    return true;
  }

  // The one-GPU schedule (kernels/NBody.h's verletSchedule), the forces shared: every GPU then
  // applies the same summed forces to its copy of every particle, so the copies stay equal with no
  // exchange of positions.
  bool nbodyVerlet(NBodySystem& s, double dt, std::uint64_t steps) override {
    Systems up{*this, {}, {}};
    if (s.n == 0 || steps == 0 || !prepare(s, up)) return false;
    auto update = [&](double kick, bool drift) {
      for (int g = 0; g < devices_; ++g) {
        select(g);
        cuda::nbody::launchUpdate(ctx_[g]->launch(), up.d[g], 1, kick, dt, drift);
      }
    };
    cuda::verletSchedule(
        dt, steps, [&] { forces(up); }, update);
    select(0);
    cuda::nbody::downloadState(*ctx_[0], up.d[0], s);
    return true;
  }

 private:
  // The system on every GPU, released on every way out.
  struct Systems {
    MultiGpuNatives& self;
    std::vector<DeviceSystem> d;
    std::vector<ForcePlan> plan;
    ~Systems() {
      for (std::size_t g = d.size(); g-- > 0;) {  // device 0 last: it stays the current one
        self.select(static_cast<int>(g));
        cuda::nbody::release(*self.ctx_[g], d[g]);
      }
    }
  };

  void select(int g) { cuda::check(cudaSetDevice(g), "cudaSetDevice"); }

  // count records [from, from + count) of `source`'s sorted run to `dest`'s incoming records
  // from position `at`: NCCL transfers (keys, then values), or copies on `stream` when g == h.
  static void move(std::vector<cuda::NcclGroup::Transfer>& transfers, cuda::SortShard& source,
                   cuda::SortShard& dest, int g, int h, std::uint64_t from, std::uint64_t at,
                   std::uint64_t count, cudaStream_t stream) {
    if (count == 0) return;
    auto add = [&](const void* src, void* dst, unsigned size) {
      const cuda::NcclGroup::Transfer p{g, h, static_cast<const char*>(src) + from * size,
                                        static_cast<char*>(dst) + at * size, count * size};
      if (g != h) {
        transfers.push_back(p);
        return;
      }
      cuda::check(cudaMemcpyAsync(p.dst, p.src, p.bytes, cudaMemcpyDeviceToDevice, stream),
                  "cudaMemcpyAsync");
    };
    add(source.sortedKeys(), dest.incomingKeys(), source.keyBytes());
    if (source.valueBytes() > 0)
      add(source.sortedValues(), dest.incomingValues(), source.valueBytes());
  }

  // The communicators, made at the first call; false (for good) without NCCL.
  bool group() {
    if (group_) return true;
    if (failed_ || !cuda::ncclAvailable()) {
      failed_ = true;
      return false;
    }
    group_ = std::make_unique<cuda::NcclGroup>(devices_);
    select(0);
    return true;
  }

  // The N-body procedures' own contexts (they hold no backend value) and the communicators.
  bool ready() {
    if (!group()) return false;
    for (int g = static_cast<int>(ctx_.size()); g < devices_; ++g) {
      select(g);
      ctx_.push_back(std::make_unique<cuda::DeviceContext>());
    }
    select(0);
    return true;
  }

  // Uploads s to every GPU; false when a GPU declines it or it needs the square pair loop (whose
  // partial sums are not split by pairs).
  bool prepare(const NBodySystem& s, Systems& up) {
    if (!ready()) return false;
    cuda::nbody::UploadImage image;  // laid out once, copied to every GPU
    if (!cuda::nbody::prepareUpload(s, image)) return false;
    for (int g = 0; g < devices_; ++g) {
      select(g);
      up.d.emplace_back();
      cuda::nbody::uploadImage(*ctx_[g], image, up.d.back());
      up.plan.push_back(cuda::nbody::planForces(*ctx_[g], up.d.back(), {}));
      if (up.plan.back().loop != cuda::nbody::PairLoop::Triangular || up.plan.back().partials != 1)
        return false;
    }
    return true;
  }

  void forces(Systems& up) {
    std::vector<double*> buffers;
    std::vector<cudaStream_t> streams;
    for (int g = 0; g < devices_; ++g) {
      select(g);
      cuda::nbody::launchForces(ctx_[g]->launch(), up.d[g], up.plan[g], static_cast<unsigned>(g),
                                static_cast<unsigned>(devices_));
      buffers.push_back(up.d[g].force);
      streams.push_back(ctx_[g]->stream());
    }
    group_->allReduceSum(buffers, 3 * up.d[0].capacity, streams);
  }

  int devices_;
  bool failed_ = false;
  std::uint64_t partsRun_ = 0;
  std::vector<std::unique_ptr<cuda::DeviceContext>> ctx_;
  std::unique_ptr<cuda::NcclGroup> group_;
};

}  // namespace

std::unique_ptr<ShardedNatives> makeMultiGpuNatives(int devices) {
  return std::make_unique<MultiGpuNatives>(devices);
}

}  // namespace star
