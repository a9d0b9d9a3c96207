"""Paired rounds: a benchmark that runs pcmap and its baseline side by side
in each round summarises the rounds' ratios here.

The geometric mean of the ratios, with a 95 % confidence interval from the
t distribution of their logarithms: the rounds are independent pairs, and
a ratio's logarithm is symmetric where the ratio is not (0.5x and 2x are
as far from 1x). A benchmark whose runs vary by 10 % needs some 40 rounds
to tell a 2 % overhead from none; the interval says whether it did."""

import math
import os
import statistics

# The t distribution's 97.5th percentile by degrees of freedom; beyond the
# table, the normal distribution's (1.96), which 120 degrees reach within
# 1 %.
_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447,
         7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131,
         20: 2.086, 25: 2.060, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}


def t975(dof):
    """The t distribution's 97.5th percentile, conservatively: that of the
    nearest tabled degrees of freedom at or below dof."""
    below = [d for d in _T975 if d <= dof]
    return _T975[max(below)] if below else float("inf")


def ratio_interval(values, baselines):
    """(geometric mean, low, high) of values[i] / baselines[i], the bounds
    of a 95 % confidence interval; low and high are the mean itself with a
    single pair."""
    logs = [math.log(v / b) for v, b in zip(values, baselines)]
    if not logs:
        raise ValueError("no pairs")
    mean = statistics.mean(logs)
    if len(logs) < 2:
        return math.exp(mean), math.exp(mean), math.exp(mean)
    half = t975(len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
    return math.exp(mean), math.exp(mean - half), math.exp(mean + half)


def take_cpus(argv):
    """Removes `--cpus LIST` (or `--cpus=LIST`; LIST as taskset's: 0,2-3)
    from argv; returns the set of CPUs, or None.

    A contended program's runs on several cores vary with how its threads
    meet (a spinlock's holder preempted while the others spin): on one
    core its time is its CPU time, and a small overhead shows."""
    text = None
    for i, arg in enumerate(argv):
        if arg == "--cpus" and i + 1 < len(argv):
            text = argv[i + 1]
            del argv[i:i + 2]
            break
        if arg.startswith("--cpus="):
            text = arg.split("=", 1)[1]
            del argv[i]
            break
    if text is None:
        return None
    cpus = set()
    for part in text.split(","):
        low, _, high = part.partition("-")
        cpus.update(range(int(low), int(high or low) + 1))
    return cpus


def pinned(cpus):
    """A preexec_fn for subprocess that runs the child (and what it starts)
    on cpus; None for no pinning."""
    if not cpus:
        return None
    return lambda: os.sched_setaffinity(0, cpus)
