"""Checks a tracer's stacks, as `pcmap-report trace --format=folded` prints
them (outermost frame first), for test/rt/tracer-unwind.c: every stack
starts at its thread's start, no frame lies outside a module, and the
callers' shares of the helper take() and of the comparator by_value.

Usage: check_unwind.py FOLDED
"""
import collections
import sys

stacks = []
with open(sys.argv[1]) as f:
    for line in f:
        frames, _, count = line.rstrip("\n").rpartition(" ")
        # "take [atomic cmpxchg ...]": the site's frame names its atomic.
        names = [f.split(" [")[0] for f in frames.split(";")]
        stacks.append((names, int(count)))

total = sum(n for _, n in stacks)
starts = ("_start", "clone", "clone3")
at_start = sum(n for fr, n in stacks if fr[0] in starts)
outside = sum(n for fr, n in stacks if any(f.startswith("0x") for f in fr))
print("samples:", "many" if total >= 300 else total)
print("stacks from the thread's start: %s" % (at_start == total))
for fr, n in stacks:
    if fr[0] not in starts:
        print("  from %s: %d" % (";".join(fr), n))
print("frames outside a module: %d" % outside)


def callers(function):
    """The share of function's samples under each direct caller."""
    shares = collections.Counter()
    for fr, n in stacks:
        if function in fr:
            i = fr.index(function)
            shares[fr[i - 1] if i else "(none)"] += n
    all_ = sum(shares.values())
    return {c: round(100.0 * n / all_) for c, n in shares.items()}, all_


take, n = callers("take")
print("take's callers: %s" % sorted(take))
# Both threads run take() the whole time: each caller's share is half.
print("take's callers share it: %s" %
      all(35 <= take.get(c, 0) <= 65 for c in ("reader_loop", "writer_loop")))
compare, n = callers("by_value")
# The comparator is called by the C library's sort, which sorter called.
through_sorter = sum(c for fr, c in stacks
                     if "by_value" in fr and "sorter" in fr and "main" in fr)
print("by_value called from the C library: %s" %
      (bool(compare) and "sorter" not in compare and "(none)" not in compare))
print("by_value's stacks through sorter and main: %s" % (through_sorter == n))
