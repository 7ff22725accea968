#!/usr/bin/env bash
# Assembles BUILD/dist (BUILD = build-gpu unless given): the GPU build's binaries (star, the
# benchmarks, every unit test binary tests/unit/*_test) plus the shared libraries and test tools a
# bare GPU machine lacks (the ANTLR runtime, lit, FileCheck, pexpect), to carry to the device machine,
# packed into BUILD/dist/bundle.tar.xz: every binary that links the CUDA backend holds its kernels
# (several MB), and packed with a dictionary larger than a binary they travel about once, well
# inside the device tool's 64 MiB. scripts/device-tests.sh unpacks it there (into bin/, lib/,
# tools/ beside it; `scripts/device-tests.sh unpack` does only that).
#   usage: scripts/device-bundle.sh [BUILD]   (after: cmake -S . -B build-gpu
#                                    -DCMAKE_BUILD_TYPE=Release && cmake --build build-gpu)
# scripts/device-tests.sh reads build-gpu/dist, or $STAR_DIST.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
dist=$build/dist
rm -rf "$dist" && mkdir -p "$dist/bin" "$dist/lib" "$dist/tools"
for b in star primitives_bench warshall_bench closure_bench sssp_grid_bench sort_bench \
         segsort_bench nbody_bench cuda_startup_bench dynamic_bench; do
  f=$(find "$build" -path "$dist" -prune -o -type f -name "$b" -perm -u+x -print | head -1)
  if [ -n "$f" ]; then cp "$f" "$dist/bin/" && strip "$dist/bin/$b"; fi
done
# Unit tests: cuda_differential_test, and the oracle tests that device-tests.sh runs on the GPU.
for f in "$build"/tests/unit/*_test; do
  if [ -f "$f" ] && [ -x "$f" ]; then cp "$f" "$dist/bin/" && strip "$dist/bin/$(basename "$f")"; fi
done
cp -L /usr/lib/x86_64-linux-gnu/libantlr4-runtime.so.4.9 "$dist/lib/"
cp -L /usr/lib/llvm-14/bin/FileCheck /usr/lib/llvm-14/bin/not /usr/lib/llvm-14/bin/count "$dist/tools/"
cp -L /lib/x86_64-linux-gnu/libz3.so.4 "$dist/lib/"
# Shared libraries of star that a bare GPU machine may lack (CUDA runtime, libedit for the REPL,
# libpng for SAVEPNG).
for lib in libcudart libedit libbsd libmd libpng16; do
  path=$(ldd "$dist/bin/star" | awk -v l="$lib" '$1 ~ "^"l {print $3}')
  [ -n "$path" ] && cp -L "$path" "$dist/lib/"
done
# The standard library where an installed star looks for it: beside bin/, in share/star/stdlib.
mkdir -p "$dist/share/star" && cp -r stdlib "$dist/share/star/stdlib"
cp -r /usr/lib/llvm-14/build/utils/lit "$dist/tools/lit"
# pexpect (and ptyprocess, which it needs) for the REPL's pty test: pure Python, copied from this
# machine's Debian packages; scripts/device-tests.sh puts tools/python on PYTHONPATH.
mkdir -p "$dist/tools/python"
for module in pexpect ptyprocess; do
  dir=$(python3 -c "import os, $module; print(os.path.dirname($module.__file__))" 2>/dev/null) &&
    cp -r "$dir" "$dist/tools/python/"
done
find "$dist/tools/lit" -name __pycache__ -prune -exec rm -rf {} +
du -sh "$dist"
(cd "$dist" && tar -cf - bin lib tools share | xz -9 -T1 > bundle.tar.xz && rm -rf bin lib tools share)
du -sh "$dist"
