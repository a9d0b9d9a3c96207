"""Reads the output of run_until.py for racy.c under the race detector and
says when the races were reported: whether the first warning came before
the program's "racy: done" (at detection, not at exit), and whether the
exit summary counts as many races as there were warnings (none written
twice)."""
import re
import sys

out = sys.stdin.read()
warnings = [m.start() for m in re.finditer(r"WARNING: pcmap: data race", out)]
done = out.find("racy: done")
found = re.search(r"pcmap: data races: (\d+) found", out)
print("warnings before racy: done: %s" %
      ("yes" if warnings and done >= 0 and warnings[0] < done else "no"))
print("warnings %s the races found" %
      ("match" if found and int(found.group(1)) == len(warnings) else
       "do not match (%d warnings, %s)" % (len(warnings), found and found.group(0))))
