// Ending a process without waiting for the CUDA driver's release of its context. Whatever way a
// process ends (return from main, std::_Exit, a signal), the kernel frees the context when the
// process's last references to the driver's device files and to its address space (where the
// driver mapped GPU and pinned memory) go, and the process is not gone — its parent's wait does
// not return — until then. A helper made just before the end that shares both (clone with
// CLONE_VM and CLONE_FILES) holds those references, so the release happens when the helper ends:
// it asks the kernel to kill it when its creator dies (PR_SET_PDEATHSIG), so it ends right after
// the process. Its standard streams are closed first (the file table is shared), so a caller that
// reads the process's output to its end does not wait for the release either.
// Header-only: the probe in bench/ measures the same code star runs.
#pragma once

#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace star {

namespace detail {
// The helper runs on a stack of its own in the shared address space, and calls nothing that
// touches the heap or a lock the dying process may hold: system calls only.
inline int holdUntilCreatorDies(void* creator) {
  // Without the death signal it would outlive star and keep the context: end at once instead.
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) _exit(0);
  if (getppid() != static_cast<pid_t>(reinterpret_cast<long>(creator))) _exit(0);
  for (;;) pause();
}
alignas(64) inline unsigned char helperStack[16384];
}  // namespace detail

[[noreturn]] inline void exitLeavingReleaseToHelper(int status) {
  std::fflush(nullptr);
  for (int fd = 0; fd < 3; ++fd) close(fd);
  void* self = reinterpret_cast<void*>(static_cast<long>(getpid()));
  clone(detail::holdUntilCreatorDies, detail::helperStack + sizeof detail::helperStack,
        CLONE_VM | CLONE_FILES, self);
  std::_Exit(status);
}

}  // namespace star
