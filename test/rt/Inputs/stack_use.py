"""Compares how much of a stack the pcmap build used with the plain build.

Usage: stack_use.py BOUND PLAIN PCMAP...: each file holds the line
"used N bytes" a run of test/rt/Inputs/stack_bounds.c printed. Prints, for
each pcmap run, how many bytes it used beyond the plain run and whether that
is within BOUND bytes."""

import re
import sys


def used(path):
    with open(path) as f:
        text = f.read()
    m = re.search(r"^used (\d+) bytes$", text, re.M)
    if not m:
        sys.exit("%s: no 'used N bytes' line in:\n%s" % (path, text))
    return int(m.group(1))


bound = int(sys.argv[1])
plain = used(sys.argv[2])
for path in sys.argv[3:]:
    extra = used(path) - plain
    verdict = "within" if extra <= bound else "OVER"
    print("%s: %d bytes beyond the plain build's %d: %s the bound of %d"
          % (path.rsplit("/", 1)[-1], extra, plain, verdict, bound))
