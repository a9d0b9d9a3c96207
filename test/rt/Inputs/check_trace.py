"""Checks a tracer JSON report (report_format=json): the counts add up, and
the hottest site is the atomic of the function named on the command line.
Prints what it checked, for FileCheck."""

import glob
import json
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

assert r["report"] == "pcmap-trace" and r["version"] == 3, r
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
top = sites[0]
print("top site: %s %s %s %d bytes %s" % (top["function"], top["kind"], top["op"], top["size"], top["order"]))
print("top share above a tenth: %s" % (top["share"] > 0.1))
print("counts add up")
