#!/usr/bin/env python3
"""Runs a command and prints, as its last line, the CPU time (user +
system, in seconds) of the command and what it waited for. Under a
profiler that starts it (`perf record -- bench/child_cpu.py PROGRAM ...`),
that is the program's CPU time without the profiler's own process.

usage: bench/child_cpu.py PROGRAM [ARG...]"""

import resource
import subprocess
import sys

subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL,
               stderr=subprocess.DEVNULL)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f" % (usage.ru_utime + usage.ru_stime))
