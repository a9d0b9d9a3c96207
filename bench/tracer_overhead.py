#!/usr/bin/env python3
"""The atomic tracer's overhead on the demo (examples/refcache.cpp, built
with frame pointers, as profiled code is): runs the demo alternately
without the tracer, with it at the default 1000 Hz without call stacks
(trace_stack_depth=0), and with its default 32-frame stacks, RUNS times
each, and prints the median wall time and CPU time (user + system) of each,
and the overheads against the run without the tracer.

usage: bench/tracer_overhead.py BUILD_DIR [RUNS]"""

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

build = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
exe = os.path.join(tempfile.mkdtemp(), "refcache")
subprocess.run([os.path.join(build, "bin", "pcmap-clang++"), "-O2", "-g", "-pthread",
                "-fno-omit-frame-pointer", "-fsanitize-metadata=all",
                os.path.join(root, "examples", "refcache.cpp"),
                "-o", exe], check=True)


def run(options):
    env = dict(os.environ, PCMAP_OPTIONS=options)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([exe], env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


MODES = (("off", "tracer off", "trace_atomics=0"),
         ("flat", "1000 Hz, no stacks", "trace_atomics=1:trace_stack_depth=0"),
         ("stacks", "1000 Hz, stacks", "trace_atomics=1"))
results = {k: [] for k, _, _ in MODES}
for _ in range(runs):
    for k, _, options in MODES:
        results[k].append(run(options))
print("%-22s %10s %10s" % ("refcache (%d runs)" % runs, "wall s", "cpu s"))
med = {}
for k, label, _ in MODES:
    wall = statistics.median(w for w, _ in results[k])
    cpu = statistics.median(c for _, c in results[k])
    med[k] = (wall, cpu)
    print("%-22s %10.3f %10.3f" % (label, wall, cpu))
for k, label, _ in MODES[1:]:
    print("%-22s %+9.1f%% %+9.1f%%" %
          ("overhead, " + k, 100 * (med[k][0] / med["off"][0] - 1),
           100 * (med[k][1] / med["off"][1] - 1)))
