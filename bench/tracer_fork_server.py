#!/usr/bin/env python3
"""The atomic tracer's cost on the forking test server
(test/rt/Inputs/fork_server.c: a listener that forks a worker per
connection; the workers contend on an atomic counter and a spinlock in
shared memory while a client drives them): runs the server alternately
without and with PCMAP_OPTIONS=trace_atomics=1 (default rate, 1000 Hz,
JSON reports per process), RUNS times each, and prints the median
throughput (requests/s) of each with its spread, the overhead, and how the
traced runs' samples compare with the workers' CPU time.

usage: bench/tracer_fork_server.py BUILD_DIR [RUNS [CONNECTIONS [SECONDS]]]"""

import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

build = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
connections = sys.argv[3] if len(sys.argv) > 3 else "8"
seconds = sys.argv[4] if len(sys.argv) > 4 else "3"
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
work = tempfile.mkdtemp()
exe = os.path.join(work, "fork_server")
subprocess.run([os.path.join(build, "bin", "pcmap-clang"), "-O2", "-g",
                "-fsanitize-metadata=all",
                os.path.join(root, "test", "rt", "Inputs", "fork_server.c"),
                "-o", exe], check=True)

SUMMARY = re.compile(r"requests/s: ([\d.]+), worker cpu ms: ([\d.]+)")


def run(traced, index):
    env = dict(os.environ)
    env.pop("PCMAP_OPTIONS", None)
    prefix = os.path.join(work, "trace%d" % index)
    if traced:
        env["PCMAP_OPTIONS"] = ("trace_atomics=1:report_format=json:"
                                "report_path=" + prefix)
    out = subprocess.run([exe, connections, seconds], env=env, check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    m = SUMMARY.search(out)
    rate, cpu_ms = float(m.group(1)), float(m.group(2))
    samples = 0
    for path in glob.glob(prefix + ".*"):
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if r["parent_run"]:  # a worker
                    samples += r["samples"]
    return rate, cpu_ms, samples


off, on, ratios = [], [], []
for i in range(runs):
    off.append(run(False, 2 * i)[0])
    rate, cpu_ms, samples = run(True, 2 * i + 1)
    on.append(rate)
    ratios.append(samples / cpu_ms)  # at 1000 Hz, one sample per ms


def show(name, xs):
    print("%-22s median %10.1f requests/s (min %.1f, max %.1f)" %
          (name, statistics.median(xs), min(xs), max(xs)))


print("fork_server, %s connections, %s s, %d runs each, alternating" %
      (connections, seconds, runs))
show("without tracing", off)
show("trace_atomics=1", on)
overhead = 1 - statistics.median(on) / statistics.median(off)
print("throughput overhead:   %.2f%% (median against median)" % (100 * overhead))
print("worker samples / worker CPU ms: median %.3f (min %.3f, max %.3f)" %
      (statistics.median(ratios), min(ratios), max(ratios)))
