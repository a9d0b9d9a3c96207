#!/usr/bin/env bash
# The runtime's queries on real layouts (issue 20; bench/README.md), in one
# go: builds the generated objects if they are missing, runs
# pcmap_layout_bench on them, on pcmap's own instrumented test DSO and on the
# corpus's shared objects, then pcmap_rt_bench's synthetic sizes in the same
# run, and prints Markdown tables: each object's layout, then ns/query
# (median and min-max of the repetitions) of every method with the ratios
# against the targets, and registration per atomic and per function.
#
# Usage: bench/run_layout_bench.sh [--build DIR] [--corpus DIR] [--reps N]
#            [--queries N] [--together] [--no-generated] [--no-synthetic]
#            [--generate-only] [--layouts DIR] [--headline FILE]
#
#   --build DIR    a pcmap build with benchmarks (default build-19, else build)
#   --corpus DIR   the corpus's work directory (python3 test/corpus/corpus.py
#                  builds it in BUILD/corpus): every instrumented shared
#                  object under it is measured; default BUILD/corpus if it
#                  exists, else no corpus
#   --reps N       repetitions (default 7); --queries N per repetition
#                  (default 1000000)
#   --together     load all objects at once (pcmap finds each query's module
#                  among all of theirs); default: each object alone, with
#                  the libraries it needs, unloaded before the next
#   --no-generated / --no-synthetic  leave out the generated objects, or
#                  pcmap_rt_bench's synthetic tables
#   --generate-only  build the generated objects and stop
#   --layouts DIR  where the generated objects are built and kept (default
#                  BUILD/bench/layouts)
#   --headline FILE  also write the headline figures as JSON
#                  (bench/headline.py): medians over the objects
#
# The generated objects (bench/gen_layout_program.py: dense, small, mixed)
# go to BUILD/bench/layouts; the first run compiles them, which takes about
# 8 minutes on 2 cores (mixed: 6, small: 1, dense: 0.5). A run then takes
# about 4 minutes. The exit status is non-zero if pcmap gave a wrong answer
# (1) or an object could not be measured (2).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=""
corpus=""
reps=7
queries=1000000
generated=1
synthetic=1
generate_only=0
together=()
layouts=""
headline=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --queries) queries=$2; shift 2 ;;
    --no-generated) generated=0; shift ;;
    --no-synthetic) synthetic=0; shift ;;
    --generate-only) generate_only=1; shift ;;
    --together) together=(--together); shift ;;
    --layouts) layouts=$2; shift 2 ;;
    --headline) headline=$2; shift 2 ;;
    -h|--help) sed -n '2,37p' "$0"; exit 0 ;;
    *) echo "run_layout_bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ -z "$build" ]; then
  if [ -d "$root/build-19" ]; then build="$root/build-19"; else build="$root/build"; fi
fi
build=$(cd "$build" && pwd)
bin="$build/bench/pcmap_layout_bench"
if [ ! -x "$bin" ]; then
  echo "run_layout_bench.sh: $bin not found; build with -DPCMAP_BUILD_BENCHMARKS=ON" >&2
  exit 2
fi
if [ -z "$corpus" ] && [ -d "$build/corpus" ]; then corpus="$build/corpus"; fi

