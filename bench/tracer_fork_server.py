#!/usr/bin/env python3
"""The atomic tracer's cost on the forking test server
(test/rt/Inputs/fork_server.c: a listener that forks a worker per
connection; the workers contend on an atomic counter and a spinlock in
shared memory while a client drives them), built with frame pointers:
runs the server alternately without the tracer, without it under a
task-clock event on each thread of each process that expires every
millisecond of its CPU time and does nothing else
(bench/clock_event_exec.c: the timer behind any sampler at 1000 Hz,
always on; the workers switch at every request, and an event of a
thread's own makes each switch dearer, which the tracer's duty windows
bound; left out where perf events are refused), with
the tracer at the default
1000 Hz without call stacks (trace_stack_depth=0), with its default stacks
and data (JSON reports per process), with stacks but without the data
each sample touches (trace_data=0), and with stacks and data on the
kernel's tick alone (trace_high_resolution=0: no clock events, so no duty
windows for the workers, which block at every request), RUNS rounds of the
six in an order that
rotates from round to round, and prints the median
throughput (requests/s) of each with its spread and the workers' CPU time
per request, the overheads (median against median, the median of each
round's traced run against the untraced one beside it, and the geometric
mean of those ratios with its 95 % confidence interval: bench/paired.py),
and how the traced
runs' samples compare with the workers' CPU time.

usage: bench/tracer_fork_server.py BUILD_DIR [RUNS [CONNECTIONS [SECONDS]]]
                                     [--cpus LIST] [--headline FILE]
--cpus LIST: run the server and its client on these CPUs (as taskset's
  LIST): on one, the workers' throughput is their CPU time's, and the runs
  vary by a few per cent where on two cores their spinlock's contention moves
  them by 10 %.
--headline FILE: also write the figures as JSON (bench/headline.py).
TRACER_OPTIONS: more tracer options for the traced runs."""

import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

from headline import Headline, take_option
from paired import pinned, ratio_interval, take_cpus

headline = Headline(take_option(sys.argv))
cpus = take_cpus(sys.argv)
build = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
connections = sys.argv[3] if len(sys.argv) > 3 else "8"
seconds = sys.argv[4] if len(sys.argv) > 4 else "3"
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
work = tempfile.mkdtemp()
exe = os.path.join(work, "fork_server")
subprocess.run([os.path.join(build, "bin", "pcmap-clang"), "-O2", "-g",
                "-fno-omit-frame-pointer", "-fsanitize-metadata=all",
                os.path.join(root, "test", "rt", "Inputs", "fork_server.c"),
                "-o", exe], check=True)

CLOCK_EVENT = [os.path.join(work, "clock_event_exec")]
subprocess.run(["cc", "-O2", os.path.join(root, "bench", "clock_event_exec.c"),
                "-o", CLOCK_EVENT[0]], check=True)
if subprocess.run(CLOCK_EVENT + ["true"], stdout=subprocess.DEVNULL,
                  stderr=subprocess.DEVNULL).returncode:
    CLOCK_EVENT = None

SUMMARY = re.compile(r"requests/s: ([\d.]+), worker cpu ms: ([\d.]+)")


def run(traced, index, stacks=True, data=True, tick=False, timer=False):
    env = dict(os.environ)
    env.pop("PCMAP_OPTIONS", None)
    prefix = os.path.join(work, "trace%d" % index)
    if traced:
        env["PCMAP_OPTIONS"] = ("trace_atomics=1:report_format=json:"
                                "report_path=" + prefix +
                                ("" if stacks else ":trace_stack_depth=0") +
                                ("" if data else ":trace_data=0") +
                                (":trace_high_resolution=0" if tick else "") +
                                # More options for every traced run, e.g.
                                # trace_high_resolution=0.
                                (":" + os.environ["TRACER_OPTIONS"]
                                 if os.environ.get("TRACER_OPTIONS") else ""))
    out = subprocess.run((CLOCK_EVENT if timer else []) +
                         [exe, connections, seconds], env=env, check=True,
                         stdout=subprocess.PIPE, text=True,
                         preexec_fn=pinned(cpus)).stdout
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


off, timed, flat, on, nodata, ticked, ratios = [], [], [], [], [], [], []
MODES = ((off, False, True, True, False, False),
         (timed, False, True, True, False, True),
         (flat, True, False, True, False, False),
         (on, True, True, True, False, False),
         (nodata, True, True, False, False, False),
         (ticked, True, True, True, True, False))
