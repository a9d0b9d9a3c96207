#!/usr/bin/env python3
"""many.py N: one dump with N atomic sites (N, N-1, ..., 1 samples) in one
function, for the tests of --top."""
import json
import sys

n = int(sys.argv[1])
module = "/nonexistent/pcmap-trace-test/many"
sites = [{"pc": hex(0x400000 + 16 * i), "module": module,
          "module_offset": hex(0x1000 + 16 * i), "build_id": "",
          "function": "f", "function_start": "0x400000",
          "function_offset": 16 * i, "location": "", "kind": "load", "op": "",
          "size": 4, "order": "acquire", "failure_order": "",
          "samples": n - i, "exact_samples": n - i, "skid_samples": 0,
          "share": 0} for i in range(n)]
total = sum(s["samples"] for s in sites)
print(json.dumps({
    "report": "pcmap-trace", "version": 2, "pid": 7, "ppid": 1,
    "run": "7777777777777777", "parent_run": "", "dump": 1, "reason": "api",
    "final": False, "hz": 1000, "threads": 1, "cpu_ns": total * 1000000,
    "samples": total, "atomic_samples": total, "covered_samples": total,
    "uncovered_samples": 0, "dropped_samples": 0, "distinct_sites": n,
    "distinct_functions": 1, "sites": sites,
    "functions": [{"start": "0x400000", "module": module,
                   "module_offset": "0x1000", "build_id": "", "function": "f",
                   "samples": total, "atomic_samples": total,
                   "atomic_share": 1.0}]}))
