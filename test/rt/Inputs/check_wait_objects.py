"""Checks a wait dump of test/rt/Inputs/wait_objects.cpp (wait-objects.cpp):
each lock object's wait in the JSON dump against the wait the program
measured itself, within the tolerance given (a fraction)."""
import json
import re
import sys

args = sys.argv[1:]
pprof_top = None
if "--pprof-total" in args:
    i = args.index("--pprof-total")
    pprof_top = open(args[i + 1]).read()
    del args[i:i + 2]
out, tolerance = open(args[0]).read(), float(args[1])
dumps = [json.loads(l) for p in args[2:] for l in open(p) if l.strip()]
if pprof_top is not None:
    # go tool pprof -top: "Showing nodes accounting for 2.99s, 29.94% of ..."
    m = re.search(r"Showing nodes accounting for ([0-9.]+)(m?s)", pprof_top)
    assert m, pprof_top
    total = float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)
    measured = float(re.search(r"big_lock at 0x[0-9a-f]+: waited ([0-9.]+) s",
                               out).group(1))
    print("pprof -tagfocus=object=big_lock: %s %d%% of the program's own "
          "measure (%.3f s, measured %.3f s)"
          % ("within" if abs(total - measured) <= tolerance * measured
             else "NOT within", round(100 * tolerance), total, measured))
    sys.exit(0)
waits = dumps[-1]["waits"]
# A condition variable's threads sleep on a word inside it (glibc: its
# __g_signals, at byte 40 or 44 of 48): every word of the object counts.
sizes = {"big_lock": 40, "Shard::mu": 40, "Ready": 48}
for name, size in sizes.items():
    m = re.search(re.escape(name) + r" at (0x[0-9a-f]+): waited ([0-9.]+) s",
                  out)
    assert m, out
    addr, measured = int(m.group(1), 16), float(m.group(2))
    rows = [w for w in waits if w.get("address") and
            addr <= int(w["address"], 16) < addr + size]
    reported = sum(w["wait_ns"] for w in rows) / 1e9
    near = abs(reported - measured) <= tolerance * measured
    threads = len({w["thread"] for w in rows})
    print("%s: %s, %d thread%s, wait %s %d%% of the program's own measure "
          "(%.3f s, measured %.3f s)"
          % (name, "/".join(sorted({w["region"] for w in rows})) or "none",
             threads, "" if threads == 1 else "s",
             "within" if near else "NOT within", round(100 * tolerance),
             reported, measured))
print(re.search(r"EINTR \d+", out).group(0))
