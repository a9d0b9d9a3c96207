"""Starts PROGRAM (its PCMAP_OPTIONS from the environment), waits until it
prints "ready", then sends it the dump signal COUNT times, waiting each
time until the report file (REPORT_PREFIX.<pid>) has one more line, then
kills it with SIGKILL. Prints what it did, for FileCheck.

usage: signal_dumps.py COUNT REPORT_PREFIX PROGRAM [ARGS...]"""

import os
import signal
import subprocess
import sys
import time

count, prefix, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
assert proc.stdout.readline().strip() == "ready"
path = "%s.%d" % (prefix, proc.pid)


def lines():
    try:
        with open(path) as f:
            return f.read().count("\n")
    except FileNotFoundError:
        return 0


for i in range(count):
    time.sleep(0.3)
    proc.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 60
    while lines() < i + 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    print("dump %d: %s" % (i + 1, "written" if lines() == i + 1 else "missing"))
proc.kill()
proc.wait()
print("killed: %s" % (proc.returncode == -signal.SIGKILL))
print("report: %s" % path)
