#!/usr/bin/env bash
# Installs the Debian packages Star needs to build and test (idempotent: installs only what is
# missing). Needs root or sudo. CUDA is optional: the CUDA backend is built when nvcc is found.
set -euo pipefail

packages=(
  cmake g++ make python3
  antlr4 libantlr4-runtime-dev default-jre-headless   # parser generator (tool 4.7.2) + runtime 4.9
  googletest libgtest-dev                            # unit tests
  llvm-14-tools clang-14                              # lit + FileCheck; clang for libFuzzer/ASan
  libboost-graph-dev                                  # independent oracle in tests
  libedit-dev                                         # REPL line editing
  nlohmann-json3-dev                                  # JSON of the language server (star lsp)
  python3-pexpect                                     # REPL pseudo-terminal test
  libpng-dev                                          # SAVEPNG (libpng); the .deb depends on libpng16-16
  python3-matplotlib                                  # bench/plot.py: the charts of bench/RESULTS.md
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
