#!/usr/bin/env python3
"""status.py N COMMAND...: runs COMMAND and succeeds if it exits with
status N (a crash is a negative status and never matches)."""
import subprocess
import sys

status = subprocess.call(sys.argv[2:])
if status != int(sys.argv[1]):
    print("status.py: exit status %d, expected %s" % (status, sys.argv[1]),
          file=sys.stderr)
    sys.exit(1)
