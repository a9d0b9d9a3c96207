"""Compares two runs of sliced_threads.c, without and with the tracer: the
traced one's preemptions per second of CPU time are at most 30 % more (the
tracer that ended time slices early: 1.9 times as many), with a margin of
40 a second for a machine whose other work preempts them."""
import re
import sys


def rate(path):
    with open(path) as f:
        m = re.search(r"preemptions per CPU second: (\d+)", f.read())
    if not m:
        sys.exit("%s: no preemption count" % path)
    return int(m.group(1))


off, on = rate(sys.argv[1]), rate(sys.argv[2])
print("preemptions per CPU second: %d untraced, %d traced" % (off, on))
if on > 1.3 * off + 40:
    sys.exit("the traced run was preempted %.1f times as often" % (on / off))
