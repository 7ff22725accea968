#!/usr/bin/env bash
# Runs on the GPU machine (the `device` tool) from the repository root, with build-gpu/dist
# carried (scripts/device-bundle.sh; $STAR_DIST names another). Writes logs under $OUT: only a
# few files come back from the device, so summary.txt and device.txt stay as they are and every
# log also goes into logs.tar.gz (the logs stay beside it only when they fit). Steps can be chosen:
#   scripts/device-tests.sh [unit] [oracles] [lang] [interrupt] [compare] [sanitize] [bench] [sssp] [engine]
#                           [enginecheck] [enginebench] [graphs] [loops] [difftest] [compiled] [dijkstra]
#                           [multi] [unpack]
# (default: all but sssp, the shortest-path benchmark, which takes about 6 minutes by itself;
# engine: the device engine's tests (golden suite on both engines, oracle tests on the engine,
# enginecheck: the REPL on the engine, random programs across CPU, host engine and device engine,
# compute-sanitizer on the engine);
# enginebench: WARSHALL_C (warshall_bench) on the CPU backend, the host engine and the device engine;
# graphs: the graph procedures' Star bodies on the three engines (sssp_grid_bench --procs);
# loops: the papers' WARSHALL and WARSHALL_C with and without parallel loops, on every engine;
# difftest: random programs, CPU against the CUDA host and device engines ($STAR_DIFF_COUNT from
# $STAR_DIFF_START, at most $STAR_DIFF_SECONDS; progress lines every 100 programs);
# compiled: the compiled tier on the GPU (its build, the golden suite in both forms, random programs
# against the CPU backend, compute-sanitizer on compiled kernels, DIJKSTRA against the interpreter);
# dijkstra: DIJKSTRA's Star body per step on the CPU, interpreted and compiled (and a hand kernel);
# multi: several GPUs (--devices=N), on a machine with two or more: differential test, golden
# suite, and one GPU against all on CLOSURE, N-body and a Star loop (not in the default steps);
# `unpack` alone only unpacks the bundle, for commands of one's own).
set -uo pipefail
D=${STAR_DIST:-$PWD/build-gpu/dist}
# The bundle travels packed (scripts/device-bundle.sh); unpacked once, beside the archive.
if [ -f "$D/bundle.tar.xz" ] && [ ! -d "$D/bin" ]; then
  tar -xJf "$D/bundle.tar.xz" -C "$D" 2>/dev/null ||
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
      "$D/bundle.tar.xz" "$D" || { echo "cannot unpack $D/bundle.tar.xz"; exit 1; }
fi
[ "$*" = unpack ] && exit 0
export LD_LIBRARY_PATH=$D/lib:${LD_LIBRARY_PATH:-}
export PYTHONPATH=$D/tools/python${PYTHONPATH:+:$PYTHONPATH}  # pexpect, for the pty test
# The unit tests read stdlib/ and examples/ from here, not from the tree they were built in.
export STAR_SOURCE_DIR=$PWD
# star finds its standard library beside itself (../share/star/stdlib, in the bundle); the unit
# tests look it up through STAR_PATH.
export STAR_PATH=$PWD/stdlib
OUT=${OUT:-/tmp/star-device-out}
mkdir -p "$OUT"
steps=${*:-unit oracles lang interrupt compare sanitize bench}
want() { [[ " $steps " == *" $1 "* ]]; }
status=0
note() { echo "== $*" | tee -a "$OUT/summary.txt"; }
# Random programs, the CPU backend against the CUDA host engine and the CUDA device engine, both
# in one `star run-server` (no CUDA start-up per program; one GPU context, since processes on one
# GPU take turns: difftest --slots), from seed $STAR_DIFF_START. $1: --time-limit in seconds; the
# rest: more difftest options.
engines_difftest() {
  local seconds=$1
  shift
  python3 tests/gen/difftest.py --star "$D/bin/star" --seed-start "${STAR_DIFF_START:-1}" \
    --count "${STAR_DIFF_COUNT:-10000}" --jobs "${STAR_DIFF_JOBS:-16}" --slots host,device=1 \
    --time-limit "$seconds" --failures "$OUT/difftest-failures" "$@" \
    --config "cpu={star} run --backend=cpu {prog}" --config "host=@--backend=cuda --engine=host" \
    --config "device=@--backend=cuda --engine=device" > "$OUT/difftest-engines.txt" 2>&1
  local rc=$?
  note "random programs from seed ${STAR_DIFF_START:-1}, cpu / cuda host engine / cuda device engine rc=$rc: $(grep -v ' done, ' "$OUT/difftest-engines.txt" | tail -3 | tr '\n' ' ')"
  [ $rc -eq 0 ] || status=1
}

