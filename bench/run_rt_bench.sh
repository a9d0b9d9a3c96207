#!/usr/bin/env bash
# Runs the runtime benchmarks (bench/pcmap_rt_bench.cpp) and prints a compact
# summary: is_atomic ns/query per table size against std::upper_bound and the
# two-level search, registration ns/entry (with a memcpy and a std::sort of
# the same entries, and the target, side by side), lookup_function against
# _Unwind_Find_FDE and dladdr, and query throughput with and without churn.
#
# Usage: bench/run_rt_bench.sh [--build DIR] [--reps N] [--min-time S]
#                              [--json FILE] [--headline FILE]
#                              [-- extra benchmark flags]
#        bench/run_rt_bench.sh --summarize FILE   (summary of an earlier run)
#
# Defaults: the build directory build-19 (scripts/build.sh), else build;
# 3 repetitions (medians are shown) of at least 0.2 s each. A full run takes
# about a minute on 2 cores. The exit status is the benchmark's: non-zero
# if the runtime gave a wrong answer (details on stderr and in the table).
# --headline FILE also writes the headline figures as JSON
# (bench/headline.py); the machine and its load go to stderr.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=""
reps=3
min_time=0.2
json=""
summarize=""
headline=""
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --min-time) min_time=$2; shift 2 ;;
    --json) json=$2; shift 2 ;;
    --summarize) summarize=$2; shift 2 ;;
    --headline) headline=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "run_rt_bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

status=0
if [ -z "$summarize" ]; then
  if [ -z "$build" ]; then
    if [ -d "$root/build-19" ]; then build="$root/build-19"; else build="$root/build"; fi
  fi
  bin="$build/bench/pcmap_rt_bench"
  if [ ! -x "$bin" ]; then
    echo "run_rt_bench.sh: $bin not found; build with -DPCMAP_BUILD_BENCHMARKS=ON" >&2
    exit 2
  fi
  if [ -z "$json" ]; then
    json=$(mktemp /tmp/pcmap_rt_bench.XXXXXX.json)
  fi
  cmd=("$bin" --benchmark_min_time="$min_time" --benchmark_repetitions="$reps"
       --benchmark_display_aggregates_only=true
       --benchmark_out="$json" --benchmark_out_format=json "${extra[@]}")
  echo "+ ${cmd[*]}" >&2
  start=$(date +%s)
  # The benchmark's own table goes to stderr: stdout is the summary.
  "${cmd[@]}" >&2 || status=$?
  echo "run_rt_bench.sh: benchmark finished in $(( $(date +%s) - start )) s, status $status; JSON in $json" >&2
  summarize=$json
  # The machine's load over the run (other processes skew the numbers).
  export PCMAP_BENCH_LOAD_END="$(cut -d' ' -f1-3 /proc/loadavg)"
fi

PCMAP_BENCH_DIR="$root/bench" python3 - "$summarize" "$headline" <<'EOF'
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.environ["PCMAP_BENCH_DIR"])
from headline import Headline

headline = Headline(sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None)

with open(sys.argv[1]) as f:
    data = json.load(f)

# One result per run: the median aggregate if there are repetitions, else the
# median of the plain runs.
runs = {}
for b in data.get("benchmarks", []):
    name = b.get("run_name", b["name"])
    r = runs.setdefault(name, {"plain": [], "median": None, "error": None})
    if b.get("error_occurred"):
        r["error"] = b.get("error_message", "error")
    if b.get("run_type") == "aggregate":
        if b.get("aggregate_name") == "median":
            r["median"] = b
    else:
        r["plain"].append(b)


def get(name, key):
    r = runs.get(name)
    if not r or r["error"]:
        return None
    if r["median"] is not None:
        return r["median"].get(key)
    vals = [b[key] for b in r["plain"] if key in b]
    return statistics.median(vals) if vals else None


def err(name):
    r = runs.get(name)
    if r is None:
        return "not run"
    return r["error"]


UNIT_NS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
# Issue 30: registering sorted sections at most this much per entry.
REG_TARGET_NS = 3


def ns_per_item(name):
    ips = get(name, "items_per_second")
    return 1e9 / ips if ips else None


def fmt(v, digits=1):
    return "-" if v is None else f"{v:.{digits}f}"


def ratio(a, b):
    return "-" if a is None or b is None or b == 0 else f"{a / b:.2f}x"


ctx = data.get("context", {})
# The host and its load go to stderr: they describe this run, not the
# figures.
print(f"run_rt_bench.sh: {ctx.get('host_name', '?')}, "
      f"load {', '.join(f'{x:.2f}' for x in ctx.get('load_avg', []))}"
      + (f" at the start, {os.environ['PCMAP_BENCH_LOAD_END'].replace(' ', ', ')} "
         f"at the end" if os.environ.get('PCMAP_BENCH_LOAD_END') else ""),
      file=sys.stderr)
