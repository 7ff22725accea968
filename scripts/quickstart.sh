#!/usr/bin/env bash
# Builds star and runs a real example: the transitive closure of a small road-like digraph by
# both Warshall listings of the STAR-machine papers.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target star
echo "--- star run examples/warshall.star examples/graphs/two_cycles8.txt"
./build/bin/star run examples/warshall.star examples/graphs/two_cycles8.txt
