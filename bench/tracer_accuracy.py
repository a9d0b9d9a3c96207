#!/usr/bin/env python3
"""The atomic tracer's accuracy: how many samples it takes against the
process's CPU time, and how many land where the time went, for the mixes of
threads profiled programs have (test/rt/Inputs/idle_threads.c):
  idle    one busy thread (about 0.6 s of CPU) on an atomic loop, a
          nanosleep loop and a condition wait
  short   40 short-lived busy threads one after another, and the idle ones
and (test/rt/Inputs/signal_users.c) a thread that works with every signal
blocked while the main thread takes signals with sigwaitinfo. Each is run
RUNS times at the default 1000 Hz with call stacks; prints, per mix, the
median and range of samples / (CPU time x rate) (1.000: exact), the share
of the samples in the busy function, the interrupted sleeps (which must be
0), and the share of samples with a stack.

usage: bench/tracer_accuracy.py BUILD_DIR [RUNS] [--headline FILE]
--headline FILE: also write the figures as JSON (bench/headline.py)."""

import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

from headline import Headline, take_option

headline = Headline(take_option(sys.argv))
build = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
work = tempfile.mkdtemp()
inputs = os.path.join(root, "test", "rt", "Inputs")


def build_program(name):
    exe = os.path.join(work, name)
    subprocess.run([os.path.join(build, "bin", "pcmap-clang"), "-O1", "-g",
                    "-fno-omit-frame-pointer", "-pthread",
                    "-fsanitize-metadata=all",
                    os.path.join(inputs, name + ".c"), "-o", exe], check=True)
    return exe


MIXES = (("idle", "idle_threads", ["idle"], "spin_on_atomic"),
         ("short-lived", "idle_threads", ["short"], "spin_on_atomic"),
         ("signals blocked", "signal_users", ["sigwaitinfo"],
          "work_on_atomic"))


def run(exe, args, function, index):
    prefix = os.path.join(work, "trace%d" % index)
    # Named in the process: the report is read here, not by pcmap-report.
    env = dict(os.environ, PCMAP_OPTIONS="trace_atomics=1:report_format=json"
               ":trace_symbolize_json=1:report_path=" + prefix)
    out = subprocess.run([exe] + args, env=env, check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    with open(glob.glob(prefix + ".*")[0]) as f:
        r = json.loads(f.read().splitlines()[-1])
    expected = r["cpu_ns"] * r["hz"] / 1e9
    busy = sum(f["samples"] for f in r["functions"] if f["function"] == function)
    stacked = sum(s["samples"] for s in r["stacks"])
    m = re.search(r"interrupted sleeps: (\d+)", out)
    return (r["samples"] / expected, busy / r["samples"],
            int(m.group(1)) if m else 0, stacked / r["samples"])


print("%-16s %24s %16s %12s %12s" % ("mix (%d runs)" % runs,
                                     "samples / CPU x rate", "in busy fn",
                                     "EINTRs", "with stack"))
index = 0
for label, program, args, function in MIXES:
    exe = build_program(program)
    results = []
    for _ in range(runs):
        results.append(run(exe, args, function, index))
        index += 1
    ratio = [r[0] for r in results]
    print("%-16s %8.3f (%.3f-%.3f) %15.1f%% %12d %11.1f%%" %
          (label, statistics.median(ratio), min(ratio), max(ratio),
           100 * statistics.median(r[1] for r in results),
           sum(r[2] for r in results),
           100 * statistics.median(r[3] for r in results)))
    headline.add(label.replace(" ", "_"),
                 "samples against CPU time x rate, %s (%s)" % (
                     label, " ".join([program] + args)),
                 statistics.median(ratio), "", baseline=1.0,
                 baseline_label="CPU time x rate", digits=3,
                 note="%.1f%% of the samples in the busy function" %
                 (100 * statistics.median(r[1] for r in results)))
headline.write()
