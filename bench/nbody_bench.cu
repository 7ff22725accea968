// The N-body module on the GPU (unit nbody; runtime-cuda/kernels/NBodyForces.cu) against the
// paper's Table 4 (docs/PAPERS.md §5) and the peer of bench/RESULTS.md, measured in the same run:
//  1. force evaluations, pairs per second (N^2 ordered pairs per evaluation, also for the
//     triangular loop, which computes half of them) at N = 96000 and 262144: the square loop
//     with an integer exponent (c2 = 12, powers by multiplication), the general path (the same
//     system forced through lg2/ex2) with and without the polynomial exp2, the same three with
//     the triangular loop (the backend's default),
//     and the peer: a plain shared-memory-tiled kernel with fast log2/exp2 (one particle per
//     thread, the type pair's coefficients selected per pair, rsqrt(max(R.R, 1e-4))).
//  2. the paper's test systems (fluorite-like crystals of 324, 6144, 49152, 96000 particles):
//     seconds per velocity-Verlet step (forces and update, queued back to back on the device,
//     no host round trip) and per pair, beside the paper's GeForce 8800 GTX and Athlon figures;
//     and the whole native call (Backend::nbodyVerlet: upload, 100 steps, download) per step.
//  3. square against triangular loop at every size.
// Times: CUDA events on the backend's stream, median of 5 after a warm-up. Markdown on stdout.
//  4. --multi (alone): one GPU against all of them (the sharded backend's natives).
//   usage: nbody_bench [--quick | --multi]   (--quick: fewer sizes and repetitions, for a smoke run)
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "runtime-cpu/CpuBackend.h"
#include "runtime-cpu/NBodyReference.h"
#include "runtime-cuda/CudaBackend.h"
#include "runtime-cuda/CudaCheck.h"
#include "runtime-cuda/DeviceContext.h"
#include "runtime-cuda/MultiGpuNatives.h"
#include "runtime-cuda/Nccl.h"
#include "runtime-sharded/ShardedBackend.h"
#include "runtime-cuda/kernels/NBodyDevice.h"
#include "runtime-cuda/kernels/NBodyForces.h"
#include "vm/backend/NBodySystem.h"
#include "vm/backend/NativeKernels.h"

using namespace star;
namespace nb = star::cuda::nbody;

namespace {

int g_runs = 5;

// ---- systems -----------------------------------------------------------------------------------

void setIonic(NBodySystem& s, double c2) {
  s.ntypes = 2;
  s.c0 = {4.0, -2.0, -2.0, 1.0};  // charges +2 and -1
  s.c1 = {1.75, 1.75, 1.75, 1.75};
  s.c2 = {c2, c2, c2, c2};
}

// The paper's crystal (NB_CRYSTAL) with the example's ionic coefficients.
NBodySystem crystal(int cells, double a) {
  NBodySystem s = cpu::fluoriteCrystal(cells, a);
  setIonic(s, 12.0);
  return s;
}

// n particles on a jittered cubic grid of spacing 2.5 (no two closer than 1.9), types 2:1.
NBodySystem jittered(std::size_t n, std::uint64_t seed) {
  NBodySystem s;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.3, 0.3);
  const auto side = static_cast<std::size_t>(std::ceil(std::cbrt(static_cast<double>(n))));
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t gx = i % side, gy = i / side % side, gz = i / side / side;
    s.x.push_back(2.5 * gx + jitter(rng));
    s.y.push_back(2.5 * gy + jitter(rng));
    s.z.push_back(2.5 * gz + jitter(rng));
    s.type.push_back(rng() % 3 == 0 ? 0 : 1);
  }
  s.n = n;
  s.vx.assign(n, 0.0);
  s.vy.assign(n, 0.0);
  s.vz.assign(n, 0.0);
  setIonic(s, 12.0);
  return s;
}

// ---- timing ------------------------------------------------------------------------------------

