#!/usr/bin/env python3
"""The atomic tracer's overhead on the demo (examples/refcache.cpp, built
with frame pointers, as profiled code is).

Each round runs the demo once in each mode, in an order that rotates from
round to round, so that a change of the machine's load falls on every mode:

  off       without the tracer
  timer     without the tracer, a task-clock event on each thread that
            expires every millisecond of its CPU time and does nothing else
            (bench/clock_event_exec.c): the timer behind any sampler at
            1000 Hz, alone, the floor of perf's cost and the tracer's on
            this machine (left out where perf events are refused)
  perf      without the tracer, under `perf record -e task-clock -c 1000000`
            (a sample per millisecond of each thread's CPU time, no call
            graphs): what the sampler people use today costs at the same
            rate, its own process left out (left out where perf is missing
            or refused; its wall time includes perf's start and its file)
  flat      1000 Hz, no call stacks (trace_stack_depth=0)
  stacks    1000 Hz, 32-frame call stacks and each sample's data (the
            default: task-clock events where the kernel allows them, about
            1000 signals per second)
  nodata    the same without the data (trace_data=0): stacks against it is
            the cost of naming the data each sample touches
  tick      the same with CPU-time timers alone (trace_high_resolution=0:
            one signal per clock tick, 250 per second on many kernels)
  text      the same, with the text report at exit, which starts
            llvm-symbolizer to name the sites and their callers

The first three write the JSON report (report_format=json), whose names
pcmap-report gives offline, as a profiler records a profile and names it
later: their overhead is the sampling's. The text report's extra time is a
fixed cost at exit, printed apart, in milliseconds.

For each mode: the median wall time and CPU time (user + system, the
symbolizer's included) over the rounds, and the median over the rounds of
the ratio to the run without the tracer in the same round. For the JSON
modes, the samples against the process's CPU time times the rate (1.000:
exact).

usage: bench/tracer_overhead.py BUILD_DIR [ROUNDS] [LOOKUPS_PER_THREAD]
                                [--cpus LIST] [--headline FILE]
--cpus LIST: run the demo on these CPUs (as taskset's LIST). On the
  machine's cores its threads contend on one counter and on the kernel's
  memory map, and its time moves with how they meet (it ran faster traced,
  whose signals space them out); on one core its time is its CPU time.
--headline FILE: also write the figures as JSON (bench/headline.py)."""

import glob
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from headline import Headline, take_option
from paired import pinned, ratio_interval, take_cpus

headline = Headline(take_option(sys.argv))
cpus = take_cpus(sys.argv)
build = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 11
lookups = int(sys.argv[3]) if len(sys.argv) > 3 else 40000000
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
tmp = tempfile.mkdtemp()
exe = os.path.join(tmp, "refcache")
subprocess.run([os.path.join(build, "bin", "pcmap-clang++"), "-O2", "-g",
                "-pthread", "-fno-omit-frame-pointer",
                "-fsanitize-metadata=all",
                os.path.join(root, "examples", "refcache.cpp"), "-o", exe],
               check=True)

CLOCK_EVENT = [os.path.join(tmp, "clock_event_exec")]
subprocess.run(["cc", "-O2", os.path.join(root, "bench", "clock_event_exec.c"),
                "-o", CLOCK_EVENT[0]], check=True)

JSON = ":report_format=json:report_path=" + os.path.join(tmp, "trace")
PERF = ["perf", "record", "-q", "-e", "task-clock", "-c", "1000000", "-o",
        os.path.join(tmp, "perf.data"), "--", sys.executable,
        os.path.join(root, "bench", "child_cpu.py")]
MODES = (("off", "tracer off", "trace_atomics=0"),
         ("timer", "1000 Hz task-clock event alone", "trace_atomics=0"),
         ("perf", "perf record, 1000 Hz", "trace_atomics=0"),
         ("flat", "1000 Hz, no stacks", "trace_atomics=1:trace_stack_depth=0" +
          JSON),
         ("stacks", "1000 Hz, stacks, data", "trace_atomics=1" + JSON),
         ("nodata", "1000 Hz, stacks, no data",
          "trace_atomics=1:trace_data=0" + JSON),
         ("tick", "1000 Hz, stacks, tick only",
          "trace_atomics=1:trace_high_resolution=0" + JSON),
         ("text", "1000 Hz, stacks, text report", "trace_atomics=1"))
