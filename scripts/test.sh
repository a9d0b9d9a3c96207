#!/usr/bin/env bash
# Installs what is missing, builds pcmap against LLVM 19 and LLVM 22, and runs
# the whole test suite against each; then cross-builds the runtime for
# aarch64-linux-gnu (LLVM 19) and runs the unit, rt and e2e suites under
# qemu-aarch64 (test/<triple>/; LLVM 22's AArch64 code generation is checked
# by the LLVM 22 stage's CodeGen, Instrumentation and e2e tests); then builds
# the runtime with ASan+UBSan and with TSan (LLVM 19, scripts/build.sh) and
# runs the suites that exercise the runtime (unit, rt, e2e but for the tests
# of the compiler's tables) in each; then builds all of pcmap with the
# system's GCC (LLVM 19) and runs the suites of what it builds; then builds,
# tests and checks part of the corpus of Debian packages (test/corpus) with
# the LLVM 19 build. Each stage prints what it cost; the last line is
# "N passed, N failed, N skipped".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
versions=(19 22)
configs=(19-aarch64 19-asan 19-tsan 19-gcc)

"$root/scripts/install-deps.sh" "${versions[@]}" || exit 1

passed=0 failed=0 skipped=0 status=0
for name in "${versions[@]}" "${configs[@]}"; do
  v=${name%%-*}
  config=
  [ "$name" = "$v" ] || config=${name#*-}
  label="LLVM $v${config:+ ($config)}"
  build="$root/build-$name"
  tests="$build/test"
  suites=("$tests" "$build/test/Unit")
  if [ "$config" = gcc ]; then
    # What the system's compiler builds: the plugin (the IR it instruments
    # and the tables it emits), the drivers, the runtime, and the unit
    # tests of all of them, pcmap-report's included. The end-to-end,
    # pcmap-report, install, docs and benchmark suites run in the clang
    # builds.
    suites=("$tests"/{CodeGen,Instrumentation,Driver,rt} "$build/test/Unit")
  fi
  if [ "$config" = aarch64 ]; then
    # The cross-built runtime's suites, in the native build's tree.
    build="$root/build-$v"
    tests="$build/test/aarch64-linux-gnu"
    suites=("$tests" "$build/rt-aarch64-linux-gnu/test/Unit")
  fi
  start=$SECONDS
  echo "=== $label: build"
  if ! "$root/scripts/build.sh" "$v" $config; then
    echo "=== $label: build FAILED"
    failed=$((failed + 1)) status=1
    continue
  fi
  built=$SECONDS
  echo "=== $label: tests"
  lit=$(grep -m1 '^PCMAP_LIT:' "$build/CMakeCache.txt" | cut -d= -f2-)
  results="$tests/results.json"
  # Figures from an earlier run are not this run's (a test may be skipped).
  rm -rf "$build/fuzz/summary" "$tests"/rt/Output/stress*.tmp
  python3 "$lit" -sv --output "$results" "${suites[@]}" || status=1
  counts=$(python3 - "$results" <<'PY'
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
codes = [t["code"] for t in tests]
ok, skip = ("PASS", "XFAIL"), ("UNSUPPORTED",)
print(sum(c in ok for c in codes), sum(c not in ok + skip for c in codes),
      sum(c in skip for c in codes))
PY
  ) || { counts="0 1 0"; status=1; }
  if [ -d "$build/fuzz/summary" ]; then
    echo "=== $label: fuzzers (test/fuzz)"
    cat "$build/fuzz/summary"/*.txt
  fi
  # The stress tests' figures (test/rt/stress*.c).
  for out in "$tests"/rt/Output/stress*.tmp/stress*.out; do
    [ -f "$out" ] && sed "s/^/=== $label: /" "$out"
  done
  read -r p f s <<<"$counts"
  echo "=== $label: build $((built - start)) s, tests $((SECONDS - built)) s"
  echo "=== $label: $p passed, $f failed, $s skipped"
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
done

# The corpus (test/corpus/README.md): Debian's source packages built with
# the LLVM 19 build's pcmap-clang and checked against the disassembler; one
# count per package check, a package the archive cannot serve counted as
# skipped. By default the recipes of corpus.py's CI_RECIPES (liburcu, on
# x86-64 and cross-built for AArch64, and dav1d); PCMAP_CORPUS=all runs
# every recipe (about 30 minutes more),
# PCMAP_CORPUS=liburcu,zstd those, PCMAP_CORPUS=0 none.
corpus=${PCMAP_CORPUS:-ci}
if [ "$corpus" != 0 ]; then
  echo "=== corpus: build, test and check Debian packages (test/corpus)"
  start=$SECONDS
  corpus_log="$root/build-19/corpus.log"
  mkdir -p "$root/build-19"
  only=()
  [ "$corpus" = all ] || only=(--only "$corpus")
  python3 "$root/test/corpus/corpus.py" --build "$root/build-19" \
    "${only[@]}" 2>&1 |
    tee "$corpus_log"
  line=$(grep -E '^corpus: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' \
    "$corpus_log" | tail -1)
  if [ -n "$line" ]; then
    read -r p f s <<<"$(echo "$line" | tr -dc '0-9 \n' | xargs)"
  else
    p=0 f=1 s=0
  fi
  echo "=== corpus: $((SECONDS - start)) s"
  echo "=== corpus: $p passed, $f failed, $s skipped"
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
fi

[ "$failed" -eq 0 ] || status=1
echo "=== all stages: $SECONDS s"
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
