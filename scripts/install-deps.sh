#!/usr/bin/env bash
# Installs what pcmap needs to build and test on Debian 12, if missing.
# Usage: scripts/install-deps.sh [--demo] [19] [22]   (default: 19 and 22)
# --demo: only what scripts/demo.sh needs: clang/LLVM, the build tools and
# Python (the demo builds no test and runs only pcmap's own programs).
set -euo pipefail

demo=
if [ "${1:-}" = --demo ]; then
  demo=1
  shift
fi
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(19 22)

pkgs=(cmake ninja-build python3 binutils)
for v in "${versions[@]}"; do
  pkgs+=("clang-$v" "llvm-$v-dev" "llvm-$v-tools" "lld-$v" "libclang-rt-$v-dev")
done
# Everything below is for the test suites and the benchmarks.
if [ -z "$demo" ]; then
  pkgs+=(libgtest-dev libbenchmark-dev chromium)
  # test/corpus builds Debian source packages with their own build systems
  # (dav1d with meson, its assembly with nasm; its test video is encoded and
  # decoded for reference by aom-tools' aomenc and aomdec);
  # test/install builds pcmap's own package (cpack, dpkg-shlibdeps of dpkg-dev).
  pkgs+=(autoconf automake libtool make dpkg-dev pkg-config xz-utils bzip2)
  pkgs+=(meson nasm aom-tools)
  # test/install/lintian.test checks that package with lintian.
  pkgs+=(lintian)
  # test/Driver runs the drivers under ccache, as builds launch them.
  pkgs+=(ccache)
  # test/Driver/link.c links with every linker Debian has (bfd, gold, lld, mold).
  pkgs+=(mold)
  # test/report checks pcmap-report's pprof output with the real `go tool pprof`.
  pkgs+=(golang-go)
  # test/rt/tracer-gperftools.c: gperftools' CPU profiler beside the tracer.
  pkgs+=(libgoogle-perftools-dev google-perftools)
  # test/Driver/meson.test: Meson configures with the drivers.
  pkgs+=(meson)
  # test/rt/gc-roots.c: Boehm GC, which scans a program's static data.
  pkgs+=(libgc-dev)
  # test/rt/startup-files.c: the files a process reads at start-up.
  pkgs+=(strace)
  # The AArch64 runtime: cross-built with clang, tested under qemu-user
  # (Debian has no compiler-rt builtins for aarch64: the cross libgcc serves).
  pkgs+=(libc6-dev-arm64-cross libgcc-12-dev-arm64-cross
    libstdc++-12-dev-arm64-cross binutils-aarch64-linux-gnu qemu-user)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: everything is installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