try:
    subprocess.run(PERF + ["true"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
except (OSError, subprocess.CalledProcessError):
    MODES = tuple(m for m in MODES if m[0] != "perf")
if subprocess.run(CLOCK_EVENT + ["true"], stdout=subprocess.DEVNULL,
                  stderr=subprocess.DEVNULL).returncode:
    MODES = tuple(m for m in MODES if m[0] != "timer")


def run(key, options):
    for old in glob.glob(os.path.join(tmp, "trace.*")):
        os.unlink(old)
    env = dict(os.environ, PCMAP_OPTIONS=options)
    command = [exe, "--lookups", str(lookups)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    prefix = PERF if key == "perf" else CLOCK_EVENT if key == "timer" else []
    out = subprocess.run(prefix + command,
                         env=env, check=True, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True,
                         preexec_fn=pinned(cpus))
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if key == "perf":
        # The demo's own, without perf's process (bench/child_cpu.py).
        cpu = float(out.stdout.split()[-1])
    accuracy = signals = None
    reports = glob.glob(os.path.join(tmp, "trace.*"))
    if reports:
        with open(reports[0]) as f:
            r = json.loads(f.read().splitlines()[-1])
        expected = r["cpu_ns"] * r["hz"] / 1e9
        accuracy = r["samples"] / expected if expected else 0
        if r.get("observations") and r["cpu_ns"]:
            signals = r["observations"] * 1e9 / r["cpu_ns"]
    return wall, cpu, accuracy, signals


results = {k: [] for k, _, _ in MODES}
for i in range(rounds):
    order = MODES[i % len(MODES):] + MODES[:i % len(MODES)]
    for k, _, options in order:
        results[k].append(run(k, options))

print("refcache, %d lookups per thread, %d rounds%s; signals/s: sampling "
      "signals per second of CPU time" %
      (lookups, rounds,
       ", on CPUs " + ",".join(map(str, sorted(cpus))) if cpus else ""))
print("%-30s %8s %8s %10s %10s %9s %9s" % ("mode", "wall s", "cpu s",
                                            "wall/off", "cpu/off", "accuracy",
                                            "signals/s"))
for k, label, _ in MODES:
    wall = statistics.median(r[0] for r in results[k])
    cpu = statistics.median(r[1] for r in results[k])
    wall_ratio = statistics.median(
        r[0] / o[0] for r, o in zip(results[k], results["off"]))
    cpu_ratio = statistics.median(
        r[1] / o[1] for r, o in zip(results[k], results["off"]))
    accuracies = [r[2] for r in results[k] if r[2] is not None]
    rates = [r[3] for r in results[k] if r[3] is not None]
    print("%-30s %8.3f %8.3f %+9.1f%% %+9.1f%% %9s %9s" %
          (label, wall, cpu, 100 * (wall_ratio - 1), 100 * (cpu_ratio - 1),
           "%.3f" % statistics.median(accuracies) if accuracies else "-",
           "%.0f" % statistics.median(rates) if rates else "-"))
    if k in ("timer", "perf", "flat", "stacks", "nodata", "tick"):
        # The rounds' CPU time ratios' geometric mean with its 95 %
        # confidence interval (bench/paired.py).
        mean, low, high = ratio_interval([r[1] for r in results[k]],
                                         [o[1] for o in results["off"]])
        print("%-30s cpu/off geometric mean %+.1f%%, 95%% confidence "
              "%+.1f%% to %+.1f%%" % ("", 100 * (mean - 1), 100 * (low - 1),
                                      100 * (high - 1)))
        off_cpu = statistics.median(r[1] for r in results["off"])
        headline.add("cpu_" + k, "refcache's CPU time, %s" % label, cpu,
                     "s", baseline=off_cpu, baseline_label="tracer off",
                     ratio=cpu_ratio, digits=3, ratio_of="rounds",
                     note="geometric mean of the rounds' ratios %.3f, 95 %% "
                     "confidence %.3f to %.3f" % (mean, low, high))
    if k == "stacks" and accuracies:
        headline.add("accuracy", "samples against CPU time x rate, %s" %
                     label, statistics.median(accuracies), "", baseline=1.0,
                     baseline_label="CPU time x rate", digits=3)
if "timer" in results:
    # What each sampler adds to the timer it cannot do without, in points of
    # the untraced CPU time: the median of the rounds' differences.
    for k in ("perf", "stacks"):
        if k in results:
            print("%s beyond the timer alone: %+.1f points of CPU time (median "
                  "of the rounds')" %
                  ("perf record" if k == "perf" else "the tracer (stacks, data)",
                   100 * statistics.median(
                       (r[1] - t[1]) / o[1] for r, t, o in zip(
                           results[k], results["timer"], results["off"]))))
fixed = statistics.median(t[0] - s[0]
                          for t, s in zip(results["text"], results["stacks"]))
fixed_cpu = statistics.median(t[1] - s[1]
                              for t, s in zip(results["text"], results["stacks"]))
print("text report at exit: %+.0f ms wall, %+.0f ms CPU (median of the "
      "rounds' differences)" % (1000 * fixed, 1000 * fixed_cpu))
headline.write()
