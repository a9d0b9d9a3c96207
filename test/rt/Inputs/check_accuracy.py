"""Checks a tracer JSON report against the process's CPU time: the samples
are the CPU time times the rate within a tolerance, and a share of them is
in the function named on the command line.
Usage: check_accuracy.py REPORT_PREFIX FUNCTION MIN_SHARE"""

import glob
import json
import sys

paths = sorted(glob.glob(sys.argv[1] + ".*"))
if len(paths) != 1:
    sys.exit("expected one report file, found %r" % paths)
with open(paths[0]) as f:
    r = json.loads(f.read().splitlines()[-1])
function, min_share = sys.argv[2], float(sys.argv[3])
expected = r["cpu_ns"] * r["hz"] / 1e9
ratio = r["samples"] / expected
in_function = sum(f["samples"] for f in r["functions"]
                  if f["function"] == function)
share = in_function / r["samples"] if r["samples"] else 0
print("samples %d, expected %.0f from the CPU time, ratio %.3f; %.1f%% in %s"
      % (r["samples"], expected, ratio, 100 * share, function),
      file=sys.stderr)
print("samples within 10%% of CPU time x rate: %s" % (abs(ratio - 1) <= 0.10))
print("at least %.0f%% in %s: %s" % (100 * min_share, function,
                                     share >= min_share))
