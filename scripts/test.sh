#!/usr/bin/env bash
# Builds and runs the whole test suite:
#   1. the normal build (with the CUDA backend compiled when nvcc is present): unit tests,
#      golden language tests, GPU tests (skipped without a GPU);
#   2. an ASan + UBSan build (clang-14) of the unit and golden tests (without the runs too long
#      under the sanitizers, label `long`: the emulated device engine's oracle runs and the language
#      server's robustness run; pass 1 runs them);
#   3. the five libFuzzer targets (front end, module loader + verifier + interpreter, data-file
#      readers, run-server requests, language server messages), 60 s each on their seed corpora.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)
fuzz_seconds=${STAR_FUZZ_SECONDS:-60}
logs=build/test-logs
mkdir -p "$logs"

echo "=== 1/3 normal build"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs"
(cd build && ctest -j"$jobs" --output-on-failure) | tee "$logs/ctest-normal.txt"

echo "=== 2/3 ASan + UBSan build (clang-14)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang-14 \
  -DCMAKE_CXX_COMPILER=clang++-14 -DSTAR_SANITIZE=ON -DSTAR_FUZZ=ON -DSTAR_ENABLE_CUDA=OFF \
  -DSTAR_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest -j"$jobs" --output-on-failure -LE "fuzz|perf|long") | tee "$logs/ctest-asan.txt"

echo "=== 3/3 fuzzing for ${fuzz_seconds}s per target (front end, module loader + VM, data readers, run-server requests, LSP messages)"
for target in frontend:corpus module:corpus-module data:corpus-data runserver:corpus-runserver lsp:corpus-lsp; do
  name=${target%%:*}
  seeds=${target#*:}
  mkdir -p "build-asan/fuzz-$name"
  # A crash, a leak or a timeout makes the fuzzer exit non-zero, and this script with it.
  ./build-asan/bin/star_${name}_fuzzer -max_total_time="$fuzz_seconds" -max_len=65536 \
    -timeout=10 -rss_limit_mb=2048 "build-asan/fuzz-$name" "tests/fuzz/$seeds" 2>&1 | tail -3
  echo "fuzz $name: no crashes in ${fuzz_seconds}s"
done

# One closing line over both ctest runs.
total_pass=0; total_fail=0
for f in "$logs/ctest-normal.txt" "$logs/ctest-asan.txt"; do
  line=$(grep -E "tests passed, [0-9]+ tests failed out of [0-9]+" "$f" | tail -1)
  failed=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$line")
  total=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/' <<<"$line")
  total_pass=$((total_pass + total - failed)); total_fail=$((total_fail + failed))
done
echo "star: ${total_pass} passed, ${total_fail} failed"
[ "$total_fail" -eq 0 ]
