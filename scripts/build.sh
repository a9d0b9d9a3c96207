#!/usr/bin/env bash
# Configures and builds pcmap against Debian's LLVM <version> in build-<version>.
# Usage: scripts/build.sh [19|22]
set -euo pipefail
v=${1:-19}
root=$(cd "$(dirname "$0")/.." && pwd)
# The fuzzers (fuzz/) are built and run against LLVM 19 only, to keep the
# test run within its time budget; elsewhere CMake's default applies.
fuzz=()
[ "$v" = 19 ] || fuzz=(-DPCMAP_BUILD_FUZZERS=OFF)
cmake -S "$root" -B "$root/build-$v" -G Ninja "${fuzz[@]}" \
  -DLLVM_DIR="/usr/lib/llvm-$v/lib/cmake/llvm" \
  -DCMAKE_C_COMPILER="clang-$v" -DCMAKE_CXX_COMPILER="clang++-$v" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C "$root/build-$v"
