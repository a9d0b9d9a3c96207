"""Checks a wait dump (test/rt/wait-lock.c): the program's output (the
lock's address, the wait it measured, EINTR) against the JSON dump."""
import json
import re
import subprocess
import sys

out = open(sys.argv[1]).read()
m = re.search(r"big_lock at (0x[0-9a-f]+): waited ([0-9.]+) s; EINTR (\d+)", out)
assert m, out
addr, measured, eintr = int(m.group(1), 16), float(m.group(2)), int(m.group(3))
dumps = [json.loads(l) for p in sys.argv[2:] for l in open(p) if l.strip()]
d = dumps[-1]
print("version %d, wait_hz %d" % (d["version"], d["wait_hz"]))
rows = [w for w in d["waits"] if w.get("address") and int(w["address"], 16) == addr]
assert rows, d["waits"]
assert all(w["syscall"] == "futex" and w["region"] == "module" for w in rows)
holders = [w for w in rows if w["holder"] and w["holder_stack"] >= 0]
print("big_lock: region module, holders %s"
      % ("named" if holders else "missing"))
ns = sum(w["wait_ns"] for w in rows) / 1e9
print("wait %s 50%% of the program's own measure (%.3f s, measured %.3f s)"
      % ("within" if abs(ns - measured) <= 0.5 * measured else "NOT within",
         ns, measured))
pipes = [w for w in d["waits"] if w["syscall"] == "read" and
         w.get("file", "").startswith("pipe:[")]
print("pipe: read on %s" % (pipes[0]["file"] if pipes else "nothing"))
print("EINTR %d" % eintr)
