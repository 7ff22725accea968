# lit configuration for the Star golden tests (tests/lang). Each .star file carries RUN lines:
#   // RUN: %run %s | FileCheck %s            run on the selected backend, check stdout
#   // RUN: not %check %s 2>&1 | FileCheck %s  a program that must be rejected
# Substitutions: %star (the driver), %run (star run --backend=B), %check, %dis, %repl,
# %inputs (tests/lang/Inputs).
import os
import re
import sys
import lit.formats

config.name = "star-lang"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".star", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "CMakeLists.txt", "run_on_gpu.py", "compare_backends.py"]
config.test_source_root = os.path.dirname(__file__)

star = lit_config.params.get("star")
backend = lit_config.params.get("backend", "cpu")
# Extra options for every run (the suite also runs with --no-parallel-loops: same outputs).
flags = lit_config.params.get("flags", "")
llvm_bin = lit_config.params.get("llvm_bin", "/usr/lib/llvm-14/bin")
if not star:
    lit_config.fatal("pass --param star=/path/to/star")
suffix = "".join(c if c.isalnum() else "-" for c in flags.strip())
config.test_exec_root = lit_config.params.get(
    "exec_root", os.path.join(os.path.dirname(star), "lit-" + backend + ("-" + suffix if suffix else "")))

# lit passes only its own list of variables to the tests: the engine's are forwarded here. The
# emulation on host threads (runtime-cpu/ThreadEngine.h) reads its team shape; the CUDA engine can
# be forced into one block or the grid, and its state into global memory.
for var in ("STAR_ENGINE_TEAM", "STAR_ENGINE_MODE", "STAR_ENGINE_GLOBAL_REGION", "STAR_CACHE_DIR", "STAR_CXX", "HOME",
            "STAR_SHARD_MIN_WORDS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# Compiled code (--engine=compiled) is cached in the build tree unless the caller names a cache.
if "STAR_CACHE_DIR" not in os.environ:
    config.environment["STAR_CACHE_DIR"] = os.path.join(config.test_exec_root, "compiled-cache")
if "STAR_ENGINE_MODE" in os.environ:
    config.available_features.add("engine-mode-forced")
config.environment["PATH"] = os.pathsep.join([llvm_bin, config.environment.get("PATH", "")])
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%run", f"{star} run --backend={backend} {flags}"))
config.substitutions.append(("%check", f"{star} check"))
config.substitutions.append(("%dis", f"{star} dis"))
config.substitutions.append(("%repl", f"{star} repl --backend={backend} {flags}"))
config.substitutions.append(("%star", star))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%tools", os.path.join(config.test_source_root, "..", "tools")))
config.available_features.add("backend-" + backend)
# Rows split across devices (--devices=N, N > 1): the host engine runs every procedure, so the
# tests that count what the device engine ran do not apply (docs/ARCHITECTURE.md §6).
if re.search(r"--devices=(?!1(\s|$))", flags):
    config.available_features.add("sharded")
