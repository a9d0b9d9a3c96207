#!/usr/bin/env bash
# Installs what is missing, builds pcmap (LLVM 19), and shows it on a real
# concurrent program, examples/refcache.cpp (a reference-counted cache on
# four threads), run three ways: with the atomic tracer, with the function
# report, and with its planted bug, a fault inside an atomic. Then the
# metadata the compiler recorded for examples/demo.c, decoded.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" 19
"$root/scripts/build.sh" 19 >/dev/null
b="$root/build-19"
out="$b/demo"
mkdir -p "$out"

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
echo "== refcache --bug: exit status $status (128 + 11: killed by SIGSEGV, as without pcmap)"

echo
echo "== 4. the metadata of examples/demo.c (pcmap-clang -O2 -fsanitize-metadata=all)"
"$b/bin/pcmap-clang" -O2 -g -pthread -fsanitize-metadata=all \
  "$root/examples/demo.c" -o "$out/demo"
"$out/demo"
/usr/lib/llvm-19/bin/llvm-readelf -S -W "$out/demo" | grep -E 'Name|pcmap_'
echo "== decoded (an independent decoder, test/support/pcmap_elf.py)"
python3 "$root/test/support/pcmap_elf.py" dump "$out/demo"

echo "== the same program with upstream clang -fexperimental-sanitize-metadata=atomics,covered"
/usr/lib/llvm-19/bin/clang -O2 -g -pthread \
  -fexperimental-sanitize-metadata=atomics,covered \
  "$root/examples/demo.c" -o "$out/demo-upstream"
python3 "$root/test/support/pcmap_elf.py" dump "$out/demo-upstream" | grep "^sanmd-summary"
