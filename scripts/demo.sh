#!/usr/bin/env bash
# Installs what is missing, builds pcmap (LLVM 19), compiles examples/demo.c
# with pcmap-clang, runs it and shows the metadata the compiler recorded.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" 19
"$root/scripts/build.sh" 19 >/dev/null
b="$root/build-19"
out="$b/demo"
mkdir -p "$out"

echo "== compile: pcmap-clang -O2 -fsanitize-metadata=all examples/demo.c"
"$b/bin/pcmap-clang" -O2 -g -pthread -fsanitize-metadata=all \
  "$root/examples/demo.c" -o "$out/demo"
echo "== run"
"$out/demo"
echo "== sections"
/usr/lib/llvm-19/bin/llvm-readelf -S -W "$out/demo" | grep -E 'Name|pcmap_'
echo "== decoded (an independent decoder, test/tools/pcmap_elf.py)"
python3 "$root/test/tools/pcmap_elf.py" dump "$out/demo"

echo "== the same program with upstream clang -fexperimental-sanitize-metadata=atomics,covered"
/usr/lib/llvm-19/bin/clang -O2 -g -pthread \
  -fexperimental-sanitize-metadata=atomics,covered \
  "$root/examples/demo.c" -o "$out/demo-upstream"
python3 "$root/test/tools/pcmap_elf.py" dump "$out/demo-upstream" | grep "^sanmd-summary"
