#!/usr/bin/env python3
"""Runs the golden suite with --backend=cuda when a GPU is usable; otherwise exits 77, which
ctest reports as skipped (SKIP_RETURN_CODE).
usage: run_on_gpu.py STAR LIT LLVM_BIN TESTS_DIR [FLAGS]   (FLAGS: extra options for every run;
--devices=N skips, 77, on a machine with fewer GPUs)"""
import subprocess
import sys

star, lit, llvm_bin, tests = sys.argv[1:5]
flags = " ".join(sys.argv[5:])
version = subprocess.run([star, "--version"], capture_output=True, text=True).stdout
if "cuda (unavailable" in version or "cuda (" not in version:
    print(f"no usable GPU ({version.strip()}); skipping the GPU golden run")
    sys.exit(77)
# --devices=N: skipped (77) unless the machine has N GPUs.
for flag in sys.argv[5:]:
    if flag.startswith("--devices="):
        probe = subprocess.run([star, "run", "--backend=cuda", flag, "-"], input="program p; begin end.",
                               capture_output=True, text=True)
        if probe.returncode != 0:
            print(f"{flag}: {probe.stderr.strip()}; skipping the GPU golden run")
            sys.exit(77)
command = [sys.executable, lit, "-sv", f"--param=star={star}", "--param=backend=cuda",
           f"--param=llvm_bin={llvm_bin}"]
# With several GPUs a run's natives use NCCL, whose collectives from many processes at once on the
# same GPUs wait for each other: fewer at a time.
if any(flag.startswith("--devices=") for flag in sys.argv[5:]):
    command.append("-j4")
if flags:
    command.append(f"--param=flags={flags}")
sys.exit(subprocess.run(command + [tests]).returncode)
