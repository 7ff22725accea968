#!/usr/bin/env bash
# Assembles build-gpu/dist: the GPU build's binaries plus the shared libraries and test tools a
# bare GPU machine lacks (the ANTLR runtime, lit, FileCheck), to carry to the device machine.
#   usage: scripts/device-bundle.sh   (after: cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release
#                                       && cmake --build build-gpu)
set -euo pipefail
cd "$(dirname "$0")/.."
dist=build-gpu/dist
rm -rf "$dist" && mkdir -p "$dist/bin" "$dist/lib" "$dist/tools"
for b in star cuda_differential_test primitives_bench warshall_bench closure_bench; do
  f=$(find build-gpu -path build-gpu/dist -prune -o -type f -name "$b" -perm -u+x -print | head -1)
  [ -n "$f" ] && cp "$f" "$dist/bin/" && strip "$dist/bin/$b"
done
cp -L /usr/lib/x86_64-linux-gnu/libantlr4-runtime.so.4.9 "$dist/lib/"
cp -L /usr/lib/llvm-14/bin/FileCheck /usr/lib/llvm-14/bin/not /usr/lib/llvm-14/bin/count "$dist/tools/"
cp -L /lib/x86_64-linux-gnu/libz3.so.4 "$dist/lib/"
# Shared libraries of star that a bare GPU machine may lack (CUDA runtime, libedit for the REPL).
for lib in libcudart libedit libbsd libmd; do
  path=$(ldd "$dist/bin/star" | awk -v l="$lib" '$1 ~ "^"l {print $3}')
  [ -n "$path" ] && cp -L "$path" "$dist/lib/"
done
cp -r /usr/lib/llvm-14/build/utils/lit "$dist/tools/lit"
find "$dist/tools/lit" -name __pycache__ -prune -exec rm -rf {} +
du -sh "$dist"
