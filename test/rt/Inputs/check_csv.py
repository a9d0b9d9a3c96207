"""Reads a report written with report_format=csv (the file given with
.PID appended) with Python's csv module and prints its header and the first
row's fields named on the command line, for FileCheck."""

import csv
import glob
import sys

paths = glob.glob(sys.argv[1] + ".*")
if len(paths) != 1:
    sys.exit("expected one report file, found %r" % paths)
with open(paths[0], newline="") as f:
    rows = list(csv.DictReader(f))
print("rows: %d" % len(rows))
for field in sys.argv[2:]:
    print("%s: %s" % (field, rows[0][field]))
