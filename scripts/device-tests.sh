#!/usr/bin/env bash
# Runs on the GPU machine (the `device` tool) from the repository root, with build-gpu/dist
# carried (scripts/device-bundle.sh). Writes logs under $OUT. Steps can be chosen:
#   scripts/device-tests.sh [unit] [lang] [compare] [sanitize] [bench]   (default: all)
set -uo pipefail
D=$PWD/build-gpu/dist
export LD_LIBRARY_PATH=$D/lib:${LD_LIBRARY_PATH:-}
OUT=${OUT:-/tmp/star-device-out}
mkdir -p "$OUT"
steps=${*:-unit lang compare sanitize bench}
want() { [[ " $steps " == *" $1 "* ]]; }
status=0
note() { echo "== $*" | tee -a "$OUT/summary.txt"; }

{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; \
  "$D/bin/star" --version; } | tee "$OUT/device.txt"

if want unit; then
  "$D/bin/cuda_differential_test" > "$OUT/differential.txt" 2>&1; rc=$?
  note "cuda_differential_test rc=$rc: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/differential.txt" | tr '\n' ' ')"
  [ $rc -eq 0 ] || status=1
fi
if want lang; then
  python3 "$D/tools/lit/lit.py" -sv --param star="$D/bin/star" --param backend=cuda \
    --param llvm_bin="$D/tools" tests/lang > "$OUT/lang-cuda.txt" 2>&1; rc=$?
  note "golden tests on cuda rc=$rc: $(grep -E '^  (Passed|Failed|Unsupported)' "$OUT/lang-cuda.txt" | tr '\n' ' ')"
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
if want bench; then
  "$D/bin/primitives_bench" > "$OUT/bench-primitives.md" 2>&1
  "$D/bin/warshall_bench" --backend=cuda 1000 2000 > "$OUT/bench-warshall-cuda.md" 2>&1
  "$D/bin/warshall_bench" --backend=cpu 1000 2000 > "$OUT/bench-warshall-cpu.md" 2>&1
  [ -x "$D/bin/closure_bench" ] && "$D/bin/closure_bench" > "$OUT/bench-closure.md" 2>&1
  python3 bench/peers/closure_torch.py >> "$OUT/bench-closure.md" 2>&1
  note "benchmarks written"
fi
exit $status