if not CLOCK_EVENT:
    MODES = MODES[:1] + MODES[2:]
for i in range(runs):
    # The modes in an order that rotates from round to round: a run that
    # always came first (after the previous round's last run, whose eight
    # workers and their sockets the kernel is still tearing down) would
    # carry that position's bias into every ratio.
    for j in range(len(MODES)):
        k = (i + j) % len(MODES)
        results, traced, stacks, data, tick, timer = MODES[k]
        results.append(run(traced, len(MODES) * i + k, stacks=stacks,
                           data=data, tick=tick, timer=timer))
    ratios.append(on[-1][2] / on[-1][1])  # at 1000 Hz, one sample per ms


def rate(r):
    return r[0]


def cpu_per_request(r):
    """Microseconds of the workers' CPU time per request."""
    return 1000.0 * r[1] / (r[0] * float(seconds))


def show(name, xs):
    rates = [rate(r) for r in xs]
    print("%-26s median %10.1f requests/s (min %.1f, max %.1f), "
          "%.2f us of worker CPU per request" %
          (name, statistics.median(rates), min(rates), max(rates),
           statistics.median(cpu_per_request(r) for r in xs)))


print("fork_server, %s connections, %s s, %d runs each, alternating%s" %
      (connections, seconds, runs,
       ", on CPUs " + ",".join(map(str, sorted(cpus))) if cpus else ""))
show("without tracing", off)
if timed:
    show("1000 Hz task-clock alone", timed)
show("1000 Hz, no stacks", flat)
show("1000 Hz, stacks, data", on)
show("1000 Hz, stacks, no data", nodata)
show("1000 Hz, stacks, tick only", ticked)
# Each round's traced run against the untraced run beside it: the machine's
# drift over the benchmark (other load, frequency) cancels out.
for name, xs in ((("timer alone", timed),) if timed else ()) + (
        ("no stacks", flat), ("stacks", on), ("stacks no data", nodata),
        ("stacks tick only", ticked)):
    throughput = [1 - rate(t) / rate(o) for t, o in zip(xs, off)]
    cpu = [cpu_per_request(t) / cpu_per_request(o) - 1
           for t, o in zip(xs, off)]
    # The rounds' ratios' geometric mean and its 95 % confidence interval:
    # the untraced server's runs vary by some 10 %, so that the interval
    # says whether the rounds told the overhead from none.
    mean, low, high = ratio_interval([rate(t) for t in xs],
                                     [rate(o) for o in off])
    print("overhead, %-10s throughput %.2f%% (median against median), "
          "%.2f%% (median of the rounds'), %.2f%% (geometric mean of the "
          "rounds', 95%% confidence %.2f%% to %.2f%%); CPU per request "
          "%.2f%% (median of the rounds')" %
          (name + ":", 100 * (1 - statistics.median(map(rate, xs)) /
                              statistics.median(map(rate, off))),
           100 * statistics.median(throughput), 100 * (1 - mean),
           100 * (1 - high), 100 * (1 - low), 100 * statistics.median(cpu)))
    headline.add("throughput_" + name.replace(" ", "_"),
                 "fork_server requests/s, 1000 Hz, %s" % name,
                 statistics.median(map(rate, xs)), "requests/s",
                 baseline=statistics.median(map(rate, off)),
                 baseline_label="without tracing",
                 ratio=1 - statistics.median(throughput), digits=0,
                 ratio_of="rounds",
                 note="geometric mean of the rounds' ratios %.3f, 95 %% "
                 "confidence %.3f to %.3f" % (mean, low, high))
    headline.add("cpu_" + name.replace(" ", "_"),
                 "workers' CPU per request, 1000 Hz, %s" % name,
                 statistics.median(cpu_per_request(r) for r in xs), "µs",
                 baseline=statistics.median(cpu_per_request(r) for r in off),
                 baseline_label="without tracing",
                 ratio=1 + statistics.median(cpu), digits=2,
                 ratio_of="rounds")
print("worker samples / worker CPU ms (stacks): median %.3f (min %.3f, max %.3f)" %
      (statistics.median(ratios), min(ratios), max(ratios)))
headline.write()
