"""Runs test/rt/Inputs/racy.c under the race detector (detect_races=1) up
to RUNS times, each phase on its own for SECONDS, until both racy counters
are reported, and says what was reported where: the racy counters by their
names and lines, never the atomic counter, the relaxed flag or the locked
counter.
  check_races.py PROGRAM RUNS SECONDS [PCMAP_OPTIONS]"""
import os
import re
import subprocess
import sys

program, runs, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3]
options = "detect_races=1" + (":" + sys.argv[4] if len(sys.argv) > 4 else "")
found = {}
false = []
first = {}
for phase in ["global", "heap", "atomic", "flag", "locked"]:
    for _ in range(runs if phase in ("global", "heap") else 2):
        out = subprocess.run([program, seconds, phase],
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
