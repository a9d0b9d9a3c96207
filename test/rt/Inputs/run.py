"""Runs a command, prints its standard output and error (merged, in order)
and then how it ended: "status: exit N" or "status: killed by SIGNAME".
Always exits 0, so that FileCheck decides. Under qemu-user (%run), qemu's
own note on the signal that ended the program is left out."""

import signal
import subprocess
import sys

proc = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
out = proc.stdout.decode("utf-8", "replace")
out = "".join(l for l in out.splitlines(True)
              if not l.startswith("qemu: uncaught target signal"))
sys.stdout.write(out)
if proc.returncode < 0:
    print("status: killed by %s" % signal.Signals(-proc.returncode).name)
else:
    print("status: exit %d" % proc.returncode)