# compute-sanitizer on `star run --engine=$1` (memcheck in both forms, racecheck in one block);
# $2 names the logs, $3 lists the run's exit statuses that pass, the rest is the program and its
# arguments.
sanitize_engine() {
  local engine=$1 name=$2 ok=$3 tool mode rc
  shift 3
  for tool in memcheck racecheck; do
    for mode in block grid; do
      [ $tool = racecheck ] && [ $mode = grid ] && continue
      STAR_ENGINE_MODE=$mode compute-sanitizer --tool $tool --error-exitcode 9 "$D/bin/star" run --backend=cuda \
        --engine="$engine" "$@" > "$OUT/sanitizer-$engine-$name-$tool-$mode.txt" 2>&1; rc=$?
      note "compute-sanitizer $tool, $engine engine ($mode) on $name rc=$rc (allowed: $ok): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer-$engine-$name-$tool-$mode.txt" | tail -1)"
      [[ " $ok " == *" $rc "* ]] || status=1
    done
  done
}

{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; \
  "$D/bin/star" --version; } | tee "$OUT/device.txt"

if want unit; then
  # The CUDA-only tests: every primitive and native against the CPU backend, the sorts against
  # a host oracle.
  for t in cuda_differential_test cuda_sort_test; do
    "$D/bin/$t" > "$OUT/$t.txt" 2>&1; rc=$?
    note "$t rc=$rc: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/$t.txt" | tr '\n' ' ')"
    [ $rc -eq 0 ] || status=1
  done