print()
print(f"pcmap runtime benchmarks: "
      f"{ctx.get('num_cpus', '?')} CPUs at {ctx.get('mhz_per_cpu', '?')} MHz; "
      f"{'medians of repetitions' if any(r['median'] for r in runs.values()) else 'single runs'}")
problems = sorted({f"{n}: {r['error']}" for n, r in runs.items() if r["error"]})

sizes = sorted({int(m.group(1)) for n in runs
                for m in [re.match(r"is_atomic/\w+/(\d+)$", n)] if m})
print()
print("1. pcmap_is_atomic_pc, ns/query (CPU time; half hits, half misses)")
print(f"{'atomics':>10} {'pcmap':>8} {'upper_bound':>12} {'two_level':>10} "
      f"{'ub/pcmap':>9} {'2lvl/pcmap':>11}")
for n in sizes:
    p = ns_per_item(f"is_atomic/pcmap/{n}")
    u = ns_per_item(f"is_atomic/upper_bound/{n}")
    t = ns_per_item(f"is_atomic/two_level/{n}")
    print(f"{n:>10} {fmt(p):>8} {fmt(u):>12} {fmt(t):>10} {ratio(u, p):>9} "
          f"{ratio(t, p):>11}")

print()
print("2. Registration (atomics + functions sections of a fake module), "
      "ns per atomic;")
print("   baselines: memcpy of the sections' bytes, std::sort of the atomics' "
      "64-bit keys;")
print(f"   target: sorted add <= {REG_TARGET_NS:g} ns at 10^4 and 10^6")
print("   (wall time, as the target; in parentheses the registering thread's "
      "CPU time)")
print(f"{'atomics':>10} {'functions':>10} {'sorted add':>13} "
      f"{'shuffled add':>13} {'memcpy':>12} {'std::sort':>14} "
      f"{'sorted del':>11} {'shuffled del':>13}")
reg_sizes = sorted({int(m.group(1)) for n in runs
                    for m in [re.match(r"register/\w+/(\d+)", n)] if m})


def reg_name(kind, n):
    for name in runs:
        if re.match(rf"register/{kind}/{n}(/|$)", name):
            return name
    return f"register/{kind}/{n}"


for n in reg_sizes:
    s, h = reg_name("sorted", n), reg_name("shuffled", n)
    funcs = get(s, "functions")
    mc, so = reg_name("baseline_memcpy", n), reg_name("baseline_std_sort", n)

    def both(name, digits=1):
        wall = fmt(get(name, 'add_ns_per_entry'), digits)
        cpu = get(name, 'add_cpu_ns_per_entry')
        return wall if cpu is None else f"{wall} ({fmt(cpu, digits)})"

    print(f"{n:>10} {fmt(funcs, 0):>10} {both(s):>13} {both(h):>13} "
          f"{both(mc, 2):>12} {both(so):>14} "
          f"{fmt(get(s, 'del_ns_per_entry')):>11} "
          f"{fmt(get(h, 'del_ns_per_entry')):>13}")

deferred = [n for n in reg_sizes if reg_name("deferred", n) in runs]
if deferred:
    print()
    print("2b. Registration before the process's first query (as at start-up), "
          "ns per atomic:")
    print("   the registration, and the first query after it, which builds "
          "the table")
    print(f"{'atomics':>10} {'registration':>13} {'first query':>12}")
    for n in deferred:
        d = reg_name("deferred", n)
        print(f"{n:>10} {fmt(get(d, 'add_ns_per_entry'), 4):>13} "
              f"{fmt(get(d, 'first_query_ns_per_entry')):>12}")

print()
print("3. Function lookup on this binary's instrumented functions, ns/query")
lp = ns_per_item("lookup_function/pcmap")
lf = ns_per_item("lookup_function/unwind_find_fde")
ld = ns_per_item("lookup_function/dladdr")
print(f"{'pcmap_lookup_function':>24} {fmt(lp):>8}")
print(f"{'_Unwind_Find_FDE':>24} {fmt(lf):>8}   {ratio(lf, lp)} pcmap's time")
print(f"{'dladdr':>24} {fmt(ld):>8}   {ratio(ld, lp)} pcmap's time")

print()
print("4. pcmap_is_atomic_pc throughput, 10^6 atomics (wall time, all threads;")
print("   CPU ns/query: the query threads' CPU time, less sensitive to other load)")
print(f"{'churn':>8} {'threads':>8} {'Mqueries/s':>11} {'ns/query/thread':>16} "
      f"{'CPU ns/query':>13} {'churn/s':>9} {'wrong':>6}")
