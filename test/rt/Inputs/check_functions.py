"""Checks a function report (report_format=json or csv, the file given with
.PID appended) against llvm-nm -S: every row of the program's module names a
symbol of the program at the same address, with nm's size and demangled
name; every function nm lists in the program's object file is in the report.

usage: check_functions.py REPORT json|csv PROGRAM OBJECT"""

import csv
import glob
import json
import subprocess
import sys

report, fmt, program, obj = sys.argv[1:5]
paths = glob.glob(report + ".*")
if len(paths) != 1:
    sys.exit("expected one report file, found %r" % paths)
with open(paths[0], newline="") as f:
    if fmt == "json":
        r = json.load(f)
        assert r["report"] == "pcmap-functions" and r["version"] == 1, r
        rows = r["functions"]
        assert r["totals"]["functions"] == len(rows), r["totals"]
        assert r["totals"]["size"] == sum(x["size"] for x in rows)
        assert r["totals"]["atomics"] == sum(x["atomics"] for x in rows)
    else:
        rows = list(csv.DictReader(f))
        for x in rows:
            for k in ("size", "atomics", "load", "store", "rmw", "cmpxchg", "fence", "unknown", "asm"):
                x[k] = int(x[k])

def nm(path):
    out = subprocess.run(["llvm-nm", "-S", "-C", "--defined-only", path],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split(" ", 3)
        if len(parts) == 4 and parts[2] in ("T", "t", "W", "w"):
            syms.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    return syms

prog_syms = nm(program)
mine = [x for x in rows if x["module"].endswith("/" + program.split("/")[-1])]
assert mine, "no rows for the program"
# Bias: the report gives run-time addresses; match by name, then check the
# bias is the same for every row.
by_name = {name: (addr, size) for addr, size, name in prog_syms}
biases = set()
for x in mine:
    name = x["function"]
    assert name in by_name, "%s is not a function of the program" % name
    addr, size = by_name[name]
    assert x["size"] == size, (name, x["size"], size)
    biases.add(int(x["start"], 16) - addr)
    kinds = sum(x[k] for k in ("load", "store", "rmw", "cmpxchg", "fence", "unknown"))
    assert kinds == x["atomics"], x
    assert 0 <= x["asm"] <= x["atomics"], x
assert len(biases) == 1, biases
sizes = [x["size"] for x in rows]
assert sizes == sorted(sizes, reverse=True), "not sorted by size"
reported = {x["function"] for x in mine}
for addr, size, name in nm(obj):
    # The registration constructors the compiler adds are not instrumented.
    if name.endswith((".module_ctor", ".module_dtor")):
        continue
    assert name in reported, "%s missing from the report" % name
for x in sorted(mine, key=lambda x: x["function"]):
    print("%s size=ok atomics=%d load=%d store=%d rmw=%d cmpxchg=%d fence=%d features=%s"
          % (x["function"], x["atomics"], x["load"], x["store"], x["rmw"], x["cmpxchg"],
             x["fence"], ",".join(x["features"]) if isinstance(x["features"], list) else x["features"]))
