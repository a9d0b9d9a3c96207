"""Checks the races of the tracer's JSON dumps (version 6) against
pcmap-report trace's merge of them:
  check_race_dumps.py MERGED.json DUMP...
Each dump's last line: every race's frames lie in a module the dump lists
(the list is written after the races' modules are collected), each side
has a kind, size and thread, and the location has a name; then the counts
of the merge add up to the dumps'."""
import json
import sys

merged = json.load(open(sys.argv[1]))
total, names, processes = 0, set(), 0
for path in sys.argv[2:]:
    lines = [l for l in open(path) if l.strip()]
    d = json.loads(lines[-1])
    assert d["version"] == 6, d["version"]
    races = d.get("races", [])
    processes += bool(races)
    for r in races:
        sides = [r["access"]] + ([r["other"]] if r["other_known"] else [])
        for s in sides:
            assert s["kind"] in ("read", "write", "rmw") and s["size"] > 0, s
            assert s["thread"] > 0 and s["frames"], s
            for m, off in s["frames"]:
                assert 0 <= m < len(d["modules"]), (m, len(d["modules"]))
                int(off, 16)
        assert r["count"] > 0 and int(r["address"], 16)
        names.add(r["address_name"])
        total += r["count"]
print("dumps with races: %d; locations: %s" % (processes, ", ".join(sorted(names))))
report = merged["races"]
merged_total = sum(r["count"] for r in report["races"])
print("merged: counts %s" % ("add up" if merged_total == total else
                             "do not add up (%d, dumps %d)" % (merged_total, total)))