// Median seconds of `work` (queued on `stream`) over g_runs timed runs after one warm-up.
double timeOn(cudaStream_t stream, const std::function<void()>& work) {
  cudaEvent_t start, stop;
  cuda::check(cudaEventCreate(&start), "cudaEventCreate");
  cuda::check(cudaEventCreate(&stop), "cudaEventCreate");
  work();
  std::vector<double> runs;
  for (int r = 0; r < g_runs; ++r) {
    cuda::check(cudaEventRecord(start, stream), "cudaEventRecord");
    work();
    cuda::check(cudaEventRecord(stop, stream), "cudaEventRecord");
    cuda::check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    cuda::check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    runs.push_back(ms * 1e-3);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

// ---- the peer: a plain tiled kernel (bench/RESULTS.md) ---------------------------------------

constexpr int kPeerThreads = 256;

__device__ __forceinline__ float peerLg2(float x) {
  float y;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float peerEx2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// pos: x, y, z, type (0 or 1) per particle, n a multiple of kPeerThreads. c: c0, c1, c2 of the
// four type pairs.
__global__ void __launch_bounds__(kPeerThreads)
    peerForces(const float4* __restrict__ pos, float4* __restrict__ force, int n, float4 c00,
                float4 c01, float4 c11) {
  __shared__ float4 tile[kPeerThreads];
  const int i = blockIdx.x * kPeerThreads + threadIdx.x;
  const float4 p = pos[i];
  const float4 same = p.w == 0.0f ? c00 : c11;  // this particle's pair with its own type
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int base = 0; base < n; base += kPeerThreads) {
    tile[threadIdx.x] = pos[base + threadIdx.x];
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < kPeerThreads; ++k) {
      const float4 q = tile[k];
      const float4 c = q.w == p.w ? same : c01;
      const float dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
      const float r = rsqrtf(fmaxf(dx * dx + dy * dy + dz * dz, 1e-4f));
      const float s = c.x * r * r * r + peerEx2(c.z * peerLg2(c.y * r));
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  force[i] = make_float4(ax, ay, az, 0.0f);
}

// Seconds per peer force evaluation of s (n a multiple of kPeerThreads).
double timePeer(cudaStream_t stream, const NBodySystem& s) {
  std::vector<float4> host(s.n);
  for (std::size_t i = 0; i < s.n; ++i)
    host[i] = make_float4(static_cast<float>(s.x[i]), static_cast<float>(s.y[i]),
                          static_cast<float>(s.z[i]), static_cast<float>(s.type[i]));
  float4 *pos = nullptr, *force = nullptr;
  cuda::check(cudaMalloc(&pos, s.n * sizeof(float4)), "cudaMalloc");
  cuda::check(cudaMalloc(&force, s.n * sizeof(float4)), "cudaMalloc");
  cuda::check(cudaMemcpy(pos, host.data(), s.n * sizeof(float4), cudaMemcpyHostToDevice),
              "cudaMemcpy");
  auto coef = [&](int k) {
    return make_float4(static_cast<float>(s.c0[k]), static_cast<float>(s.c1[k]),
                       static_cast<float>(s.c2[k]), 0.0f);
  };
  const int n = static_cast<int>(s.n);
  const double t = timeOn(stream, [&] {
    peerForces<<<n / kPeerThreads, kPeerThreads, 0, stream>>>(pos, force, n, coef(0), coef(1),
                                                               coef(3));
  });
  cuda::checkLaunch("peer_forces");
  cudaFree(pos);
  cudaFree(force);
  return t;
}

// ---- Star's kernels ----------------------------------------------------------------------------

struct Variant {
  const char* name;
  nb::ForceOptions options;
};

Variant variant(const char* name, nb::PairLoop loop, bool general, bool poly) {
  Variant v{name, {}};
  v.options.loop = loop;
  v.options.general = general;
  v.options.poly_exp2 = poly;
  return v;
}

const Variant kVariants[] = {
    variant("square, integer c2 = 12", nb::PairLoop::Square, false, false),
    variant("square, general, special-function unit only", nb::PairLoop::Square, true, false),
    variant("square, general, polynomial exp2 for every other r^3", nb::PairLoop::Square, true,
            true),
    variant("triangular, integer c2 = 12", nb::PairLoop::Triangular, false, false),
    variant("triangular, general, special-function unit only", nb::PairLoop::Triangular, true,
            false),
    variant("triangular, general, polynomial exp2 for every other r^3", nb::PairLoop::Triangular,
            true, true),
};

// Seconds per force evaluation of s by one variant (forces only, partial sums left on the device).
double timeForces(cuda::DeviceContext& ctx, const NBodySystem& s, const nb::ForceOptions& o) {
  nb::DeviceSystem d;
  if (!nb::upload(ctx, s, d)) {
    std::fprintf(stderr, "the GPU declined the system\n");
    std::exit(1);
  }
  const nb::ForcePlan plan = nb::planForces(ctx, d, o);
  const double t = timeOn(ctx.stream(), [&] { nb::launchForces(ctx.launch(), d, plan); });
  nb::release(ctx, d);
  return t;
}

// Seconds per Verlet step (forces + update) of s, `steps` steps queued back to back.
double timeSteps(cuda::DeviceContext& ctx, const NBodySystem& s, const nb::ForceOptions& o,
                  int steps) {
  nb::DeviceSystem d;
  if (!nb::upload(ctx, s, d)) std::exit(1);
  const nb::ForcePlan plan = nb::planForces(ctx, d, o);
  const double t = timeOn(ctx.stream(), [&] {
    for (int k = 0; k < steps; ++k) {
      nb::launchForces(ctx.launch(), d, plan);
      nb::launchUpdate(ctx.launch(), d, plan.partials, 1e-4, 1e-4, true);
    }
  });
  nb::release(ctx, d);
  return t / steps;
}

double n2(std::size_t n) {
  return static_cast<double>(n) * static_cast<double>(n);
}

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

}  // namespace

// 4. --multi: the whole native call (upload, forces, download; or 10 Verlet steps, 3 at N = 10^6) on one GPU's
// backend against the sharded backend's natives on every GPU (runtime-cuda/MultiGpuNatives.h:
// each GPU its share of the pairs, NCCL summing the forces), wall clock, best of 3 after a
// warm-up; and the largest difference of the forces relative to the largest force.
int multiGpu() {
  std::setvbuf(stdout, nullptr, _IONBF, 0);  // what was measured survives a failure
  const int devices = cudaDeviceCount();
  std::printf("## Several GPUs: %d x %s\n\n", devices, cuda::DeviceContext().deviceName().c_str());
  if (devices < 2) {
    std::printf("fewer than two GPUs: nothing to compare\n");
    return 0;
  }
  auto one = makeCudaBackend(0);
  auto many = makeMultiGpuNatives(devices);
  auto wall = [](const std::function<void()>& f) {
    f();
    double best = 1e30;
    for (int r = 0; r < 3; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      f();
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
  };
  // A reduction's round trip: one GPU's count() against the sharded backend's (queued on every
  // GPU, then combined on the host), against an NCCL all-reduce of one word and a wait for it.
  {
    ShardedParts parts;
    for (int g = 0; g < devices; ++g) parts.devices.push_back(makeCudaBackend(g));
    parts.host = makeCpuBackend();
    parts.minWords = 1;
    auto sharded = makeShardedBackend(std::move(parts));
    const std::uint64_t bits = 64 * static_cast<std::uint64_t>(devices);  // a word on each GPU
    auto perCall = [](int calls, const std::function<void()>& f) {
      f();
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < calls; ++i) f();
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / calls * 1e6;
    };
    const Handle a = one->createBits(), b = sharded->createBits();
    one->resizeBits(a, bits);
    sharded->resizeBits(b, bits);
    one->fill(a, true);
    sharded->fill(b, true);
    const double us1 = perCall(2000, [&] { one->count(a); });
    const double usm = perCall(2000, [&] { sharded->count(b); });
    std::vector<std::unique_ptr<cuda::DeviceContext>> ctx;
    std::vector<double*> buffers;
    std::vector<cudaStream_t> streams;
    for (int g = 0; g < devices; ++g) {
      cuda::check(cudaSetDevice(g), "cudaSetDevice");
      ctx.push_back(std::make_unique<cuda::DeviceContext>());
      buffers.push_back(reinterpret_cast<double*>(ctx.back()->allocate(1)));
      streams.push_back(ctx.back()->stream());
    }
    cuda::NcclGroup group(devices);
    const double usn = perCall(2000, [&] {
      group.allReduceSum(buffers, 1, streams);
      for (int g = 0; g < devices; ++g) {
        cuda::check(cudaSetDevice(g), "cudaSetDevice");
        cuda::check(cudaStreamSynchronize(streams[static_cast<std::size_t>(g)]), "sync");
      }
    });
    for (int g = 0; g < devices; ++g) {
      cuda::check(cudaSetDevice(g), "cudaSetDevice");
      ctx[static_cast<std::size_t>(g)]->release(reinterpret_cast<std::uint64_t*>(buffers[static_cast<std::size_t>(g)]));
    }
    std::printf("| reduction round trip (NUMB of a word on each GPU) | microseconds |\n|---|---|\n"
                "| one GPU, count() | %.1f |\n| %d GPUs, sharded count(): queued on all, combined on the host | %.1f |\n"
                "| %d GPUs, NCCL all-reduce of one word and a wait on every stream | %.1f |\n\n",
                us1, devices, usm, devices, usn);
  }
  cuda::check(cudaSetDevice(0), "cudaSetDevice");  // `one` runs on device 0

  std::printf("| N | call | 1 GPU s | %d GPUs s | speed-up | max force difference / max force |\n"
              "|---|---|---|---|---|---|\n", devices);
  for (std::size_t n : {std::size_t{262144}, std::size_t{1000000}}) {
    const NBodySystem s = jittered(n, n);
    std::vector<double> f1[3], fm[3];
    bool ran = true;
    const double t1 = wall([&] {
      one->makeCurrent();
      one->nativeKernels()->nbodyForces(s, f1[0], f1[1], f1[2]);
    });
    const double tm = wall([&] { ran = many->nbodyForces(s, fm[0], fm[1], fm[2]); });
    double diff = 0, scale = 0;
    for (int c = 0; c < 3 && ran; ++c)
      for (std::size_t i = 0; i < n; ++i) {
        diff = std::max(diff, std::abs(f1[c][i] - fm[c][i]));
        scale = std::max(scale, std::abs(f1[c][i]));
      }
    std::printf("| %zu | forces | %.4f | %s | %.2fx | %.1e |\n", n, t1,
                ran ? std::to_string(tm).c_str() : "declined", ran ? t1 / tm : 0.0,
                scale > 0 ? diff / scale : 0.0);
    const int steps = n > 300000 ? 3 : 10;
    NBodySystem a = s, b = s;
    const double v1 = wall([&] {
      a = s;
      one->makeCurrent();
      one->nativeKernels()->nbodyVerlet(a, 1e-3, static_cast<std::uint64_t>(steps));
    });
    const double vm = wall([&] { b = s; ran = many->nbodyVerlet(b, 1e-3, static_cast<std::uint64_t>(steps)); });
    double moved = 0;
    for (std::size_t i = 0; i < n && ran; ++i) moved = std::max(moved, std::abs(a.x[i] - b.x[i]));
    std::printf("| %zu | %d Verlet steps | %.4f | %.4f | %.2fx | positions differ by at most %.1e |\n",
                n, steps, v1, vm, v1 / vm, moved);
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--multi") == 0) return multiGpu();
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  if (quick) g_runs = 3;
  std::string why;
  if (!cudaBackendAvailable(&why)) {
    std::printf("no usable CUDA device: %s\n", why.c_str());
    return 0;
  }
  cuda::DeviceContext ctx;
  int device = 0, sms = 0, clock_khz = 0;
  cuda::check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device);
  std::printf("# N-body forces and steps on %s (%d SMs, %.2f GHz boost)\n\n",
              ctx.deviceName().c_str(), sms, clock_khz * 1e-6);

  // 1. Pairs per second.
  std::printf("## Force evaluation, N^2 pairs per evaluation\n\n");
  std::printf("| kernel | N | ms | pairs/s | s/pair |\n|---|---|---|---|---|\n");
  const std::vector<std::size_t> big =
      quick ? std::vector<std::size_t>{96000} : std::vector<std::size_t>{96000, 262144};
  for (std::size_t n : big) {
    const NBodySystem s = jittered(n, n);
    for (const Variant& v : kVariants) {
      const double t = timeForces(ctx, s, v.options);
      std::printf("| %s | %zu | %.3f | %s | %s |\n", v.name, n, t * 1e3, sci(n2(n) / t).c_str(),
                  sci(t / n2(n)).c_str());
    }
    const double t = timePeer(ctx.stream(), s);
    std::printf("| peer: plain tiled kernel, fast log2/exp2 | %zu | %.3f | %s | %s |\n", n, t * 1e3,
                sci(n2(n) / t).c_str(), sci(t / n2(n)).c_str());
  }

  // 2. The paper's Table 4.
  struct Paper {
    int cells;
    double gpu, cpu;  // s/step: GeForce 8800 GTX, Athlon64 2.1 GHz
  };
  const Paper paper[] = {
      {3, 0.000048, 0.0075}, {8, 0.004262, 2.6932}, {16, 0.267812, 177.33}, {20, 1.050462, 677.38}};
  std::printf(
      "\n## The paper's Table 4: seconds per Verlet step (forces + update), the backend's "
      "default loop (triangular)\n\n");
  std::printf(
      "| N | integer c2, s/step | s/pair | general, s/step | s/pair | "
      "native call (100 steps), s/step | paper GPU s/step | paper CPU s/step | "
      "this host's CPU reference, s/step | speed-up over the paper's GPU |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  auto cpu = makeCpuBackend();
  auto gpu = makeCudaBackend();
  for (const Paper& p : paper) {
    if (quick && p.cells > 16) continue;
    const NBodySystem s = crystal(p.cells, 5.5);
    const int steps = s.n < 10000 ? 200 : (s.n < 60000 ? 10 : 4);
    nb::ForceOptions integer, general;  // the defaults, as Backend::nbodyVerlet runs them
    general.general = true;
    const double ti = timeSteps(ctx, s, integer, steps);
    const double tg = timeSteps(ctx, s, general, steps);
    // The whole native call: upload, 100 steps, download (one host round trip).
    NBodySystem moved = s;
    gpu->nativeKernels()->nbodyVerlet(moved, 1e-4, 1);  // warm-up
    const auto start = std::chrono::steady_clock::now();
    const int call_steps = s.n < 60000 ? 100 : 10;
    gpu->nativeKernels()->nbodyVerlet(moved, 1e-4, call_steps);
    const double tc =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
        call_steps;
    std::string host = "-";
    if (s.n <= 6144) {  // one force evaluation is a step's cost
      std::vector<double> fx, fy, fz;
      const auto t0 = std::chrono::steady_clock::now();
      cpu->nativeKernels()->nbodyForces(s, fx, fy, fz);
      host = sci(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("| %zu | %s | %s | %s | %s | %s | %g | %g | %s | %.0fx |\n", s.n, sci(ti).c_str(),
                sci(ti / n2(s.n)).c_str(), sci(tg).c_str(), sci(tg / n2(s.n)).c_str(),
                sci(tc).c_str(), p.gpu, p.cpu, host.c_str(), p.gpu / ti);
  }

  // 3. Square against triangular loop (forces only, integer c2).
  std::printf("\n## Square against triangular (Newton's third law) loop, forces only\n\n");
  std::printf(
      "| N | square, integer ms | triangular, integer ms | square, general ms | "
      "triangular, general ms | peer ms |\n|---|---|---|---|---|---|\n");
  for (int cells : {3, 8, 16, 20}) {
    if (quick && cells > 8) continue;
    const NBodySystem s = crystal(cells, 5.5);
    double t[4];
    const int picks[] = {0, 3, 1, 4};  // square and triangular, integer and general (no poly)
    for (int k = 0; k < 4; ++k) t[k] = timeForces(ctx, s, kVariants[picks[k]].options);
    const std::string peer = s.n % kPeerThreads == 0 ? sci(timePeer(ctx.stream(), s) * 1e3) : "-";
    std::printf("| %zu | %.4f | %.4f | %.4f | %.4f | %s |\n", s.n, t[0] * 1e3, t[1] * 1e3,
                t[2] * 1e3, t[3] * 1e3, peer.c_str());
  }
  return 0;
}
