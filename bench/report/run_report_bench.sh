#!/usr/bin/env bash
# pcmap-report functions against llvm-nm -S --size-sort on one large
# instrumented program: wall time and peak RSS (GNU time), best of N runs.
# Generates and compiles the program (100k functions, once without and once
# with -g) on the first run; that takes minutes, so this is run by hand,
# never by the test suite.
#
# Usage: bench/report/run_report_bench.sh [BUILD_DIR] [RUNS] [--work DIR]
#                                         [--headline FILE]
#   BUILD_DIR: a pcmap build (default build-19); the program goes in
#   BUILD_DIR/bench-report, or in DIR (--work), and is kept there.
#   --headline FILE: also write the headline figures as JSON
#   (bench/headline.py).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=""
headline=""
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --work) work=$2; shift 2 ;;
    --headline) headline=$2; shift 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
build=${positional[0]:-$root/build-19}
runs=${positional[1]:-5}
[ -n "$work" ] || work=$build/bench-report
mkdir -p "$work"
llvm_bin=$(grep -m1 '^LLVM_DIR:' "$build/CMakeCache.txt" | cut -d= -f2-)/../../../bin
nm=$(cd "$llvm_bin" && pwd)/llvm-nm
report=$build/bin/pcmap-report
prog=$work/program
prog_g=$work/program-g

[ -d "$work/src" ] ||
  python3 "$root/bench/report/gen_program.py" "$work/src" 100000 20 >&2
# compile OUTPUT EXTRA-FLAGS
compile() {
  [ -x "$1" ] && return
  echo "compiling $1 with pcmap-clang -O1 $2 -fsanitize-metadata=all ..." >&2
  ls "$work/src"/*.c | xargs -P 2 -I{} sh -c \
    '"$0" -O1 $2 -fsanitize-metadata=all -c "$1" -o "$1.$3.o"' \
    "$build/bin/pcmap-clang" {} "$2" "$(basename "$1")"
  "$build/bin/pcmap-clang" -O1 $2 "$work/src"/*."$(basename "$1")".o -o "$1"
}
compile "$prog" ""
compile "$prog_g" "-g"

# Best (lowest) wall time and peak RSS over $runs runs of a command.
measure() {
  local best_s="" best_kb=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -f '%e %M' -o "$work/time.txt" "$@" > /dev/null
    read -r s kb < "$work/time.txt"
    if [ -z "$best_s" ] || awk "BEGIN{exit !($s < $best_s)}"; then best_s=$s; fi
    if [ -z "$best_kb" ] || [ "$kb" -lt "$best_kb" ]; then best_kb=$kb; fi
  done
  echo "$best_s $best_kb"
}

functions=$("$report" functions --format=csv "$prog" | tail -n +2 | wc -l)
echo "program: $functions functions; $(stat -c %s "$prog") bytes," \
  "$(stat -c %s "$prog_g") bytes with -g"
printf '| %-52s | %9s | %13s |\n' "command" "wall (s)" "peak RSS (MB)"
printf '|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..54})" "-----------" "---------------"
figures=()
row() {
  local label=$1 s kb; shift
  read -r s kb < <(measure "$@")
  printf '| %-52s | %9s | %13.1f |\n' "$label" "$s" "$(echo "$kb / 1024" | bc -l)"
  figures+=("$label" "$s" "$kb")
}
row "llvm-nm -S --size-sort" "$nm" -S --size-sort "$prog"
row "pcmap-report functions" "$report" functions "$prog"
row "pcmap-report functions --format=csv" "$report" functions --format=csv "$prog"
row "pcmap-report functions --format=json" "$report" functions --format=json "$prog"
row "pcmap-report atomics" "$report" atomics "$prog"
row "-g: llvm-nm -S --size-sort" "$nm" -S --size-sort "$prog_g"
row "-g: pcmap-report functions (source lines)" "$report" functions "$prog_g"
row "-g: pcmap-report functions --no-source" "$report" functions --no-source "$prog_g"

if [ -n "$headline" ]; then
  # Each command against llvm-nm on the same file: its wall time, and its
  # peak RSS.
  PCMAP_BENCH_DIR="$root/bench" python3 - "$headline" "$functions" \
      "${figures[@]}" <<'EOF'
import os, sys

sys.path.insert(0, os.environ["PCMAP_BENCH_DIR"])
from headline import Headline

h = Headline(sys.argv[1])
functions = int(sys.argv[2])
rows = sys.argv[3:]
rows = {rows[i]: (float(rows[i + 1]), int(rows[i + 2]) / 1024)
        for i in range(0, len(rows), 3)}
for label, (s, mb) in rows.items():
    if "llvm-nm" in label:
        continue
    g = label.startswith("-g: ")
    nm = rows["-g: llvm-nm -S --size-sort" if g else "llvm-nm -S --size-sort"]
    name, _, detail = (label[4:] if g else label).partition(" (")
    what = "`%s`%s, %d functions%s" % (
        name, " (" + detail if detail else "", functions, ", -g" if g else "")
    slug = "".join(c if c.isalnum() else "_" for c in label).strip("_")
    h.add("wall_" + slug, what + ": wall time", s, "s", baseline=nm[0],
          baseline_label="`llvm-nm -S --size-sort`", digits=2)
    h.add("rss_" + slug, what + ": peak RSS", mb, "MB", baseline=nm[1],
          baseline_label="`llvm-nm -S --size-sort`", digits=1)
h.write()
EOF
fi
