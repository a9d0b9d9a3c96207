"""Prints each dump of the one tracer JSON report file PREFIX* (one line per
dump) and whether their counts never decrease (dumps are cumulative)."""

import glob
import json
import sys

paths = glob.glob(sys.argv[1] + "*")
assert len(paths) == 1, paths
with open(paths[0]) as f:
    dumps = [json.loads(line) for line in f]
previous = None
cumulative = True
for d in dumps:
    top = d["sites"][0]["function"] if d["sites"] else "-"
    print("dump %d %s final=%s top=%s" % (d["dump"], d["reason"], d["final"], top))
    if previous is not None:
        cumulative &= d["samples"] >= previous["samples"] and d["run"] == previous["run"]
    previous = d
print("cumulative: %s" % cumulative)
