"""Runs test/rt/Inputs/racy.c under the race detector (detect_races=1) up
to RUNS times, each phase on its own for SECONDS, until both racy counters
are reported, and says what was reported where: the racy counters by their
names and lines, never the atomic counter, the relaxed flag or the locked
counter.
  check_races.py [--run PREFIX] PROGRAM RUNS SECONDS [PCMAP_OPTIONS]
PREFIX (lit's %run: qemu-user for another machine's program) is put before
the program's command."""
import os
import re
import shlex
import subprocess
import sys

args = sys.argv[1:]
prefix = []
if args[:1] == ["--run"]:
    prefix, args = shlex.split(args[1]), args[2:]
program, runs, seconds = args[0], int(args[1]), args[2]
options = "detect_races=1" + (":" + args[3] if len(args) > 3 else "")
found = {}
false = []
first = {}
for phase in ["global", "heap", "atomic", "flag", "locked"]:
    for _ in range(runs if phase in ("global", "heap") else 2):
        out = subprocess.run(prefix + [program, seconds, phase],
                             env=dict(os.environ, PCMAP_OPTIONS=options),
                             capture_output=True, text=True).stderr
        for r in re.finditer(r"(WARNING: pcmap: data race.*?SUMMARY: "
                             r"pcmap: data race (\S+) in (\S+))", out, re.S):
            text, where, fn = r.group(1), r.group(2), r.group(3)
            loc = re.search(r"Location is (.*)", text).group(1)
            if phase in ("global", "heap"):
                found.setdefault(phase, (os.path.basename(where), fn, loc))
                first.setdefault(phase, text)
            else:
                false.append((phase, where, fn))
        if phase in found:
            break
for phase in ("global", "heap"):
    if phase in found:
        where, fn, loc = found[phase]
        print("%s: reported at %s in %s, location %s" % (phase, where, fn, loc))
    else:
        print("%s: not reported in %d runs" % (phase, runs))
print("atomic, flag, locked: %s" %
      ("; ".join("%s at %s in %s" % f for f in false) or "no report"))
if "global" in first:
    print(first["global"])
