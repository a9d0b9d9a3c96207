#!/usr/bin/env bash
# pcmap-report functions against llvm-nm -S --size-sort on one large
# instrumented program: wall time and peak RSS (GNU time), best of N runs.
# Generates and compiles the program (100k functions, once without and once
# with -g) on the first run; that takes minutes, so this is run by hand,
# never by the test suite.
#
# Usage: bench/report/run_report_bench.sh [BUILD_DIR] [RUNS]
#   BUILD_DIR: a pcmap build (default build-19); the program goes in
#   BUILD_DIR/bench-report.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-19}
runs=${2:-5}
work=$build/bench-report
llvm_bin=$(grep -m1 '^LLVM_DIR:' "$build/CMakeCache.txt" | cut -d= -f2-)/../../../bin
nm=$(cd "$llvm_bin" && pwd)/llvm-nm
report=$build/bin/pcmap-report
prog=$work/program
prog_g=$work/program-g

[ -d "$work/src" ] || python3 "$root/bench/report/gen_program.py" "$work/src" 100000 20
# compile OUTPUT EXTRA-FLAGS
compile() {
  [ -x "$1" ] && return
  echo "compiling $1 with pcmap-clang -O1 $2 -fsanitize-metadata=all ..."
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
row() {
  local label=$1; shift
  read -r s kb < <(measure "$@")
  printf '| %-52s | %9s | %13.1f |\n' "$label" "$s" "$(echo "$kb / 1024" | bc -l)"
}
row "llvm-nm -S --size-sort" "$nm" -S --size-sort "$prog"
row "pcmap-report functions" "$report" functions "$prog"
row "pcmap-report functions --format=csv" "$report" functions --format=csv "$prog"
row "pcmap-report functions --format=json" "$report" functions --format=json "$prog"
row "pcmap-report atomics" "$report" atomics "$prog"
row "-g: llvm-nm -S --size-sort" "$nm" -S --size-sort "$prog_g"
row "-g: pcmap-report functions (source lines)" "$report" functions "$prog_g"
row "-g: pcmap-report functions --no-source" "$report" functions --no-source "$prog_g"
