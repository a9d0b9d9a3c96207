#!/usr/bin/env python3
"""What sampling at 1000 Hz costs on this machine, the tracer's and
perf's: one thread's fixed CPU-bound work (bench/cpu_loop.c), pinned to
one CPU, its CPU time (the program's own clock: a profiler's process is
not counted) in each mode, in an order that rotates from round to round:

  off      without the tracer
  perf     without the tracer, under `perf record -e task-clock -c 1000000`
           (a sample per millisecond of the thread's CPU time, no call
           graphs): the cost of a per-thread high-resolution timer alone,
           which no sampler at that rate avoids (left out where perf is
           missing or refused)
  timer    without the tracer, a task-clock event the loop opens on itself
           that expires every millisecond of its CPU time and sends no
           signal (bench/cpu_loop.c): the timer alone, the floor of any
           sampler at 1000 Hz (left out where perf events are refused)
  flat     the tracer at 1000 Hz, no stacks, no data
  stacks   the tracer at its defaults (1000 Hz, stacks, data)
  tick     the tracer at the defaults on the kernel's tick alone
           (trace_high_resolution=0: no timer of its own)

For each: the median CPU time, and the median over the rounds of the ratio
to the run without a profiler beside it; with the tracer's signals in the
same rounds, the cost per sampling signal beyond perf's per sample.

usage: bench/tracer_timer_cost.py BUILD_DIR [ROUNDS [ITERATIONS]]
                                  [--headline FILE]"""

import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile

from headline import Headline, take_option

headline = Headline(take_option(sys.argv))
build = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 11
iterations = sys.argv[3] if len(sys.argv) > 3 else "300000"
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
tmp = tempfile.mkdtemp()
exe = os.path.join(tmp, "cpu_loop")
subprocess.run([os.path.join(build, "bin", "pcmap-clang"), "-O2", "-g",
                "-fno-omit-frame-pointer", "-fsanitize-metadata=all",
                os.path.join(root, "bench", "cpu_loop.c"), "-o", exe],
               check=True)

JSON = ":report_format=json:report_path=" + os.path.join(tmp, "trace")
PERF = ["perf", "record", "-q", "-e", "task-clock", "-c", "1000000", "-o",
        os.path.join(tmp, "perf.data"), "--"]
MODES = [("off", "no profiler", "trace_atomics=0", ()),
         ("perf", "perf record, 1000 Hz", "trace_atomics=0", PERF),
         ("timer", "1000 Hz task-clock event alone", "trace_atomics=0", ()),
         ("flat", "tracer 1000 Hz, no stacks or data",
          "trace_atomics=1:trace_stack_depth=0:trace_data=0" + JSON, ()),
         ("stacks", "tracer 1000 Hz, defaults", "trace_atomics=1" + JSON, ()),
         ("tick", "tracer, tick only",
          "trace_atomics=1:trace_high_resolution=0" + JSON, ())]
try:
    subprocess.run(PERF + ["true"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
except (OSError, subprocess.CalledProcessError):
    MODES = [m for m in MODES if m[0] != "perf"]
if subprocess.run([exe, "1", "timer"], stdout=subprocess.DEVNULL,
                  stderr=subprocess.DEVNULL).returncode:
    MODES = [m for m in MODES if m[0] != "timer"]

CPU = sorted(os.sched_getaffinity(0))[-1]


def run(key, options, prefix):
    for old in glob.glob(os.path.join(tmp, "trace.*")):
        os.unlink(old)
    env = dict(os.environ, PCMAP_OPTIONS=options)
    out = subprocess.run(list(prefix) + [exe, iterations] +
                         (["timer"] if key == "timer" else []), env=env,
                         check=True, stdout=subprocess.PIPE, text=True,
                         stderr=subprocess.DEVNULL,
                         preexec_fn=lambda: os.sched_setaffinity(0, {CPU}))
    ms = float(out.stdout.split()[-1])
    signals = None
    for path in glob.glob(os.path.join(tmp, "trace.*")):
        with open(path) as f:
            signals = json.loads(f.read().splitlines()[-1])["observations"]
    return ms, signals


results = {m[0]: [] for m in MODES}
for i in range(rounds):
    order = MODES[i % len(MODES):] + MODES[:i % len(MODES)]
    for key, _, options, prefix in order:
        results[key].append(run(key, options, prefix))

print("cpu_loop, %s iterations, one thread pinned to CPU %d, %d rounds" %
      (iterations, CPU, rounds))
print("%-36s %10s %10s %9s" % ("mode", "cpu ms", "cpu/off", "signals"))
off = results["off"]
for key, label, _, _ in MODES:
    ms = statistics.median(r[0] for r in results[key])
    ratio = statistics.median(r[0] / o[0] for r, o in zip(results[key], off))
    signals = [r[1] for r in results[key] if r[1] is not None]
    print("%-36s %10.1f %+9.1f%% %9s" %
          (label, ms, 100 * (ratio - 1),
           "%.0f" % statistics.median(signals) if signals else "-"))
    if key != "off":
        headline.add("cpu_" + key, "cpu_loop's CPU time, %s" % label, ms, "ms",
                     baseline=statistics.median(r[0] for r in off),
                     baseline_label="no profiler", ratio=ratio, digits=1,
                     ratio_of="rounds")
for key, what in (("perf", "perf's per sample"),
                  ("timer", "the timer's alone per expiry")):
    if key not in results:
        continue
    # The tracer's cost per signal beyond that: (tracer - it) / signals,
    # median over the rounds.
    extra = [(s[0] - p[0]) * 1000 / s[1]
             for s, p in zip(results["stacks"], results[key]) if s[1]]
    if extra:
        print("the tracer's cost per signal beyond %s: %.1f us (median of "
              "the rounds')" % (what, statistics.median(extra)))
headline.write()
