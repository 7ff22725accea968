// How `star run` ends after it used the GPU. The CUDA driver's context goes when the process
// does — its exit handlers, then the kernel's release of the driver's files and mappings — about a
// tenth of a second on an H100 or H200, after everything the user sees is done. Once every output
// is flushed, star skips the exit handlers and leaves the kernel's release to a helper that ends
// right after it (core/DetachedExit.h), so that the caller's wait for star does not include it.
#pragma once

namespace star {

// Whether a run may end without the driver's teardown: only when it started the GPU, not under a
// CUDA tool that injects itself into the process (compute-sanitizer, Nsight Compute and Systems
// set CUDA_INJECTION64_PATH, and report when the context is destroyed), and not when
// STAR_FULL_EXIT is set (for anything else that needs the exit handlers to run).
bool mayEndWithoutTeardown(bool gpuStarted, const char* injectionPath, const char* fullExit);

// The command asks for that ending (main does it after its last flush), leaving the kernel's
// release to a helper (core/DetachedExit.h) only where the GPUs let another process hold a
// context meanwhile: on a GPU in exclusive-process mode, a star started right after this one
// would find the device still taken by the helper and fail ...
void endWithoutTeardown(bool releaseInHelper);
// ... and main asks which ending was asked for.
enum class Ending { Normal, SkipHandlers, ReleaseInHelper };
Ending requestedEnding();

}  // namespace star
