"""Runs a program up to RUNS times until its output (stdout and stderr, as
they interleave) matches REGEX, for the race detector's sampled reports:
prints the output of the run that matched (or of the last run) and its
exit status.
  run_until.py RUNS REGEX PROGRAM [ARG]..."""
import re
import subprocess
import sys

runs, pattern, argv = int(sys.argv[1]), re.compile(sys.argv[2], re.S), sys.argv[3:]
for run in range(runs):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if pattern.search(p.stdout):
        break
else:
    print("run_until.py: no match in %d runs" % runs)
sys.stdout.write(p.stdout)
print("exit status: %d" % p.returncode)
