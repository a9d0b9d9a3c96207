#!/usr/bin/env python3
"""What a task-clock sampling event costs a thread at each context switch
(bench/event_switch_cost.c): two threads hand a turn to each other through
a futex on one CPU, without an event, with a counting event each, with a
sampling event each (1 ms periods, SIGTRAP: a timer the kernel stops and
starts at every switch of its thread, as the runtime's per-thread events),
and with copies of one inherited sampling event (swapped at a switch
between the two, as perf record's and the runtime's process event), in an
order that rotates from round to round. For each mode: the median
microseconds a round (two switches) and the median over the rounds of the
extra time a switch against the run without an event.

usage: bench/event_switch_cost.py [ROUNDS [HANDOVERS]] [--cpus LIST]
                                  [--headline FILE]
Needs perf events that sample kernel mode (perf_event_paranoid at most 1,
or root) and a C compiler (cc)."""

import os
import statistics
import subprocess
import sys
import tempfile

from headline import Headline, take_option
from paired import pinned, take_cpus

headline = Headline(take_option(sys.argv))
cpus = take_cpus(sys.argv) or {0}
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 11
handovers = sys.argv[2] if len(sys.argv) > 2 else "100000"
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
tmp = tempfile.mkdtemp()
exe = os.path.join(tmp, "event_switch_cost")
subprocess.run(["cc", "-O2", "-pthread",
                os.path.join(root, "bench", "event_switch_cost.c"), "-o", exe],
               check=True)
MODES = (("none", "no event"),
         ("counting", "a counting event each"),
         ("own", "a sampling event each"),
         ("inherited", "copies of one sampling event"))


def run(mode):
    out = subprocess.run([exe, mode, handovers], check=True,
                         stdout=subprocess.PIPE, text=True,
                         preexec_fn=pinned(cpus)).stdout.split()
    return float(out[0])


results = {m: [] for m, _ in MODES}
for i in range(rounds):
    order = MODES[i % len(MODES):] + MODES[:i % len(MODES)]
    for m, _ in order:
        results[m].append(run(m))

print("two threads handing a turn over through a futex, %s hand-overs a "
      "run, %d rounds, on CPU %s" % (handovers, rounds,
                                     ",".join(map(str, sorted(cpus)))))
print("%-32s %12s %16s" % ("mode", "us a round", "us a switch more"))
extra = {}
for m, label in MODES:
    per_round = statistics.median(results[m])
    extra[m] = statistics.median(
        (r - o) / 2 for r, o in zip(results[m], results["none"]))
    print("%-32s %12.2f %16.2f" % (label, per_round, extra[m]))
    if m == "none":
        continue
    headline.add(m, "a round (two switches), " + label, per_round, "us",
                 baseline=statistics.median(results["none"]),
                 baseline_label="no event", digits=2)
headline.write()
