// NCCL, loaded at run time (DynamicLibrary.h) so that star starts where it is missing: one
// communicator per GPU of this process (ncclCommInitAll) and the collectives the multi-GPU natives
// use. NVLink multicast stays off (NCCL_NVLS_ENABLE=0 unless the environment sets it).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace star::cuda {

// Whether NCCL can be loaded; when not, *why_not says why.
bool ncclAvailable(std::string* why_not = nullptr);

class NcclGroup {
 public:
  // Communicators for devices 0..devices-1; throws BackendError when NCCL is missing or fails.
  explicit NcclGroup(int devices);
  ~NcclGroup();
  NcclGroup(const NcclGroup&) = delete;
  NcclGroup& operator=(const NcclGroup&) = delete;

  int size() const { return static_cast<int>(comms_.size()); }
  // buffers[g] (count doubles on device g) := the sum over every device's buffer, queued on
  // streams[g]: one grouped all-reduce.
  void allReduceSum(const std::vector<double*>& buffers, std::size_t count,
                    const std::vector<cudaStream_t>& streams);
  // buffers[g] (count 64-bit words on device g) := buffers[root], queued on streams[g].
  void broadcast(const std::vector<std::uint64_t*>& buffers, std::size_t count, int root,
                 const std::vector<cudaStream_t>& streams);
  // Point-to-point copies between GPUs, as one group: `bytes` at src on device `from` go to dst
  // on device `to` (from != to), queued on streams[from] and streams[to].
  struct Transfer {
    int from, to;
    const void* src;
    void* dst;
    std::size_t bytes;
  };
  void exchange(const std::vector<Transfer>& transfers, const std::vector<cudaStream_t>& streams);

 private:
  std::vector<void*> comms_;  // ncclComm_t
};

}  // namespace star::cuda
