#!/usr/bin/env bash
# Installs what is missing, builds pcmap against LLVM 19 and LLVM 22, and runs
# the whole test suite against each. The last line is "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
versions=(19 22)

"$root/scripts/install-deps.sh" "${versions[@]}" || exit 1

passed=0 failed=0 skipped=0 status=0
for v in "${versions[@]}"; do
  echo "=== LLVM $v: build"
  if ! "$root/scripts/build.sh" "$v"; then
    echo "=== LLVM $v: build FAILED"
    failed=$((failed + 1)) status=1
    continue
  fi
  echo "=== LLVM $v: tests"
  lit=$(grep -m1 '^PCMAP_LIT:' "$root/build-$v/CMakeCache.txt" | cut -d= -f2-)
  results="$root/build-$v/test/results.json"
  rm -rf "$root/build-$v/fuzz/summary"
  python3 "$lit" -sv --output "$results" "$root/build-$v/test" \
    "$root/build-$v/test/Unit" || status=1
  counts=$(python3 - "$results" <<'PY'
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
codes = [t["code"] for t in tests]
ok, skip = ("PASS", "XFAIL"), ("UNSUPPORTED",)
print(sum(c in ok for c in codes), sum(c not in ok + skip for c in codes),
      sum(c in skip for c in codes))
PY
  ) || { counts="0 1 0"; status=1; }
  if [ -d "$root/build-$v/fuzz/summary" ]; then
    echo "=== LLVM $v: fuzzers (test/fuzz)"
    cat "$root/build-$v/fuzz/summary"/*.txt
  fi
  read -r p f s <<<"$counts"
  echo "=== LLVM $v: $p passed, $f failed, $s skipped"
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
done

[ "$failed" -eq 0 ] || status=1
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
