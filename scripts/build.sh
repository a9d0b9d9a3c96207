#!/usr/bin/env bash
# Configures and builds pcmap against Debian's LLVM <version> in build-<version>,
# or, with another configuration, in build-<version>-<config>:
#   asan   PCMAP_SANITIZE=address,undefined
#   tsan   PCMAP_SANITIZE=thread
#          (the runtime, its unit tests and the programs the drivers link with
#          it are sanitized; pcmap-report and the benchmarks are not built)
#   gcc    everything built by the system's compiler, GCC (as the README's
#          "Using the drivers" commands do without -DCMAKE_CXX_COMPILER); the
#          programs the drivers compile still go through that LLVM's clang
#   demo   what is installed and nothing else: no tests, benchmarks, fuzzers
#          or cross-built runtime (scripts/demo.sh; needs only what
#          scripts/install-deps.sh --demo installs)
# and, in build-<version> itself:
#   aarch64  the runtime cross-built for aarch64-linux-gnu (which the plain
#            build already builds when the cross libraries are there) and its
#            unit tests (cmake/PCMapCrossRuntime.cmake; needs Debian's cross
#            libraries, scripts/install-deps.sh), after the native build
# Usage: scripts/build.sh [19|22] [asan|tsan|gcc|demo|aarch64]
set -euo pipefail
v=${1:-19}
config=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/build-$v"
cc="clang-$v" cxx="clang++-$v"
extra=()
case "$config" in
"") ;;
asan) extra=(-DPCMAP_SANITIZE=address,undefined) ;;
tsan) extra=(-DPCMAP_SANITIZE=thread) ;;
gcc) cc=gcc cxx=g++ ;;
demo) extra=(-DBUILD_TESTING=OFF -DPCMAP_CROSS_TARGETS=none) ;;
aarch64) ;;
*) echo "build.sh: unknown configuration '$config' (asan, tsan, gcc, demo or aarch64)" >&2; exit 2 ;;
esac
cross_target=
if [ "$config" = aarch64 ]; then
  cross_target=pcmap-rt-aarch64-linux-gnu-unittests
  config=
fi
if [ -n "$config" ]; then
  dir="$dir-$config"
  extra+=(-DPCMAP_BUILD_BENCHMARKS=OFF)
  case "$config" in gcc | demo) ;; *) extra+=(-DPCMAP_BUILD_TOOLS=OFF) ;; esac
fi
# The fuzzers (fuzz/) are built and run in the plain LLVM 19 build only, to
# keep the test run within its time budget.
if [ "$v" != 19 ] || [ -n "$config" ]; then
  extra+=(-DPCMAP_BUILD_FUZZERS=OFF)
fi
# ccache, where it is installed (scripts/install-deps.sh installs it for the
# tests): each configuration builds the same sources again, and a fresh clone
# rebuilds everything. base_dir and no hash of the build directory let any
# clone of any path share the cache (the objects' DW_AT_comp_dir is then the
# first builder's). PCMAP_CCACHE=0 builds without it.
if [ "${PCMAP_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
  extra+=("-DCMAKE_C_COMPILER_LAUNCHER=env;CCACHE_BASEDIR=$root;CCACHE_NOHASHDIR=1;ccache"
    "-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_BASEDIR=$root;CCACHE_NOHASHDIR=1;ccache")
else
  extra+=(-DCMAKE_C_COMPILER_LAUNCHER= -DCMAKE_CXX_COMPILER_LAUNCHER=)
fi
cmake -S "$root" -B "$dir" -G Ninja \
  -DLLVM_DIR="/usr/lib/llvm-$v/lib/cmake/llvm" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo "${extra[@]}" >/dev/null
ninja -C "$dir"
if [ -n "$cross_target" ]; then
  # Not grep -q: it would stop reading at the first match, and ninja, still
  # writing, would die of SIGPIPE, which pipefail reports as a failure.
  if ! ninja -C "$dir" -t targets all | grep "^$cross_target:" >/dev/null; then
    echo "build.sh: no $cross_target in $dir: clang-$v cannot link for" \
      "aarch64 (scripts/install-deps.sh installs the cross libraries)," \
      "-DPCMAP_CROSS_TARGETS=none or no GoogleTest sources" >&2
    exit 1
  fi
  ninja -C "$dir" "$cross_target"
fi
