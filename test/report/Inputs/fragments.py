#!/usr/bin/env python3
"""Checks the split functions of a `pcmap-report functions --format=json`
document against `llvm-nm -S` of the same file: a function's size is the sum
of its symbol's and its fragment symbols' sizes (F, F.__part.N, F.cold,
F.eh), its fragments are exactly those symbols, and its atomics are those of
its fragments plus its entry's.

  fragments.py REPORT.json NM.txt FUNCTION
"""

import json
import re
import sys


def main():
    report, nm, name = sys.argv[1:4]
    with open(report) as f:
        doc = json.load(f)
    sizes = {}
    with open(nm) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 4:
                sizes.setdefault(parts[3], int(parts[1], 16))
    pattern = re.compile(r"^%s(\.__part\.[0-9]+|\.cold|\.eh)$" % re.escape(name))
    expected = sorted(s for s in sizes if pattern.match(s))
    for fn in doc["files"][0]["functions"]:
        if fn["mangled_name"] != name:
            continue
        frags = fn.get("fragments", [])
        names = sorted(f["name"] for f in frags)
        if names != expected:
            print("FAIL: fragments %s, symbols %s" % (names, expected))
            return 1
        total = sizes[name] + sum(sizes[s] for s in expected)
        if fn["size"] != total:
            print("FAIL: size %d, symbols %d" % (fn["size"], total))
            return 1
        in_fragments = sum(f["atomics"] for f in frags)
        if in_fragments > fn["atomics"]:
            print("FAIL: %d atomics in fragments, %d in all"
                  % (in_fragments, fn["atomics"]))
            return 1
        print("OK: %s: %d fragments, %d bytes, %d atomics (%d in fragments)"
              % (name, len(frags), total, fn["atomics"], in_fragments))
        return 0
    print("FAIL: no function %s" % name)
    return 1


if __name__ == "__main__":
    sys.exit(main())
