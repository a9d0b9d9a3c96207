"""Compares the numbers two runs printed on one line: the first number of
LINE in A and in B, within PERCENT of A's.

Usage: within.py PERCENT A B"""

import re
import sys

percent, a, b = float(sys.argv[1]), sys.argv[2], sys.argv[3]


def first_number(path):
    with open(path) as f:
        m = re.search(r"\d+", f.read())
    if not m:
        sys.exit("%s: no number" % path)
    return int(m.group(0))


x, y = first_number(a), first_number(b)
ok = abs(y - x) <= x * percent / 100
print("%d against %d: %s %g%%" % (y, x, "within" if ok else "not within",
                                   percent))
