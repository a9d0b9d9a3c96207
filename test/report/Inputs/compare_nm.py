"""Compares pcmap-report's functions from a symbol table with llvm-nm -S.

Usage: compare_nm.py NM_OUTPUT CSV_REPORT: NM_OUTPUT is `llvm-nm -S
--defined-only` of a file, CSV_REPORT `pcmap-report functions
--format=csv` of it. Every sized text symbol (t, T, W; one name per
address, as the report keeps one) must be a row with the same size.
Prints "same N functions" or the differences."""

import csv
import sys

nm = {}
for line in open(sys.argv[1]):
    fields = line.split()
    if len(fields) == 4 and fields[2] in "tTwW" and int(fields[1], 16):
        nm.setdefault(int(fields[0], 16), (fields[3], int(fields[1], 16)))
report = {}
for row in csv.DictReader(open(sys.argv[2])):
    report[int(row["address"], 16)] = (row["mangled_name"], int(row["size"]))
if {a: s for a, (_, s) in nm.items()} == {a: s for a, (_, s) in report.items()}:
    print("same %d functions" % len(nm))
else:
    for a in sorted(set(nm) | set(report)):
        if nm.get(a, (0, 0))[1] != report.get(a, (0, 0))[1]:
            print("0x%x: llvm-nm %s, pcmap-report %s" % (a, nm.get(a), report.get(a)))