for churn in ("none", "fake", "dlopen"):
    for threads in (1, 2):
        name = f"throughput/churn:{churn}/real_time/threads:{threads}"
        ips = get(name, "items_per_second")
        per = threads * 1e9 / ips if ips else None
        cpu = get(name, "cpu_time")  # CPU time of all threads per query
        if cpu is not None:
            cpu *= UNIT_NS.get(get(name, "time_unit") or "ns", 1)
        print(f"{churn:>8} {threads:>8} {fmt(ips / 1e6 if ips else None, 2):>11} "
              f"{fmt(per):>16} {fmt(cpu):>13} "
              f"{fmt(get(name, 'churn_per_s'), 0):>9} "
              f"{fmt(get(name, 'wrong_answers'), 0):>6}")

print()
print("Targets")


def target(label, ok):
    print(f"  [{'PASS' if ok else 'FAIL' if ok is not None else ' -- '}] {label}")


u6, p6 = (ns_per_item(f"is_atomic/{k}/1000000") for k in ("upper_bound", "pcmap"))
target(f"is_atomic at 10^6: pcmap >= 3x faster than std::upper_bound "
       f"(measured {ratio(u6, p6)})", None if not u6 or not p6 else u6 / p6 >= 3)
for n, label in ((10000, "10^4"), (1000000, "10^6")):
    r = get(reg_name("sorted", n), "add_ns_per_entry")
    mc = get(reg_name("baseline_memcpy", n), "add_ns_per_entry")
    so = get(reg_name("baseline_std_sort", n), "add_ns_per_entry")
    target(f"registration at {label}, sorted: <= {REG_TARGET_NS:g} ns/entry "
           f"(measured {fmt(r)}; memcpy {fmt(mc, 2)}, std::sort {fmt(so)})",
           None if r is None else r <= REG_TARGET_NS)
target(f"lookup_function: pcmap >= 10x faster than _Unwind_Find_FDE "
       f"(measured {ratio(lf, lp)})", None if not lf or not lp else lf / lp >= 10)

def power(n):
    return f"10^{len(str(n)) - 1}"


for n in sizes:
    p = ns_per_item(f"is_atomic/pcmap/{n}")
    t = ns_per_item(f"is_atomic/two_level/{n}")
    headline.add(f"is_atomic_{power(n)}", f"`pcmap_is_atomic_pc`, {power(n)} "
                 "atomics", p, "ns per query",
                 baseline=ns_per_item(f"is_atomic/upper_bound/{n}"),
                 baseline_label="`std::upper_bound` over the sorted PCs",
                 digits=1, note=f"two-level search: {fmt(t)} ns")
headline.add("lookup_function", "`pcmap_lookup_function`, 512 functions", lp,
             "ns per query", baseline=lf, baseline_label="`_Unwind_Find_FDE`",
             digits=1, note=f"`dladdr`: {fmt(ld, 0)} ns")
for n in reg_sizes:
    if n not in (10000, 1000000):
        continue
    headline.add(f"register_{power(n)}", f"building the table of {power(n)} "
                 "atomics (sorted sections)",
                 get(reg_name("sorted", n), "add_ns_per_entry"),
                 "ns per atomic",
                 baseline=get(reg_name("baseline_std_sort", n),
                              "add_ns_per_entry"),
                 baseline_label="`std::sort` of the atomics' 64-bit keys",
                 digits=1, note="`memcpy` of the sections: "
                 f"{fmt(get(reg_name('baseline_memcpy', n), 'add_ns_per_entry'), 2)} ns")
    if n in deferred:
        headline.add(f"register_deferred_{power(n)}", "registration before "
                     f"the first query (start-up), {power(n)} atomics",
                     get(reg_name("deferred", n), "add_ns_per_entry"),
                     "ns per atomic",
                     baseline=get(reg_name("baseline_memcpy", n),
                                  "add_ns_per_entry"),
                     baseline_label="`memcpy` of the sections", digits=4)
for threads in (1, 2):
    base = get(f"throughput/churn:none/real_time/threads:{threads}",
               "items_per_second")
    for churn, what in (("fake", "another module registered and removed"),
                        ("dlopen", "a library dlopened and dlclosed")):
        ips = get(f"throughput/churn:{churn}/real_time/threads:{threads}",
                  "items_per_second")
        headline.add(f"throughput_{churn}_{threads}",
                     f"queries per second, 10^6 atomics, {threads} "
                     f"thread{'s' if threads > 1 else ''}, {what} in a loop",
                     ips / 1e6 if ips else None, "million/s",
                     baseline=base / 1e6 if base else None,
                     baseline_label="the same queries without churn",
                     digits=2)
headline.write()

if problems:
    print()
    print("Errors")
    for p in problems:
        print("  " + p.replace("\n", "\n    "))
EOF
exit $status
