#include "runtime-cuda/Nccl.h"

#include <nccl.h>

#include <cstdlib>
#include <string>

#include "runtime-cuda/DynamicLibrary.h"
#include "vm/backend/Backend.h"

namespace star::cuda {
namespace {

struct NcclApi {
  decltype(&ncclCommInitAll) commInitAll = nullptr;
  decltype(&ncclCommDestroy) commDestroy = nullptr;
  decltype(&ncclAllReduce) allReduce = nullptr;
  decltype(&ncclBroadcast) broadcast = nullptr;
  decltype(&ncclSend) send = nullptr;
  decltype(&ncclRecv) recv = nullptr;
  decltype(&ncclGroupStart) groupStart = nullptr;
  decltype(&ncclGroupEnd) groupEnd = nullptr;
  decltype(&ncclGetErrorString) errorString = nullptr;
};

// libnccl.so.2 on the library path or under the toolkit; $STAR_NCCL_LIBRARY names the file
// where it lives elsewhere (a Python wheel's copy, for instance).
void* openNccl() {
  if (const char* path = std::getenv("STAR_NCCL_LIBRARY"); path && *path)
    return ::dlopen(path, RTLD_NOW | RTLD_LOCAL);
  for (const char* name : {"libnccl.so.2", "libnccl.so", "/usr/local/cuda/lib64/libnccl.so.2"})
    if (void* lib = ::dlopen(name, RTLD_NOW | RTLD_LOCAL)) return lib;
  return nullptr;
}

const LoadedApi<NcclApi>& nccl() {
  static const LoadedApi<NcclApi> loaded = [] {
    LoadedApi<NcclApi> r;
    void* lib = openNccl();
    if (!lib) {
      r.reason = "NCCL (libnccl.so.2) is not installed or not on the library path";
      return r;
    }
    static NcclApi a{};
    if (!(bindSymbol(lib, a.commInitAll, "ncclCommInitAll") &&
          bindSymbol(lib, a.commDestroy, "ncclCommDestroy") &&
          bindSymbol(lib, a.allReduce, "ncclAllReduce") &&
          bindSymbol(lib, a.broadcast, "ncclBroadcast") && bindSymbol(lib, a.send, "ncclSend") &&
          bindSymbol(lib, a.recv, "ncclRecv") && bindSymbol(lib, a.groupStart, "ncclGroupStart") &&
          bindSymbol(lib, a.groupEnd, "ncclGroupEnd") &&
          bindSymbol(lib, a.errorString, "ncclGetErrorString"))) {
      r.reason = "libnccl lacks an entry point star needs";
      return r;
    }
    r.api = &a;
    return r;
  }();
  return loaded;
}

void checkNccl(ncclResult_t result, const char* what) {
  if (result != ncclSuccess)
    throw BackendError(std::string("NCCL: ") + what + ": " + nccl().api->errorString(result));
}

}  // namespace

bool ncclAvailable(std::string* why_not) {
  if (nccl().api) return true;
  if (why_not) *why_not = nccl().reason;
  return false;
}

NcclGroup::NcclGroup(int devices) {
  if (!nccl().api) throw BackendError(nccl().reason);
  ::setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0);  // no NVLink multicast unless asked
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(devices));
  std::vector<int> list(comms.size());
  for (int g = 0; g < devices; ++g) list[static_cast<std::size_t>(g)] = g;
  checkNccl(nccl().api->commInitAll(comms.data(), devices, list.data()), "ncclCommInitAll");
  for (ncclComm_t c : comms) comms_.push_back(c);
}

NcclGroup::~NcclGroup() {
  for (void* c : comms_) nccl().api->commDestroy(static_cast<ncclComm_t>(c));
}

namespace {

template <class Index>
ncclComm_t commOf(const std::vector<void*>& comms, Index g) {
  return static_cast<ncclComm_t>(comms[static_cast<std::size_t>(g)]);
}

// call(i) for i < count, as one NCCL group (the operations of one process's GPUs must be issued
// together).
template <class F>
void grouped(std::size_t count, const char* what, F call) {
  const NcclApi& api = *nccl().api;
  checkNccl(api.groupStart(), "ncclGroupStart");
  for (std::size_t i = 0; i < count; ++i) {
    const ncclResult_t r = call(api, i);
    if (r != ncclSuccess) {
      api.groupEnd();
      checkNccl(r, what);
    }
  }
  checkNccl(api.groupEnd(), "ncclGroupEnd");
}

}  // namespace

void NcclGroup::allReduceSum(const std::vector<double*>& buffers, std::size_t count,
                             const std::vector<cudaStream_t>& streams) {
  grouped(comms_.size(), "ncclAllReduce", [&](const NcclApi& api, std::size_t g) {
    return api.allReduce(buffers[g], buffers[g], count, ncclDouble, ncclSum, commOf(comms_, g),
                         streams[g]);
  });
}

void NcclGroup::broadcast(const std::vector<std::uint64_t*>& buffers, std::size_t count, int root,
                          const std::vector<cudaStream_t>& streams) {
  grouped(comms_.size(), "ncclBroadcast", [&](const NcclApi& api, std::size_t g) {
    return api.broadcast(buffers[g], buffers[g], count, ncclUint64, root, commOf(comms_, g),
                         streams[g]);
  });
}

void NcclGroup::exchange(const std::vector<Transfer>& transfers,
                         const std::vector<cudaStream_t>& streams) {
  grouped(2 * transfers.size(), "ncclSend/ncclRecv", [&](const NcclApi& api, std::size_t i) {
    const Transfer& t = transfers[i / 2];
    if (i % 2 == 0)
      return api.send(t.src, t.bytes, ncclUint8, t.to, commOf(comms_, t.from), streams[t.from]);
    return api.recv(t.dst, t.bytes, ncclUint8, t.from, commOf(comms_, t.to), streams[t.to]);
  });
}

}  // namespace star::cuda