# The generated objects: sources from gen_layout_program.py, compiled with
# pcmap-clang++ -O2 (two at a time), linked into lib<layout>.so.
[ -n "$layouts" ] || layouts="$build/bench/layouts"
mkdir -p "$layouts"
layouts=$(cd "$layouts" && pwd)
generate() {
  local name=$1 so="$layouts/lib$1.so" src="$layouts/$1"
  [ -f "$so" ] && return 0
  echo "run_layout_bench.sh: generating and compiling the $name layout ..." >&2
  rm -rf "$src"
  python3 "$root/bench/gen_layout_program.py" "$name" "$src"
  ls "$src"/*.cpp | xargs -P 2 -I{} "$build/bin/pcmap-clang++" -O2 -std=c++17 \
    -fPIC -fsanitize-metadata=all -c {} -o {}.o
  "$build/bin/pcmap-clang++" -shared "$src"/*.o -o "$so.tmp"
  mv "$so.tmp" "$so"
}
objects=()
if [ "$generated" = 1 ]; then
  for name in dense small mixed; do
    generate "$name"
    objects+=("generated/$name=$layouts/lib$name.so")
  done
fi
[ "$generate_only" = 1 ] && exit 0

# pcmap's own instrumented DSO (the churn benchmark's).
objects+=("pcmap/churn_dso=$build/bench/libpcmap_bench_churn.so")
# The corpus: every shared object it built (not its downloads, not the
# ABI descriptions or symbol lists: ELF files only), labelled recipe/file,
# each label once (a build tree may hold a second copy of a library).
if [ -n "$corpus" ]; then
  labels=" "
  while IFS= read -r so; do
    [ "$(head -c 4 "$so" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
    rel=${so#"$corpus"/}
    label="${rel%%/*}/$(basename "$so")"
    case "$labels" in *" $label "*) continue ;; esac
    labels="$labels$label "
    objects+=("$label=$so")
  done < <(find "$corpus" -path "$corpus/downloads" -prune -o -type f \
             \( -name '*.so' -o -name '*.so.[0-9]*' \) ! -name '*.xml' -print |
           sort)
fi

status=0
# jemalloc's initial-exec TLS does not fit in the static TLS that glibc
# keeps for dlopen by default.
export GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.rtld.optional_static_tls=65536"
cmd=("$bin" --reps "$reps" --queries "$queries" "${together[@]}" "${objects[@]}")
echo "+ ${cmd[*]}" >&2
tables=$(mktemp "${TMPDIR:-/tmp}/pcmap_layout_tables.XXXXXX")
"${cmd[@]}" > "$tables" || status=$?
cat "$tables"

json=""
if [ "$synthetic" = 1 ]; then
  rt="$build/bench/pcmap_rt_bench"
  json=$(mktemp "${TMPDIR:-/tmp}/pcmap_layout_rt.XXXXXX.json")
  cmd=("$rt" --benchmark_min_time=0.2 --benchmark_repetitions="$reps"
       --benchmark_display_aggregates_only=true
       "--benchmark_filter=^(is_atomic/|register/sorted/|lookup_function/)"
       --benchmark_out="$json" --benchmark_out_format=json)
  echo "+ ${cmd[*]}" >&2
  "${cmd[@]}" > /dev/null || status=$?
  python3 - "$json" <<'EOF'
import json, re, statistics, sys

data = json.load(open(sys.argv[1]))
reps = {}
for b in data["benchmarks"]:
    if b.get("run_type") == "aggregate" or b.get("error_occurred"):
        continue
    reps.setdefault(b["run_name"], []).append(b)


def spread(name, value):
    vals = [value(b) for b in reps.get(name, []) if value(b) is not None]
    if not vals:
        return None
    return statistics.median(vals), min(vals), max(vals)


def ns(name):
    return spread(name, lambda b: 1e9 / b["items_per_second"]
                  if b.get("items_per_second") else None)


def cell(s, digits=1):
    return "-" if s is None else f"{s[0]:.{digits}f} ({s[1]:.{digits}f}–{s[2]:.{digits}f})"


def ratio(slow, fast, target):
    if slow is None or fast is None:
        return "-"
    r = slow[0] / fast[0]
    return f"{r:.2f}x {'✓' if r >= target else '✗'}"


n = len(next(iter(reps.values()), []))
print(f"\n#### Synthetic tables (pcmap_rt_bench, same run): ns per query, "
      f"median (min–max) of {n} repetitions\n")
print("| atomics | pcmap | `std::upper_bound` | two-level | upper_bound / pcmap (≥ 2x) "
      "| two-level / pcmap (≥ 3x) | registration, ns per atomic (sorted) |")
print("| --- | --- | --- | --- | --- | --- | --- |")
sizes = sorted({int(m.group(1)) for k in reps
                for m in [re.match(r"is_atomic/pcmap/(\d+)$", k)] if m})
for size in sizes:
    p, u, t = (ns(f"is_atomic/{k}/{size}") for k in ("pcmap", "upper_bound", "two_level"))
    reg = next((k for k in reps if re.match(rf"register/sorted/{size}(/|$)", k)), None)
    r = spread(reg, lambda b: b.get("add_ns_per_entry")) if reg else None
    print(f"| 10^{len(str(size)) - 1} | {cell(p)} | {cell(u)} | {cell(t)} | "
          f"{ratio(u, p, 2)} | {ratio(t, p, 3)} | {cell(r)} |")
lp, lf, ld = (ns(f"lookup_function/{k}") for k in ("pcmap", "unwind_find_fde", "dladdr"))
print(f"\n`pcmap_lookup_function` on pcmap_rt_bench's 512 functions: {cell(lp)} ns; "
      f"`_Unwind_Find_FDE` {cell(lf)} ns ({ratio(lf, lp, 5)}, target ≥ 5x); "
      f"`dladdr` {cell(ld, 0)} ns.")
errors = sorted({b["run_name"] + ": " + b.get("error_message", "")
                 for b in data["benchmarks"] if b.get("error_occurred")})
for e in errors:
    print(f"\nERROR {e}")
EOF
fi

# The headline: per group of objects (each generated layout, pcmap's DSO,
# the corpus's libraries together), the medians over the objects of each
# method's median, read from pcmap_layout_bench's tables.
if [ -n "$headline" ]; then
  PCMAP_BENCH_DIR="$root/bench" python3 - "$tables" "$headline" <<'EOF'
import os, re, statistics, sys

sys.path.insert(0, os.environ["PCMAP_BENCH_DIR"])
from headline import Headline


def tables(text):
    """{heading: [{column: cell}]}: the Markdown table under each heading."""
    result, heading, header = {}, None, None
    for line in text.splitlines():
        if line.startswith("#"):
            heading, header = line.lstrip("#").strip(), None
        elif line.startswith("| ---"):
            continue
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if header is None:
                header = cells
            else:
                result.setdefault(heading, []).append(dict(zip(header, cells)))
        else:
            header = None
    return result


def median_of(cell):
    m = re.match(r"([\d.]+)", cell or "")
    return float(m.group(1)) if m else None


found = tables(open(sys.argv[1]).read())
is_atomic = next((rows for h, rows in found.items()
                  if h.startswith("`pcmap_is_atomic_pc`")), [])
lookup = next((rows for h, rows in found.items()
               if h.startswith("`pcmap_lookup_function`")), [])
layouts = next((rows for h, rows in found.items() if h == "Layouts"), [])
# An object without atomics: every method answers NO at once.
no_atomics = {r["object"] for r in layouts if r.get("atomics") == "0"}
is_atomic = [r for r in is_atomic if r["object"] not in no_atomics]
groups = {}
for row in is_atomic + lookup:
    obj = row["object"]
    group = obj if obj.startswith(("generated/", "pcmap/")) else "corpus"
    groups.setdefault(group, set()).add(obj)
h = Headline(sys.argv[2])
for group in sorted(groups, key=lambda g: (g == "corpus", g)):
    objs = groups[group]
    what = ("the corpus's %d libraries" % len(objs) if group == "corpus"
            else group)
    for key, rows, baseline, label in (
            ("is_atomic", is_atomic, "`std::upper_bound`",
             "`pcmap_is_atomic_pc`"),
            ("lookup_function", lookup, "`_Unwind_Find_FDE`",
             "`pcmap_lookup_function`")):
        pairs = [(median_of(r.get("pcmap")), median_of(r.get(baseline)))
                 for r in rows if r["object"] in objs]
        pairs = [(a, b) for a, b in pairs if a and b]
        if not pairs:
            continue
        note = None
        if len(pairs) > 1:
            fast = [a for a, _ in pairs]
            speedups = [b / a for a, b in pairs]
            note = ("medians over %d objects%s; pcmap %.1f to %.1f ns, "
                    "%s %.2fx to %.2fx pcmap's time" % (
                        len(pairs), " with atomics" if key == "is_atomic"
                        and len(pairs) < len(objs) else "", min(fast),
                        max(fast), baseline, min(speedups), max(speedups)))
        h.add("%s_%s" % (key, re.sub(r"[^a-z0-9]+", "_", group)),
              "%s, %s" % (label, what),
              statistics.median(a for a, _ in pairs), "ns per query",
              baseline=statistics.median(b for _, b in pairs),
              baseline_label=baseline,
              ratio=statistics.median(a / b for a, b in pairs),
              ratio_of="objects", digits=1, note=note)
h.write()
EOF
fi
rm -f "$tables" ${json:+"$json"}
echo >&2
echo "run_layout_bench.sh: load average at the end $(cut -d' ' -f1-3 /proc/loadavg); status $status" >&2
exit $status
