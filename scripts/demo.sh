#!/usr/bin/env bash
# Installs what is missing, builds pcmap (LLVM 19), and shows it on a real
# concurrent program, examples/refcache.cpp (a reference-counted cache on
# four threads), run three ways: with the atomic tracer, with the function
# report, and with its planted bug, a fault inside an atomic. Then the
# metadata the compiler recorded for examples/demo.c, decoded.
#
# Usage: scripts/demo.sh [--build DIR] [--out DIR]
#   --build DIR  use that build of pcmap: nothing is installed or built
#                (test/docs runs the demo this way)
#   --out DIR    where the demo's programs go (default: BUILD/demo)
# Without --build it installs only clang/LLVM 19, the build tools and Python
# (scripts/install-deps.sh --demo) and builds what pcmap installs, without
# its tests (scripts/build.sh 19 demo, in build-19-demo).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
b= out=
while [ $# -gt 0 ]; do
  case "$1" in
  --build) b=$(cd "$2" && pwd); shift 2 ;;
  --out) out=$2; shift 2 ;;
  *) echo "demo.sh: unknown argument '$1' (--build DIR, --out DIR)" >&2; exit 2 ;;
  esac
done
if [ -z "$b" ]; then
  "$root/scripts/install-deps.sh" --demo 19
  "$root/scripts/build.sh" 19 demo >/dev/null
  b="$root/build-19-demo"
fi
out=${out:-$b/demo}
mkdir -p "$out"
llvm_bin=$(dirname "$(sed -n 's/^PCMAP_CLANG:FILEPATH=//p' "$b/CMakeCache.txt")")
llvm_bin=${llvm_bin:-/usr/lib/llvm-19/bin}

# Frame pointers, as for any profiler: the tracer's call stacks follow them.
echo "== compile: pcmap-clang++ -O2 -g -fno-omit-frame-pointer -pthread -fsanitize-metadata=all examples/refcache.cpp"
"$b/bin/pcmap-clang++" -O2 -g -fno-omit-frame-pointer -pthread \
  -fsanitize-metadata=all "$root/examples/refcache.cpp" -o "$out/refcache"

echo
echo "== 1. where the atomics take the time: PCMAP_OPTIONS=trace_atomics=1 refcache"
PCMAP_OPTIONS=trace_atomics=1 "$out/refcache"

echo
echo "== 2. how big the functions are: PCMAP_OPTIONS=report_functions=1 refcache"
PCMAP_OPTIONS=report_functions=1 "$out/refcache"

echo
echo "== 3. the planted bug, a fault inside an atomic: refcache --bug"
status=0
"$out/refcache" --bug || status=$?
if [ "$status" -eq $((128 + 11)) ]; then
  echo "== refcache --bug: exit status $status (128 + 11: killed by SIGSEGV, as without pcmap)"
else
  echo "== refcache --bug: exit status $status, not 139 (killed by SIGSEGV): a bug in pcmap" >&2
  exit 1
fi

echo
echo "== 4. the metadata of examples/demo.c (pcmap-clang -O2 -fsanitize-metadata=all)"
"$b/bin/pcmap-clang" -O2 -g -pthread -fsanitize-metadata=all \
  "$root/examples/demo.c" -o "$out/demo"
"$out/demo"
"$llvm_bin/llvm-readelf" -S -W "$out/demo" | grep -E 'Name|pcmap_'
echo "== decoded (an independent decoder, test/support/pcmap_elf.py)"
python3 "$root/test/support/pcmap_elf.py" dump "$out/demo"

echo "== the same program with upstream clang -fexperimental-sanitize-metadata=atomics,covered"
"$llvm_bin/clang" -O2 -g -pthread \
  -fexperimental-sanitize-metadata=atomics,covered \
  "$root/examples/demo.c" -o "$out/demo-upstream"
python3 "$root/test/support/pcmap_elf.py" dump "$out/demo-upstream" | grep "^sanmd-summary"
