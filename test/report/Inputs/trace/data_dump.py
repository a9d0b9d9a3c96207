#!/usr/bin/env python3
"""data_dump.py PROG PLACES [--cxx]: writes a version 4 trace dump of
Inputs/trace/data.c (with --cxx, data.cpp) built as PROG, whose accesses
are at the places PROG
printed when run (PLACES: "NAME module 0xOFFSET", "NAME tls TP_OFFSET"), in
two threads, as the tracer would write it: static data by module offset,
TLS by the offset from the thread pointer (the first access without its
module, so that pcmap-report finds the executable's block; the other with
it, as the runtime writes). Each access names the member pcmap-report
should call it in its "expect" field, which the reader ignores. Uses
llvm-nm and llvm-readelf from PATH.

data_dump.py --check DUMP REPORT.json: each access of DUMP has the name it
expects in pcmap-report's JSON REPORT (found by thread, address, size and
kind); prints the first that does not, or how many do."""
import json
import re
import subprocess
import sys


def run(*args):
    return subprocess.run(args, check=True, capture_output=True,
                          text=True).stdout


def c_accesses(static, tls, nm):
    """Inputs/trace/data.c's accesses."""
    static(300, 101, "rmw", 8, "stats", 0, "stats.hits", atomic=True)
    static(200, 102, "rmw", 8, "stats", 8, "stats.misses", atomic=True)
    static(60, 101, "write", 8, "plain_counts", 8, "plain_counts[1]")
    static(50, 102, "write", 8, "plain_counts", 0, "plain_counts[0]")
    static(40, 101, "write", 4, "g", 56, "g.shards[3].lock")
    static(30, 102, "read", 8, "g", 56, "g.shards[3].{lock..pad}")
    static(20, 101, "read", 8, "g", 64, "g.shards[3].value")
    static(15, 101, "write", 1, "flags", 0, "flags.a")
    static(14, 102, "read", 4, "flags", 0, "flags.{a..c}")
    static(13, 101, "read", 4, "grid", 24, "grid[1][2]")
    static(12, 102, "read", 8, "grid", 28, "grid[1][3]..[2][0]")
    static(11, 101, "write", 1, "word", 0, "word.l")
    static(10, 102, "rmw", 8, "counter", 0, "bump.counter")
    static(5, 101, "read", 8, "_DYNAMIC", 0, "data+0x%x" % nm["_DYNAMIC"])
    tls(9, 101, "rmw", 8, "tls_counter", 0, "tls_counter", False)
    tls(8, 102, "write", 8, "tls_stats", 8, "tls_stats.misses", True)


def main():
    prog, places_file = sys.argv[1], sys.argv[2]
    places = {}
    for line in open(places_file):
        name, region, value = line.split()
        places[name] = (region, int(value, 0))
    note = run("llvm-readelf", "-n", prog)
    build_id = re.search(r"Build ID: ([0-9a-f]+)", note).group(1)
    nm = {p[2]: int(p[0], 16) for p in
          (l.split() for l in run("llvm-nm", prog).splitlines())
          if len(p) == 3}
    main_at = places["main"][1]
    site = [0, "0x%x" % (main_at + 4)]
    tp = {101: 0x7f0000010000, 102: 0x7f0000020000}
    accesses = []

    def static(samples, tid, kind, size, obj, off, expect, atomic=False):
        offset = (places[obj][1] if obj in places else nm[obj]) + off
        accesses.append({
            "samples": samples, "thread": tid, "kind": kind, "size": size,
            "address": "0x%x" % (0x555555554000 + offset),
            "atomic": atomic, "site": site, "stack": 0, "region": "module",
            "module": 0, "offset": "0x%x" % offset, "expect": expect})

    def tls(samples, tid, kind, size, obj, off, expect, with_module):
        tp_offset = places[obj][1] + off
        a = {"samples": samples, "thread": tid, "kind": kind, "size": size,
             "address": "0x%x" % (tp[tid] + tp_offset), "atomic": False,
             "site": site, "stack": 0, "region": "tls",
             "tp_offset": tp_offset, "expect": expect}
        if with_module:
            a.update({"module": 0, "offset": "0x%x" % (nm[obj] + off)})
        accesses.append(a)

    if "--cxx" in sys.argv:
        static(40, 101, "write", 8, "node", 0, "app::node.refs")
        static(30, 102, "rmw", 8, "node", 8, "app::node.count", atomic=True)
        static(20, 102, "write", 4, "node", 16, "app::node.id")
        static(10, 101, "rmw", 8, "counter", 0, "app::counter", atomic=True)
        static(9, 101, "write", 8, "shared", 0, "app::Holder::shared")
        static(8, 102, "read", 4, "box", 4, "app::box.value[1]")
    else:
        c_accesses(static, tls, nm)
    samples = sum(a["samples"] for a in accesses)
    samples = sum(a["samples"] for a in accesses)
    dump = {
        "report": "pcmap-trace", "version": 4, "pid": 100, "ppid": 1,
        "run": "d4d4d4d4d4d4d4d4", "parent_run": "", "dump": 1,
        "reason": "exit", "final": True, "hz": 1000, "threads": 2,
        "cpu_ns": samples * 1000000, "samples": samples,
        "observations": samples, "atomic_samples": 0,
        "covered_samples": 0, "uncovered_samples": samples,
        "dropped_samples": 0, "distinct_sites": 0, "distinct_functions": 0,
        "stack_depth": 32, "stack_samples_dropped": 0,
        "line_size": 64, "data_samples": samples, "data_samples_dropped": 0,
        "modules": [{"path": prog, "build_id": build_id}],
        "sites": [], "functions": [],
        "stacks": [{"samples": samples, "atomic_samples": 0,
                    "frames": [site]}],
        "accesses": accesses,
    }
    print(json.dumps(dump))


def check(dump_path, report_path):
    dump = json.loads(open(dump_path).read())
    named = {}
    for line in json.load(open(report_path))["data"]["lines"]:
        for a in line["accesses"]:
            named[(a["thread"], a["address"], a["size"] or 0, a["kind"])] = \
                a["name"]
    for a in dump["accesses"]:
        name = named.get((a["thread"], a["address"], a["size"], a["kind"]))
        if name != a["expect"]:
            sys.exit("FAIL: %s is named %s, not %s" % (
                a["address"], name, a["expect"]))
    print("OK: %d accesses named as expected" % len(dump["accesses"]))


if __name__ == "__main__":
    if sys.argv[1] == "--check":
        check(sys.argv[2], sys.argv[3])
    else:
        main()
