#!/usr/bin/env bash
# Configures and builds pcmap against Debian's LLVM <version> in build-<version>,
# or, with a sanitizer configuration, in build-<version>-<config>:
#   asan   PCMAP_SANITIZE=address,undefined
#   tsan   PCMAP_SANITIZE=thread
# (the runtime, its unit tests and the programs the drivers link with it are
# sanitized; pcmap-report and the benchmarks are not built).
# Usage: scripts/build.sh [19|22] [asan|tsan]
set -euo pipefail
v=${1:-19}
config=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/build-$v"
extra=()
case "$config" in
"") ;;
asan) extra=(-DPCMAP_SANITIZE=address,undefined) ;;
tsan) extra=(-DPCMAP_SANITIZE=thread) ;;
*) echo "build.sh: unknown configuration '$config' (asan or tsan)" >&2; exit 2 ;;
esac
if [ -n "$config" ]; then
  dir="$dir-$config"
  extra+=(-DPCMAP_BUILD_TOOLS=OFF -DPCMAP_BUILD_BENCHMARKS=OFF)
fi
# The fuzzers (fuzz/) are built and run in the plain LLVM 19 build only, to
# keep the test run within its time budget.
if [ "$v" != 19 ] || [ -n "$config" ]; then
  extra+=(-DPCMAP_BUILD_FUZZERS=OFF)
fi
cmake -S "$root" -B "$dir" -G Ninja \
  -DLLVM_DIR="/usr/lib/llvm-$v/lib/cmake/llvm" \
  -DCMAKE_C_COMPILER="clang-$v" -DCMAKE_CXX_COMPILER="clang++-$v" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo "${extra[@]}" >/dev/null
ninja -C "$dir"
