"""Checks a tracer JSON report (report_format=json): the counts add up, and
the hottest site is the atomic of the function named on the command line.
A report that leaves the names to pcmap-report trace (the default for a
module with a build ID) is named here from the program's symbol table.
Prints what it checked, for FileCheck.

Usage: check_trace.py PREFIX HOT_FUNCTION [NM PROGRAM]"""

import glob
import json
import subprocess
import sys

paths = sorted(glob.glob(sys.argv[1] + ".*"))
if len(paths) != 1:
    sys.exit("expected one report file, found %r" % paths)
with open(paths[0]) as f:
    lines = f.read().splitlines()
# One line per dump (JSON Lines); this program dumps once, at exit.
assert len(lines) == 1, len(lines)
r = json.loads(lines[0])
hot_function = sys.argv[2]

assert r["report"] == "pcmap-trace" and r["version"] == 6, r
assert len(r["run"]) == 16 and int(r["run"], 16) and r["parent_run"] == "", r
assert r["dump"] == 1 and r["reason"] == "exit" and r["final"] is True, r
assert r["cpu_ns"] > 0 and r["ppid"] > 0, r
assert r["samples"] > 0, r
assert r["covered_samples"] + r["uncovered_samples"] == r["samples"], r
assert r["atomic_samples"] <= r["covered_samples"], r
assert r["dropped_samples"] == 0, r
sites, functions = r["sites"], r["functions"]
assert len(sites) == r["distinct_sites"], (len(sites), r["distinct_sites"])
assert len(functions) == r["distinct_functions"], r
assert sum(s["samples"] for s in sites) == r["atomic_samples"], r
for s in sites + functions:
    assert int(s["build_id"], 16) and len(s["build_id"]) >= 16, s
    assert int(s["module_offset"], 16) > 0 and s["module"].endswith("/prog"), s
for s in sites:
    assert s["samples"] == s["exact_samples"] + s["skid_samples"], s
assert sum(f["samples"] for f in functions) == r["covered_samples"], r
assert sum(f["atomic_samples"] for f in functions) == r["atomic_samples"], r
counts = [s["samples"] for s in sites]
assert counts == sorted(counts, reverse=True), counts
named = [bool(s["function"]) for s in sites + functions]
assert all(named) or not any(named), named
print("names: %s" % ("given by the process" if all(named)
                     else "left to pcmap-report"))


def name_from_symbols(offset):
    nm, program = sys.argv[3:5]
    for line in subprocess.check_output(
            [nm, "-S", "--defined-only", program], text=True).splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            start, size = int(parts[0], 16), int(parts[1], 16)
            if start <= offset < start + size:
                return parts[3]
    return "?"


top = sites[0]
function = top["function"] or name_from_symbols(int(top["module_offset"], 16))
print("top site: %s %s %s %d bytes %s" % (function, top["kind"], top["op"],
                                          top["size"], top["order"]))
print("top share above a tenth: %s" % (top["share"] > 0.1))
print("counts add up")
