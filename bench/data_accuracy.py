#!/usr/bin/env python3
"""How right the tracer's data table is (docs/Tracer.md, "Data"), on
programs whose contended lines are known: the five phases of
test/rt/Inputs/data_sharing.c (two counters of one struct, one per thread:
false sharing; the struct padded to two lines: no sharing; one counter both
threads bump: true sharing; the struct on the heap: false sharing; plain
per-thread counters in one array: false sharing) and
test/rt/Inputs/data_mutex.c (three threads on one global pthread_mutex_t,
locked in the C library's code, which has no tables).

Each program runs RUNS times with the tracer at 1000 Hz and its text report
at exit; for each run, the report's hottest line must carry the expected
verdict and name the expected objects (members as the runtime names them:
the data symbol and the offset in it). Printed per case: the runs that were
right, the median share of the samples whose access was recorded, and the
median share of those on the expected line (both lines for the padded
struct).

usage: bench/data_accuracy.py BUILD_DIR [RUNS] [--headline FILE]
--headline FILE: also write the figures as JSON (bench/headline.py)."""

import os
import re
import statistics
import subprocess
import sys
import tempfile

from headline import Headline, take_option

headline = Headline(take_option(sys.argv))
build = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
tmp = tempfile.mkdtemp()


def compile_input(name):
    exe = os.path.join(tmp, name)
    subprocess.run([os.path.join(build, "bin", "pcmap-clang"), "-O2", "-g",
                    "-pthread", "-fsanitize-metadata=all",
                    os.path.join(root, "test", "rt", "Inputs", name + ".c"),
                    "-o", exe], check=True)
    return exe


SUMMARY = re.compile(r"pcmap: data: (\d+) samples \(([\d.]+)%\)")
LINE = re.compile(r"^  0x[0-9a-f]+  (.*): (\d+) samples")
MEMBER = re.compile(r"^      \+ *\d+ +\d+ bytes  (.*?): \d+ samples")


def data_table(text):
    """The data table of a text report: (data samples, share of all
    samples), and its lines as (verdict, samples, [member names])."""
    lines, summary = [], None
    for row in text.splitlines():
        m = SUMMARY.match(row)
        if m:
            summary = (int(m.group(1)), float(m.group(2)))
            continue
        m = LINE.match(row)
        if m and summary:
            lines.append((m.group(1), int(m.group(2)), []))
            continue
        m = MEMBER.match(row)
        if m and lines:
            lines[-1][2].append(m.group(1))
    return summary, lines


# id, name, program, arguments, lines expected first: (verdict, objects)
CASES = (
    ("struct", "false sharing, struct", "data_sharing", ["0"],
     [("false sharing", {"stats", "stats+8"})]),
    ("padded", "padded struct", "data_sharing", ["1"],
     [("no sharing", {"padded"}), ("no sharing", {"padded+128"})]),
    ("shared", "true sharing, one counter", "data_sharing", ["2"],
     [("true sharing", {"shared_counter"})]),
    ("heap", "false sharing, heap struct", "data_sharing", ["3"],
     [("false sharing", {"heap"})]),
    ("plain", "false sharing, plain array", "data_sharing", ["4"],
     [("false sharing", {"plain_counts", "plain_counts+8"})]),
    ("mutex", "contended global mutex", "data_mutex", [],
     [(None, {"big_lock"})]),
)


def right(lines, expected):
    """Whether the report's first lines are the expected ones, in any
    order; and the share of the data samples they hold."""
    top = lines[:len(expected)]
    if len(top) < len(expected):
        return False, 0.0
    unmatched = list(expected)
    for verdict, _, members in top:
        names = {re.sub(r"\+\d+$", "", m) if "big_lock" in m else m
                 for m in members}
        for e in unmatched:
            if (e[0] is None or e[0] == verdict) and (
                    e[1] <= names if e[0] is None else names == e[1]):
                unmatched.remove(e)
                break
    return not unmatched, sum(s for _, s, _ in top)


programs = {}
print("data_accuracy: %d runs per case, 1000 Hz, text report at exit" % runs)
print("%-28s %7s %18s %22s" % ("case", "right", "samples with data",
                               "data on expected line"))
for id, name, program, args, expected in CASES:
    if program not in programs:
        programs[program] = compile_input(program)
    ok, with_data, on_line = 0, [], []
    for _ in range(runs):
        env = dict(os.environ,
                   PCMAP_OPTIONS="trace_atomics=1:trace_top=%d" % len(expected))
        out = subprocess.run([programs[program]] + args, env=env, check=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True).stderr
        summary, lines = data_table(out)
        if not summary:
            continue
        good, samples = right(lines, expected)
        ok += good
        with_data.append(summary[1])
        on_line.append(100.0 * samples / summary[0] if summary[0] else 0)
    on_expected = statistics.median(on_line) if on_line else 0
    print("%-28s %3d/%-3d %17.1f%% %21.1f%%" %
          (name, ok, runs,
           statistics.median(with_data) if with_data else 0, on_expected))
    headline.add("right_" + id, "%s: runs whose hottest line is right" % name,
                 ok, "of %d runs" % runs,
                 baseline_label="perf c2c and perf mem: no memory events "
                 "in a VM", difference=True)
    headline.add("on_line_" + id, "%s: data samples on the expected line" %
                 name, on_expected, "%", digits=1)
headline.write()
