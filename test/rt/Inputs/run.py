"""Runs a command, prints its standard output and error (merged, in order)
and then how it ended: "status: exit N" or "status: killed by SIGNAME".
Always exits 0, so that FileCheck decides."""

import signal
import subprocess
import sys

proc = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
sys.stdout.write(proc.stdout.decode("utf-8", "replace"))
if proc.returncode < 0:
    print("status: killed by %s" % signal.Signals(-proc.returncode).name)
else:
    print("status: exit %d" % proc.returncode)
