#!/usr/bin/env python3
"""Wait time on a real program, side by side with the CPU tables: LevelDB's
db_bench (bench/leveldb.py: Debian's source, built with the drivers at
-O2 -g), 4 threads, fillrandom then readrandom, 200,000 keys each.

Each round runs it three ways, in rotating order: with the runtime's
defaults (the fault reporter alone: the baseline), with the tracer
(trace_atomics=1) and with the tracer and the wait sampler
(trace_atomics=1:trace_wait=1, 100 Hz); the figures are db_bench's own
micros/op of each benchmark, as a ratio to the baseline's of the same
round (median of the rounds). The last round's dump is read by
`pcmap-report trace`, which prints the covered functions by CPU samples
and, beside them, the wait objects by wall time: the writers' condition
variables (DBImpl::Writer::cv on each thread's stack), the database's
mutex (heap DBImpl::mutex_), the background thread's condition variable,
the fdatasync of each table file.

usage: bench/leveldb_wait.py BUILD_DIR [ROUNDS] [--headline FILE]
Needs a deb-src entry for `apt-get source`, cmake and ninja."""

import glob
import os
import re
import shutil
import statistics
import subprocess
import sys

from headline import Headline, take_option
from leveldb import build_db_bench

MODES = [("defaults", ""), ("tracer", "trace_atomics=1"),
         ("tracer+wait", "trace_atomics=1:trace_wait=1")]
BENCHMARKS = ["fillrandom", "readrandom"]


def run(db_bench, db, options, report_path):
    """{benchmark: micros/op} of one run."""
    shutil.rmtree(db, ignore_errors=True)
    os.makedirs(db)
    env = dict(os.environ)
    env.pop("PCMAP_OPTIONS", None)
    if options:
        env["PCMAP_OPTIONS"] = (options + ":report_format=json:report_path=" +
                                report_path)
    out = subprocess.run([db_bench, "--threads=4",
                          "--benchmarks=" + ",".join(BENCHMARKS),
                          "--num=200000", "--db=" + db], env=env, check=True,
                         capture_output=True, text=True).stdout
    found = {}
    for b in BENCHMARKS:
        m = re.search(r"^%s\s*:\s*([\d.]+) micros/op" % b, out, re.M)
        if m:
            found[b] = float(m.group(1))
    return found


def main():
    headline = Headline(take_option(sys.argv))
    build = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    work, db_bench = build_db_bench(build)
    db = os.path.join(work, "db")
    ratios = {(m, b): [] for m, _ in MODES[1:] for b in BENCHMARKS}
    last = None
    for r in range(rounds):
        order = MODES[r % len(MODES):] + MODES[:r % len(MODES)]
        times = {}
        for name, options in order:
            path = os.path.join(work, "trace-%d-%s" % (r, name))
            times[name] = run(db_bench, db, options, path)
            if name == "tracer+wait":
                last = path
        for m, _ in MODES[1:]:
            for b in BENCHMARKS:
                ratios[(m, b)].append(times[m][b] / times["defaults"][b])
        print("round %d: %s" % (r + 1, ", ".join(
            "%s %s %.2f micros/op" % (m, b, times[m][b])
            for m, _ in MODES for b in BENCHMARKS)))
    print()
    print("micros/op against the runtime's defaults, median of %d rounds:" %
          rounds)
    for (m, b), v in ratios.items():
        print("  %-12s %-11s %.3fx" % (m, b, statistics.median(v)))
    print()
    report = subprocess.run(
        [os.path.join(build, "bin", "pcmap-report"), "trace", "--top=12",
         "--waits=0", "--callers=0"] + glob.glob(last + ".*"),
        capture_output=True, text=True)
    print("pcmap-report trace of the last round's tracer+wait run "
          "(exit status %d):" % report.returncode)
    # The CPU tables' functions, then the wait objects.
    sections = re.split(r"\n\n+", report.stdout)
    for s in sections:
        if s.startswith(("trace of", "covered functions", "wait objects",
                         "waits:")):
            print(s)
            print()
    for b in BENCHMARKS:
        headline.add(b + "_cost", "db_bench %s with the tracer and the wait "
                     "sampler (4 threads)" % b,
                     statistics.median(ratios[("tracer+wait", b)]), "x",
                     baseline=1.0, baseline_label="the runtime's defaults, "
                     "the same round", digits=3, ratio_of="rounds",
                     note="tracer alone: %.3fx" % statistics.median(
                         ratios[("tracer", b)]))
    headline.write()
    shutil.rmtree(work, ignore_errors=True)
    return 0 if report.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
