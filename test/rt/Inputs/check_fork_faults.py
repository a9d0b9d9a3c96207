"""Runs PROGRAM (Inputs/fork_faults.c) without the tracer and with it
(text and JSON reports at exit) and prints how many more page faults a
forked child that exits at once takes with the tracer, and whether that
is at most LIMIT. Page faults, not time: a child's count varies by a few.

Usage: check_fork_faults.py LIMIT DIR PROGRAM"""

import os
import re
import subprocess
import sys

limit, out_dir, program = int(sys.argv[1]), sys.argv[2], sys.argv[3]


def child_faults(options):
    env = dict(os.environ)
    env.pop("PCMAP_OPTIONS", None)
    if options:
        env["PCMAP_OPTIONS"] = options + ":report_path=" + os.path.join(
            out_dir, "report")
    out = subprocess.run([program], env=env, check=True, capture_output=True,
                         text=True).stdout
    return int(re.search(r"child faults: (\d+)", out).group(1))


plain = child_faults("")
ok = True
for name, options in (("text", "trace_atomics=1"),
                      ("json", "trace_atomics=1:report_format=json")):
    extra = child_faults(options) - plain
    print("%s report: %d more faults per child" % (name, extra),
          file=sys.stderr)
    ok = ok and extra <= limit
print("extra faults per child within %d: %s" % (limit, ok))
