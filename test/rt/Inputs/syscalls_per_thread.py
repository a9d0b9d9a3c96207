"""The system calls a thread's start and end cost in PROGRAM beyond BASELINE
(the same program without the runtime): each is run under strace -f -c with
N threads and with none (test/rt/Inputs/thread_churn.c), and the difference
per thread compared with LIMIT. Prints the calls that differ when it is over.

Usage: syscalls_per_thread.py BASELINE PROGRAM N LIMIT"""

import collections
import os
import subprocess
import sys
import tempfile

baseline, program, n, limit = (sys.argv[1], sys.argv[2], int(sys.argv[3]),
                               float(sys.argv[4]))
tmp = tempfile.mkdtemp()


def counts(exe, threads):
    """{system call: calls} of a run."""
    log = os.path.join(tmp, "strace")
    subprocess.run(["strace", "-f", "-c", "-o", log, exe, str(threads)],
                   check=True, stdout=subprocess.DEVNULL)
    c = collections.Counter()
    for line in open(log):
        f = line.split()
        if len(f) >= 5 and f[0][0].isdigit() and f[-1] != "total":
            c[f[-1]] = int(f[3])
    return c


def per_thread(exe):
    a, b = counts(exe, n), counts(exe, 0)
    return {k: (a[k] - b[k]) / n for k in set(a) | set(b)}


plain, pcmap = per_thread(baseline), per_thread(program)
# A thread's calls are whole; a few futex calls more or less in a run are
# the threads' timing, not their cost.
extra = round(sum(pcmap.values()) - sum(plain.values()))
print("system calls a thread: plain %.1f, pcmap %.1f: %+d, %s %g" %
      (sum(plain.values()), sum(pcmap.values()), extra,
       "within" if extra <= limit else "over", limit))
if extra > limit:
    for k in sorted(set(plain) | set(pcmap)):
        if abs(pcmap.get(k, 0) - plain.get(k, 0)) >= 0.5:
            print("  %s: %.1f against %.1f" % (k, pcmap.get(k, 0),
                                               plain.get(k, 0)))
