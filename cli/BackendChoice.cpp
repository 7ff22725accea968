#include "cli/BackendChoice.h"

#include <charconv>
#include <cstdlib>
#include <iostream>

#include "core/MemoryLimit.h"
#include "runtime-cpu/CpuBackend.h"
#include "runtime-sharded/ShardedBackend.h"
#include "vm/interp/Interpreter.h"
#ifdef STAR_HAVE_CUDA
#include "runtime-cuda/CudaBackend.h"
#include "runtime-cuda/MultiGpuNatives.h"
#endif

namespace star {
namespace {

bool knownBackend(const std::string& requested, std::string* error) {
  if (requested == "auto" || requested == "cuda" || requested == "cpu") return true;
  *error = "unknown backend '" + requested + "' (expected cpu, cuda or auto)";
  return false;
}

// STAR_SHARD_MIN_WORDS: the least 64-row words of a value on each device (runtime-sharded/
// ShardLayout.h; default kShardMinWords); the tests set 1 so that small tables are split too. Anything but
// a positive number is an error (nullopt, with *error set).
std::optional<std::uint64_t> shardMinWords(std::string* error) {
  const char* env = std::getenv("STAR_SHARD_MIN_WORDS");
  if (env == nullptr || *env == '\0') return kShardMinWords;
  std::uint64_t n = 0;
  const char* end = env + std::char_traits<char>::length(env);
  const auto [ptr, ec] = std::from_chars(env, end, n);
  if (ec == std::errc{} && ptr == end && n > 0) return n;
  *error = std::string("STAR_SHARD_MIN_WORDS must be a positive number of 64-row words, not '") +
           env + "'";
  return std::nullopt;
}

std::unique_ptr<Backend> shardedOf(std::vector<std::unique_ptr<Backend>> devices,
                                   std::uint64_t minWords,
                                   std::unique_ptr<ShardedNatives> natives = nullptr) {
  return makeShardedBackend({.devices = std::move(devices),
                             .host = makeCpuBackend(),
                             .minWords = minWords,
                             .natives = std::move(natives)});
}

std::unique_ptr<Backend> hostShards(int devices, std::uint64_t minWords) {
  if (devices <= 1) return makeCpuBackend();
  std::vector<std::unique_ptr<Backend>> parts;
  for (int g = 0; g < devices; ++g) parts.push_back(makeCpuBackend());
  return shardedOf(std::move(parts), minWords);
}

}  // namespace

int gpuCount() {
#ifdef STAR_HAVE_CUDA
  return cudaDeviceCount();
#else
  return 0;
#endif
}

bool gpusShareable() {
#ifdef STAR_HAVE_CUDA
  return cudaDevicesShareable();
#else
  return false;
#endif
}

bool cudaBackendBuilt() {
#ifdef STAR_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

std::optional<int> parseDevices(const std::string& text) {
  if (text == "all") return 0;
  int n = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, n);
  if (text.empty() || ec != std::errc{} || ptr != end || n < 1 || n > static_cast<int>(kMaxShards))
    return std::nullopt;
  return n;
}

std::unique_ptr<Backend> chooseBackend(const std::string& requested, std::string* error,
                                       const std::string& devices) {
  auto backend = makeBackend(requested, error, devices);
  if (backend) chooseMemoryLimit(backend->deviceMemory());
  return backend;
}

std::unique_ptr<Backend> chooseBackendFor(const std::string& requested, bool needed,
                                          std::string* error, const std::string& devices) {
  if (needed) return chooseBackend(requested, error, devices);
  if (!knownBackend(requested, error)) return nullptr;
  chooseMemoryLimit(0);
  return makeCpuBackend();
}

std::unique_ptr<Backend> makeBackend(const std::string& requested, std::string* error,
                                     const std::string& devices) {
  const std::optional<int> asked = parseDevices(devices);
  if (!asked) {
    *error = "--devices=" + devices + ": expected a number of devices from 1 to " +
             std::to_string(kMaxShards) + ", or all";
    return nullptr;
  }
  // Read only where rows are split: a run on one device ignores it.
  std::optional<std::uint64_t> minWords = kShardMinWords;
  if (*asked > 1 || (*asked == 0 && requested != "cpu")) minWords = shardMinWords(error);
  if (!minWords) return nullptr;
  // --devices=N on the CPU backend splits the rows of host memory N ways, as on N GPUs.
  if (requested == "cpu") return hostShards(*asked == 0 ? 1 : *asked, *minWords);
  if (!knownBackend(requested, error)) return nullptr;
#ifdef STAR_HAVE_CUDA
  std::string why;
  if (cudaBackendAvailable(&why)) {
    const int present = cudaDeviceCount();
    const int n = *asked == 0 ? std::min(present, static_cast<int>(kMaxShards)) : *asked;
    if (n > present) {
      *error = "--devices=" + devices + " asks for " + std::to_string(n) +
               " GPUs, but this machine has " + std::to_string(present);
      return nullptr;
    }
    try {
      if (n <= 1) return makeCudaBackend();
      std::vector<std::unique_ptr<Backend>> parts;
      for (int g = 0; g < n; ++g) parts.push_back(makeCudaBackend(g));
      return shardedOf(std::move(parts), *minWords, makeMultiGpuNatives(n));
    } catch (const BackendError& e) {
      why = e.what();
    }
  }
  if (requested == "cuda" || *asked > 1) {
    *error = "the CUDA backend is not available: " + why;
    return nullptr;
  }
#else
  if (requested == "cuda" || *asked > 1) {
    *error = "the CUDA backend is not available: this star was built without CUDA (nvcc not found)";
    return nullptr;
  }
#endif
  return makeCpuBackend();
}

bool isEngineName(const std::string& name) {
  for (const char* e : kEngineNames)
    if (name == e) return true;
  return false;
}

std::string engineNamesText(const std::string& prefix) {
  std::string s;
  const std::size_t n = std::size(kEngineNames);
  for (std::size_t i = 0; i < n; ++i)
    s += (i == 0 ? "" : i + 1 == n ? " or " : ", ") + prefix + kEngineNames[i];
  return s;
}

void chooseEngine(Interpreter& vm, const std::string& requested, bool useCache) {
  const bool wantsEngine =
      requested == "device" || requested == "compiled" || requested == "tiered";
  if (wantsEngine && vm.backend().deviceEngine() == nullptr) {
    // Values split across devices (--devices=N): one team cannot span them (ARCHITECTURE.md §6).
    static bool said = false;
    if (!said)
      std::cerr << "star: --engine=" << requested
                << " is not used: with rows split across devices the host engine runs every "
                   "procedure\n";
    said = true;
    vm.enableDeviceEngine(false);
    return;
  }
  if (requested == "compiled" || requested == "tiered") {
    if (vm.enableCompiledEngine(useCache, requested == "tiered")) return;
    static bool said = false;
    if (!said)
      std::cerr << "star: the " << vm.backend().name()
                << " backend has no compiled code yet; the device engine interprets\n";
    said = true;
  }
  vm.enableDeviceEngine(useDeviceEngine(requested, vm.backend()));
}

bool useDeviceEngine(const std::string& requested, const Backend& backend) {
  if (requested == "device" || requested == "compiled" || requested == "tiered") return true;
  return requested == "auto" && backend.name() == "cuda";
}

}  // namespace star
