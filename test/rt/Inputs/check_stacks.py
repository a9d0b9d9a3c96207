"""Checks the call stacks of a tracer's JSON dump (version 3 and later) against the
program's symbol table: every frame's module is listed, the stacks hold
every sample (or count it as dropped), the hot site's stacks go through its
caller, and a function's time in the C library is charged to it.

Usage: check_stacks.py DUMP PROGRAM NM SITE_FUNCTION CALLER UNCOVERED_CALLER
"""
import json
import subprocess
import sys

dump, program, nm, site_fn, caller, uncovered_caller = sys.argv[1:7]
with open(dump) as f:
    r = [json.loads(line) for line in f if line.strip()][-1]

# Function ranges from the symbol table: offset -> name.
ranges = []
for line in subprocess.check_output([nm, "-S", "--defined-only", program],
                                    text=True).splitlines():
    parts = line.split()
    if len(parts) == 4 and parts[2] in "tTwW":
        ranges.append((int(parts[0], 16), int(parts[1], 16), parts[3]))


def name_of(module, offset):
    if module < 0 or r["modules"][module]["path"] != program:
        return None
    for start, size, name in ranges:
        if start <= offset < start + size:
            return name
    return None


def names(stack):
    return [name_of(m, int(o, 16)) for m, o in stack["frames"]]


print("version:", r["version"], "depth:", r["stack_depth"])
assert all(-1 <= m < len(r["modules"]) for s in r["stacks"]
           for m, _ in s["frames"]), "a frame names no listed module"
program_module = [m for m in r["modules"] if m["path"] == program]
print("program listed with a build ID:",
      bool(program_module and program_module[0]["build_id"]))
in_stacks = sum(s["samples"] for s in r["stacks"])
# Every sample is in a stack or counted as dropped, the periods a thread
# ran after its last signal included.
print("stacks hold every sample: %s (%d in stacks, %d dropped, %d samples)" %
      (in_stacks + r["stack_samples_dropped"] == r["samples"], in_stacks,
       r["stack_samples_dropped"], r["samples"]))

site = [s for s in r["sites"] if s["function"] == site_fn][0]
site_offset = int(site["module_offset"], 16)
through = [s for s in r["stacks"] if s["frames"][0][1] == site["module_offset"]]
via = sum(s["samples"] for s in through if caller in names(s)[1:])
print("hot site's samples in stacks: %s" %
      (sum(s["samples"] for s in through) >= 0.9 * site["samples"]))
print("hot site's stacks through %s: %s" %
      (caller, via >= 0.9 * sum(s["samples"] for s in through)))
fn = [f for f in r["functions"] if f["function"] == uncovered_caller][0]
print("%s charged with time in uncovered callees: %s" %
      (uncovered_caller,
       fn["uncovered_callee_samples"] > 0.5 * fn["samples"]))
