// How `star run` ends after it used the GPU. The CUDA driver destroys its context when the
// process exits (atexit handlers, static destructors): on an H100 that is about a tenth of a
// second of a run that touches one slice, after everything the user sees is done. Once every
// output is flushed, star may skip it (std::_Exit): the operating system frees what the context
// held, as it does for a process that is killed.
#pragma once

namespace star {

// Whether a run may end without the driver's teardown: only when it started the GPU, not under a
// CUDA tool that injects itself into the process (compute-sanitizer, Nsight Compute and Systems
// set CUDA_INJECTION64_PATH, and report when the context is destroyed), and not when
// STAR_FULL_EXIT is set (for anything else that needs the exit handlers to run).
bool mayEndWithoutTeardown(bool gpuStarted, const char* injectionPath, const char* fullExit);

// The command asks for that ending (main does it after its last flush) ...
void endWithoutTeardown();
// ... and main asks whether it was asked for.
bool endingWithoutTeardown();

}  // namespace star