fi
if want oracles; then
  # Every unit test that runs Star programs through startest::Vm (the binaries that hold the name
  # STAR_TEST_BACKEND: the oracle tests against BGL and C++ computations, the native agreement
  # test, the interpreter test), its programs on the CUDA backend. Left out: the count of host
  # heap allocations, which on CUDA includes the CUDA runtime's own lazy ones (an H200 run counted
  # 2 for 1000 iterations, 1 for 10000: no growth, but not equal as the test demands).
  for t in "$D"/bin/*_test; do
    name=$(basename "$t")
    case $name in cuda_*) continue ;; esac
    grep -qa STAR_TEST_BACKEND "$t" || continue
    # Parallel loops on, then every loop sequential (--no-parallel-loops): the same expectations.
    for loops in 1 0; do
      log="$OUT/oracle-$name$([ $loops = 0 ] && echo -sequential).txt"
      STAR_TEST_BACKEND=cuda STAR_TEST_PARALLEL_LOOPS=$loops "$t" \
        --gtest_filter=-Interp.SteadyStateColumnLoopDoesNotAllocate > "$log" 2>&1; rc=$?
      note "$name on cuda$([ $loops = 0 ] && echo ', loops sequential') rc=$rc: $(grep -E '^\[  (PASSED|FAILED)' "$log" | tr '\n' ' ')"
      [ $rc -eq 0 ] || status=1
    done
  done
fi
if want lang; then
  python3 "$D/tools/lit/lit.py" -sv --param star="$D/bin/star" --param backend=cuda \
    --param llvm_bin="$D/tools" tests/lang > "$OUT/lang-cuda.txt" 2>&1; rc=$?
  note "golden tests on cuda rc=$rc: $(grep -E '^  (Passed|Failed|Unsupported)' "$OUT/lang-cuda.txt" | tr '\n' ' ')"
  [ $rc -eq 0 ] || status=1
  # Every loop sequential: the same expected outputs.
  python3 "$D/tools/lit/lit.py" -sv --param star="$D/bin/star" --param backend=cuda \
    --param flags=--no-parallel-loops --param llvm_bin="$D/tools" tests/lang > "$OUT/lang-cuda-sequential.txt" 2>&1; rc=$?
  note "golden tests on cuda, --no-parallel-loops rc=$rc: $(grep -E '^  (Passed|Failed|Unsupported)' "$OUT/lang-cuda-sequential.txt" | tr '\n' ' ')"
  [ $rc -eq 0 ] || status=1
fi
# The first Ctrl-C stops a run on the GPU's engines too (tests/interrupt: writing loops, FIFOs,
# long listings), and the REPL on the device engine survives it (the pty test).
if want interrupt; then
  for engine in host device compiled tiered; do
    python3 tests/interrupt/interrupt_test.py "$D/bin/star" cuda $engine > "$OUT/interrupt-$engine.txt" 2>&1; rc=$?
    note "interrupts on the cuda $engine engine rc=$rc: $(grep -c '^ok ' "$OUT/interrupt-$engine.txt") stopped, $(grep -c '^FAIL' "$OUT/interrupt-$engine.txt") failed"
    [ $rc -eq 0 ] || status=1
  done
  python3 tests/repl/pty_test.py "$D/bin/star" cuda device > "$OUT/interrupt-repl.txt" 2>&1; rc=$?
  note "REPL on the cuda device engine (pty, Ctrl-C in loops and FIFOs) rc=$rc"
  [ $rc -eq 0 ] || status=1
fi
if want compare; then
  python3 tests/lang/compare_backends.py "$D/bin/star" tests/lang > "$OUT/compare.txt" 2>&1; rc=$?
  note "$(tail -1 "$OUT/compare.txt") (rc=$rc)"
  [ $rc -eq 0 ] || status=1
fi
if want sanitize; then
  for tool in memcheck racecheck; do
    # The out-of-memory test provokes an allocation failure on purpose: the sanitizer would
    # report that API error, so it is left out here (it runs in the plain pass above).
    STAR_DIFF_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 9 \
      "$D/bin/cuda_differential_test" --gtest_filter="${STAR_SANITIZE_FILTER:--*OutOfMemory*}" \
      > "$OUT/sanitizer-$tool.txt" 2>&1; rc=$?
    note "compute-sanitizer $tool rc=$rc: $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/sanitizer-$tool.txt" | tail -1)"
    [ $rc -eq 0 ] || status=1
  done
  compute-sanitizer --tool memcheck --error-exitcode 9 "$D/bin/star" run --backend=cuda \
    examples/warshall.star examples/graphs/two_cycles8.txt > "$OUT/sanitizer-star.txt" 2>&1; rc=$?
  note "compute-sanitizer memcheck star run warshall rc=$rc: $(grep -E 'ERROR SUMMARY' "$OUT/sanitizer-star.txt" | tail -1)"
  [ $rc -eq 0 ] || status=1
fi
if want engine; then
  # The golden suite on the host engine (the `lang` step runs it on the default, the device engine).
  python3 "$D/tools/lit/lit.py" -sv --param star="$D/bin/star" --param backend=cuda \
    --param flags=--engine=host --param llvm_bin="$D/tools" tests/lang > "$OUT/lang-cuda-host.txt" 2>&1; rc=$?
  note "golden tests on cuda, host engine rc=$rc: $(grep -E '^  (Passed|Failed|Unsupported)' "$OUT/lang-cuda-host.txt" | tr '\n' ' ')"
  [ $rc -eq 0 ] || status=1
  # Forced to grid mode; and with each block's state in global memory instead of shared memory.
  for variant in STAR_ENGINE_MODE=grid STAR_ENGINE_GLOBAL_REGION=1; do
    env "$variant" python3 "$D/tools/lit/lit.py" -sv --param star="$D/bin/star" --param backend=cuda \
      --param flags=--engine=device --param llvm_bin="$D/tools" tests/lang > "$OUT/lang-cuda-${variant%%=*}.txt" 2>&1; rc=$?
    note "golden tests on cuda, device engine with $variant rc=$rc: $(grep -E '^  (Passed|Failed|Unsupported)' "$OUT/lang-cuda-${variant%%=*}.txt" | tr '\n' ' ')"
    [ $rc -eq 0 ] || status=1
  done
  for t in "$D"/bin/*_test; do
    name=$(basename "$t")
    case $name in cuda_*) continue ;; esac
    grep -qa STAR_TEST_ENGINE "$t" || continue
    STAR_TEST_BACKEND=cuda STAR_TEST_ENGINE=device "$t" --gtest_filter=-Interp.SteadyStateColumnLoopDoesNotAllocate \
      > "$OUT/engine-$name.txt" 2>&1; rc=$?
    note "$name on the cuda device engine rc=$rc: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/engine-$name.txt" | tr '\n' ' ')"
    [ $rc -eq 0 ] || status=1
  done
fi
if want enginecheck; then
  python3 tests/repl/pty_test.py "$D/bin/star" cuda device > "$OUT/pty-cuda.txt" 2>&1; rc=$?
  note "REPL pty test on cuda, device engine rc=$rc (77: no pexpect): $(tail -1 "$OUT/pty-cuda.txt")"
  [ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1
  engines_difftest "${STAR_DIFF_SECONDS:-150}" --quiet
  sanitize_engine device warshall 0 examples/warshall.star examples/graphs/two_cycles8.txt
  # The parallel loops the engine runs itself, every form (the program ends in a run-time error).
  sanitize_engine device engine_loops "0 2" tests/lang/parallel/engine_loops.star
fi
if want compiled; then
  # A fresh cache: every program is built here (NVRTC, nvJitLink) and then loaded from the cache.
  export STAR_CACHE_DIR=/tmp/star-device-cache/compiled-step
  "$D/bin/nvrtc_compile_test" > "$OUT/compiled-build.txt" 2>&1; rc=$?
  note "compiled build (NVRTC + nvJitLink) rc=$rc: $(grep -E 'form:|^\[  (PASSED|FAILED)' "$OUT/compiled-build.txt" | tr '\n' ' ')"
  [ $rc -eq 0 ] || status=1
  for mode in block grid; do
    STAR_ENGINE_MODE=$mode python3 "$D/tools/lit/lit.py" -sv --param star="$D/bin/star" --param backend=cuda \
      --param flags=--engine=compiled --param llvm_bin="$D/tools" tests/lang > "$OUT/lang-cuda-compiled-$mode.txt" 2>&1; rc=$?
    note "golden tests on cuda, compiled code ($mode) rc=$rc: $(grep -E '^  (Passed|Failed|Unsupported)' "$OUT/lang-cuda-compiled-$mode.txt" | tr '\n' ' ')"
    [ $rc -eq 0 ] || status=1
  done
  sanitize_engine compiled warshall 0 examples/warshall.star examples/graphs/two_cycles8.txt
  # The graph oracle tests on compiled code (each test's program built once, then from the cache).
  for name in stdlib_graphs_test stdlib_dynpaths_test stdlib_trees_test; do
    STAR_TEST_BACKEND=cuda STAR_TEST_ENGINE=compiled timeout "${STAR_ORACLE_SECONDS:-150}" "$D/bin/$name" \
      > "$OUT/compiled-$name.txt" 2>&1; rc=$?
    note "$name on cuda compiled code rc=$rc: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/compiled-$name.txt" | tr '\n' ' ')"
    [ $rc -eq 0 ] || status=1
  done
  # DIJKSTRA on the 12 x 12 grid example: the whole run, interpreted, compiled cold, compiled warm.
  for engine in device compiled compiled; do
    /usr/bin/time -f "%e s" "$D/bin/star" run --backend=cuda --engine=$engine --no-native --stats \
      examples/dijkstra.star examples/graphs/grid12.gr 9 > "$OUT/dijkstra-$engine.txt" 2>&1
    note "dijkstra, 12 x 12 grid, $engine: $(grep -E 'compiled code|launches' "$OUT/dijkstra-$engine.txt" | tr '\n' ' ') $(tail -1 "$OUT/dijkstra-$engine.txt")"
  done
  python3 tests/gen/difftest.py --star "$D/bin/star" --seed-start "${STAR_DIFF_START:-1}" \
    --count "${STAR_DIFF_COUNT:-2000}" --jobs "${STAR_DIFF_JOBS:-16}" \
    --time-limit "${STAR_DIFF_SECONDS:-90}" --failures "$OUT/difftest-compiled-failures" --quiet \
    --config "cpu={star} run --backend=cpu {prog}" --config "compiled={star} run --backend=cuda --engine=compiled {prog}" \
    > "$OUT/difftest-compiled.txt" 2>&1; rc=$?
  note "random programs, cpu / cuda compiled rc=$rc: $(grep -v ' done, ' "$OUT/difftest-compiled.txt" | tail -3 | tr '\n' ' ')"
  [ $rc -eq 0 ] || status=1
fi
if want difftest; then
  # About 10 programs a second on an H100: 10,000 take two calls of about 8 minutes
  # (STAR_DIFF_START/STAR_DIFF_COUNT; the run ends within --timeout of STAR_DIFF_SECONDS).
  engines_difftest "${STAR_DIFF_SECONDS:-480}" --timeout 40
fi
if want enginebench; then
  # Each run is bounded: a configuration that is far too slow shows as a missing row.
  {
    timeout 90 "$D/bin/warshall_bench" --backend=cuda --engine=device 1000 2000 5000
    timeout 90 "$D/bin/warshall_bench" --backend=cuda --engine=host 1000 2000 5000
    timeout 60 "$D/bin/warshall_bench" --backend=cpu 1000 2000
    timeout 30 "$D/bin/warshall_bench" --backend=cpu --no-parallel-loops 1000 2000
  } > "$OUT/bench-warshall-engines.md" 2>&1
  note "warshall_bench across engines written"
fi
if want graphs; then
  # The five graph procedures' Star bodies on 10^3, 10^4 and 10^5 vertices (and DIJKSTRA and PRIM
  # on 10^6) on the device engine, the CPU backend and the host engine, in one run (about 5
  # minutes: a call of its own); each run stops after its budget (the table then gives its time
  # per step). A wrong answer is exit status 1; a run cut by `timeout`, 124.
  all=--procs=dijkstra,bellmanford,prim,kruskal,floyd
  graphs() {
    timeout "$1" "$D/bin/sssp_grid_bench" "${@:2}" >> "$OUT/bench-graphs-engines.md" 2>&1
    local rc=$?
    [ $rc -eq 0 ] || note "sssp_grid_bench ${*:2} rc=$rc (124: cut by timeout)"
    [ $rc -eq 0 ] || [ $rc -eq 124 ] || status=1
  }
  : > "$OUT/bench-graphs-engines.md"
  graphs 170 --backend=cuda --engine=device --budget=10 --bgl-side=0 $all 32 100 316
  graphs 170 --backend=cuda --engine=compiled --budget=10 --bgl-side=0 $all 32 100 316
  graphs 170 --backend=cpu --budget=10 --bgl-side=0 $all 32 100 316
  graphs 80 --backend=cuda --engine=host --budget=5 --bgl-side=0 $all 32 100
  graphs 50 --backend=cuda --engine=device --budget=10 --bgl-side=0 --procs=dijkstra,prim 1000
  graphs 50 --backend=cuda --engine=compiled --budget=10 --bgl-side=0 --procs=dijkstra,prim 1000
  graphs 50 --backend=cpu --budget=10 --bgl-side=0 --procs=dijkstra,prim 1000
  note "sssp_grid_bench, five procedures across engines: $(grep -cE 'BGL.s|spanning tree' "$OUT/bench-graphs-engines.md") finished runs agree with BGL; $(grep -cE 'DIFFER|EXPECTED|error:' "$OUT/bench-graphs-engines.md") do not"
fi
if want dijkstra; then
  # DIJKSTRA's Star body per step on 10^3 .. 10^6 vertices: the CPU backend, the device engine
  # (interpreted) and compiled code in one run. The first compiled run builds the graphs
  # program into the cache (a few seconds of NVRTC), both forms, so that no timed run includes a build. At 10^6 vertices
  # the first launches (the tables' set-up) weigh on the per-step figure of a short budget.
  # $STAR_HAND_KERNEL may name a hand-written CUDA DIJKSTRA to compile and run beside them.
  sides=${STAR_DIJKSTRA_SIDES:-32 100 316 1000}
  : > "$OUT/bench-dijkstra.md"
  for mode in block grid; do
    STAR_ENGINE_MODE=$mode timeout 60 "$D/bin/sssp_grid_bench" --backend=cuda --engine=compiled \
      --uncounted --budget=1 --bgl-side=0 --procs=dijkstra 32 > /dev/null 2>&1
  done
  # The engines without their counters (--uncounted: the steps of a finished run are n - 1); a
  # run stopped by the budget then has no per-step figure.
  for cfg in "--backend=cuda --engine=compiled --uncounted" "--backend=cuda --engine=device --uncounted" "--backend=cpu"; do
    # shellcheck disable=SC2086
    timeout 150 "$D/bin/sssp_grid_bench" $cfg --budget=8 --bgl-side=0 --procs=dijkstra $sides \
      >> "$OUT/bench-dijkstra.md" 2>&1 || note "sssp_grid_bench $cfg rc=$?"
  done
  note "DIJKSTRA per step: $(grep -cE "BGL.s" "$OUT/bench-dijkstra.md") runs agree with BGL, $(grep -cE 'DIFFER|error:' "$OUT/bench-dijkstra.md") do not"
  grep -qE 'DIFFER|error:' "$OUT/bench-dijkstra.md" && status=1
  if [ -n "${STAR_HAND_KERNEL:-}" ]; then
    nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/dijkstra_hand "$STAR_HAND_KERNEL" > "$OUT/hand.txt" 2>&1 &&
      timeout 150 /tmp/dijkstra_hand --variants=block,grid --sides="${sides// /,}" --total=110 >> "$OUT/hand.txt" 2>&1
    note "hand-written DIJKSTRA rc=$?"
  fi
fi
if want loops; then
  # The papers' two listings (WARSHALL works on rows, WARSHALL_C on columns) with and without
  # parallel loops: the CPU backend and both engines of the CUDA backend. Without parallel loops
  # the GPU runs only n = 500 (every inner iteration is a round trip or a team step).
  {
    for l in 2 1; do
      timeout 60 "$D/bin/warshall_bench" --listing=$l --backend=cpu 1000 2000
      timeout 60 "$D/bin/warshall_bench" --listing=$l --backend=cpu --no-parallel-loops 1000 2000
      timeout 60 "$D/bin/warshall_bench" --listing=$l --backend=cuda --engine=host 1000 2000 5000
      timeout 60 "$D/bin/warshall_bench" --listing=$l --backend=cuda --engine=device 1000 2000 5000
      for e in host device; do
        timeout 20 "$D/bin/warshall_bench" --listing=$l --backend=cuda --engine=$e --no-parallel-loops 500
      done
    done
  } > "$OUT/bench-loops.md" 2>&1
  note "warshall_bench, both listings, parallel loops on and off, written"
fi
if want bench; then
  "$D/bin/primitives_bench" > "$OUT/bench-primitives.md" 2>&1
  "$D/bin/warshall_bench" --backend=cuda 1000 2000 > "$OUT/bench-warshall-cuda.md" 2>&1
  "$D/bin/warshall_bench" --backend=cpu 1000 2000 > "$OUT/bench-warshall-cpu.md" 2>&1
  [ -x "$D/bin/closure_bench" ] && "$D/bin/closure_bench" > "$OUT/bench-closure.md" 2>&1
  python3 bench/peers/closure_torch.py >> "$OUT/bench-closure.md" 2>&1
  "$D/bin/sort_bench" --runs 9 > "$OUT/bench-sort.md" 2>&1
  "$D/bin/segsort_bench" --runs 9 > "$OUT/bench-segsort.md" 2>&1
  [ -x "$D/bin/nbody_bench" ] && "$D/bin/nbody_bench" > "$OUT/bench-nbody.md" 2>&1
  note "benchmarks written"
fi
if want sssp; then
  # Single-source shortest paths on grid graphs: BGL at 10^6 vertices, Star's DIJKSTRA and
  # BELLMANFORD on both backends, each run stopped after 60 s when unfinished (about 6 minutes
  # in all: run this step alone).
  # Exit status 1: a finished run's distances differ from BGL's.
  for b in cuda cpu; do
    bgl=0; [ $b = cuda ] && bgl=1000
    "$D/bin/sssp_grid_bench" --backend=$b --budget=60 --bgl-side=$bgl 32 100 1000 \
      > "$OUT/bench-sssp-$b.md" 2>&1; rc=$?
    note "sssp_grid_bench on $b rc=$rc"
    [ $rc -eq 0 ] || status=1
  done
fi
if want multi; then
  # Several GPUs (--devices=N, runtime-sharded/): the differential test (its sharded_cuda subject
  # splits every value at every word over all GPUs), the golden suite with --devices=all split at
  # every word, and the one-GPU-against-all benchmarks (CLOSURE, N-body, SORT, a Star loop). Skipped with fewer than two GPUs.
  gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
  if [ "$gpus" -ge 2 ]; then
    export NCCL_NVLS_ENABLE=0
    "$D/bin/cuda_differential_test" > "$OUT/multi-differential.txt" 2>&1; rc=$?
    note "differential test ($gpus GPUs) rc=$rc: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/multi-differential.txt" | tr '\n' ' ')"
    [ $rc -eq 0 ] || status=1
    STAR_SHARD_MIN_WORDS=1 python3 "$D/tools/lit/lit.py" -sv -j4 --param star="$D/bin/star" --param backend=cuda \
      --param flags=--devices=all --param llvm_bin="$D/tools" --param exec_root=/tmp/lit-multi tests/lang \
      > "$OUT/multi-lang.txt" 2>&1; rc=$?
    note "golden tests, --devices=all split at every word rc=$rc: $(grep -E '^  (Passed|Failed|Unsupported)' "$OUT/multi-lang.txt" | tr '\n' ' ')"
    [ $rc -eq 0 ] || status=1
    "$D/bin/closure_bench" --multi > "$OUT/multi-closure.md" 2>&1 || status=1
    "$D/bin/nbody_bench" --multi > "$OUT/multi-nbody.md" 2>&1 || status=1
    "$D/bin/sort_bench" --multi --runs 3 > "$OUT/multi-sort.md" 2>&1 || status=1
    for rows in 100000000 1000000000; do
      # The CPU backend beside them at 10^8 rows (at 10^9 it would take minutes).
      python3 bench/sharded_bench.py "$D/bin/star" --rows=$rows --iters=200 --devices=1,$gpus \
        $([ $rows = 100000000 ] && echo --cpu) >> "$OUT/multi-loop.md" 2>&1 || status=1
    done
    note "several-GPU benchmarks written (multi-closure.md, multi-nbody.md, multi-sort.md, multi-loop.md)"
  else
    note "multi: skipped, $gpus GPU(s)"
  fi
fi
# At most 8 files come back: summary.txt, device.txt, logs.tar.gz and, when they fit, the logs.
# (STAR_KEEP_LOGS=1 leaves them as they are, for a caller that runs steps one by one and packs.)
logs=$(cd "$OUT" && ls | grep -vxE 'summary.txt|device.txt|logs.tar.gz')
if [ -n "$logs" ] && [ -z "${STAR_KEEP_LOGS:-}" ]; then
  (cd "$OUT" && tar czf logs.tar.gz $logs)
  [ "$(echo "$logs" | wc -l)" -le 5 ] || (cd "$OUT" && rm -f $logs)
fi
exit $status
