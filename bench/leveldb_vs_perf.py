#!/usr/bin/env python3
"""The tracer's call stacks against perf's on a real program: LevelDB's
db_bench (Debian's source package, `apt-get source leveldb`), built with the
drivers at -O2 -g without frame pointers (as Debian builds), its stacks in
LevelDB, libstdc++ and the C library. Each run is one process under
`perf record --call-graph dwarf -e cpu-clock` with the tracer on
(test/rt/Inputs/compare_perf.py): the cumulative shares of the top 10
functions by perf's, the largest difference, and the calls one profile has
and the other not.

usage: bench/leveldb_vs_perf.py BUILD_DIR [RUNS [OPTIONS]] [--headline FILE]
  OPTIONS: more of the tracer's options (e.g. trace_high_resolution=0)
  --headline FILE: also write the figures as JSON (bench/headline.py)
Needs perf (root, or perf_event_paranoid allowing DWARF call graphs),
llvm-symbolizer on the PATH and a deb-src entry for `apt-get source`."""

import os
import re
import shutil
import subprocess
import sys
import statistics

from headline import Headline, take_option
from leveldb import build_db_bench

headline = Headline(take_option(sys.argv))
build = os.path.abspath(sys.argv[1])
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
options = sys.argv[3] if len(sys.argv) > 3 else ""
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
work, db_bench = build_db_bench(build)
db = os.path.join(work, "db")

env = dict(os.environ, COMPARE_LIMIT="3")
if options:
    env["COMPARE_OPTIONS"] = options
worst = []
for i in range(runs):
    shutil.rmtree(db, ignore_errors=True)
    os.makedirs(db)
    r = subprocess.run([sys.executable,
                        os.path.join(root, "test", "rt", "Inputs",
                                     "compare_perf.py"), db_bench,
                        "--threads=4", "--benchmarks=fillrandom,readrandom",
                        "--num=200000", "--db=" + db],
                       env=env, capture_output=True, text=True, check=True)
    lines = [l for l in r.stderr.replace("\r", "\n").splitlines()
             if "cumulative perf" in l or "stand for" in l
             or "perf lost" in l]
    print("run %d:" % (i + 1))
    for l in lines:
        print("  " + l)
    for l in r.stdout.splitlines():
        if "finished" in l:
            continue
        print("  " + l)
        m = re.search(r"cumulative shares: ([\d.]+) points", l)
        if m:
            worst.append(float(m.group(1)))
print("largest difference per run: %s points (limit 3)" %
      ", ".join("%.1f" % w for w in worst))
if worst:
    headline.add("difference", "largest difference in the top 10 functions' "
                 "cumulative shares, median of %d runs" % len(worst),
                 statistics.median(worst), "points",
                 baseline_label="perf record --call-graph dwarf, the same "
                 "process", digits=1,
                 note="per run: %s" % ", ".join("%.1f" % w for w in worst))
headline.write()
shutil.rmtree(work, ignore_errors=True)
