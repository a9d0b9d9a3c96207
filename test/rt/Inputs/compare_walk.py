#!/usr/bin/env python3
"""Compares what the runtime answers (the output of a program that called
rt_walk_all() from Inputs/walk.h) with what the independent decoder reads
from the same binary (`pcmap_elf.py dump --json`).

    compare_walk.py WALK_OUTPUT DUMP_JSON --mode pcmap|upstream

The module of the binary is the one whose path names the file the decoder
read (or the one with an empty path: the main executable on some systems).
Its addresses are translated to the decoder's by the module's bias.

--mode pcmap: pcmap_functions and pcmap_atomics. Function by function: the
same starts, sizes and features (source has PCMAP_SOURCE_PCMAP); the same
atomic PCs (every PC of every region, once) with the same descriptors:
kind, size, order, failure order, RMW operation, volatile, weak; the same
number of atomics per function and per module.

--mode upstream: sanmd_covered and sanmd_atomics. The same starts and
sizes; upstream_features and upstream_stack_args as the decoder reads them,
PCMAP_FEATURE_ATOMICS exactly when the sanmd atomics feature is set, source
PCMAP_SOURCE_UPSTREAM; the same atomic PCs, each of kind UNKNOWN with the
UPSTREAM flag, size 0, order unknown.

Prints "compare: OK: ..." and exits 0, or prints every difference and
exits 1.
"""

import argparse
import json
import os
import re
import sys

KINDS = {"load": 0, "store": 1, "rmw": 2, "cmpxchg": 3, "fence": 4}
KIND_UNKNOWN = 15
ORDERS = {"unknown": 0, "unordered": 1, "relaxed": 2, "acquire": 4,
          "release": 5, "acq_rel": 6, "seq_cst": 7}
RMW_OPS = ["xchg", "add", "sub", "and", "nand", "or", "xor", "max", "min",
           "umax", "umin", "fadd", "fsub", "fmax", "fmin", "uinc_wrap",
           "udec_wrap", "usub_cond", "usub_sat", "fmaximum", "fminimum"]
FLAG_VOLATILE, FLAG_WEAK, FLAG_UPSTREAM = 1, 2, 4
FEATURE_ATOMICS = 1
FEATURE_HAS_ATOMICS = 2
SOURCE_PCMAP, SOURCE_UPSTREAM = 1, 2

_FIELD = re.compile(r"(\w+)=(\S*)")


def parse_walk(path):
    modules = []
    errors = []
    summary = None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            word = line.split(" ", 1)[0]
            fields = dict(_FIELD.findall(line))
            if word == "module":
                # The path may contain spaces: take it up to " bias=".
                m = re.match(r"module path=(.*) bias=", line)
                fields["path"] = m.group(1) if m else ""
                fields["functions_list"] = []
                modules.append(fields)
            elif word == "function":
                fields["atomics_list"] = []
                modules[-1]["functions_list"].append(fields)
            elif word == "atomic":
                modules[-1]["functions_list"][-1]["atomics_list"].append(
                    fields)
            elif word == "walk-error":
                errors.append(line)
            elif word == "walk-summary":
                summary = fields
    return modules, errors, summary


def num(s):
    return int(s, 0)


class Checker:
    def __init__(self):
        self.failures = []

    def fail(self, msg):
        self.failures.append(msg)


def expected_descriptor(d):
    """The runtime's numbers for a decoder descriptor (JSON)."""
    kind = KINDS[d["kind"]]
    size = 0 if d["kind"] == "fence" else d["size"]
    flags = (FLAG_VOLATILE if d["volatile"] else 0) | \
        (FLAG_WEAK if d.get("weak") else 0)
    out = {"kind": kind, "size": size, "order": ORDERS[d["order"]],
           "flags": flags}
    if d["kind"] == "rmw":
        op = d["op"]
        out["rmw_op"] = RMW_OPS.index(op) if op in RMW_OPS else 63
    if d["kind"] == "cmpxchg":
        out["failure_order"] = ORDERS[d["failure_order"]]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("walk")
    ap.add_argument("dump_json")
    ap.add_argument("--mode", choices=["pcmap", "upstream"], required=True)
    args = ap.parse_args(argv)

    with open(args.dump_json) as f:
        dump = json.load(f)
    modules, walk_errors, summary = parse_walk(args.walk)
    c = Checker()
    for e in walk_errors:
        c.fail("the program reported: " + e)
    if summary is None:
        c.fail("no walk-summary line: the program did not finish")
    if dump["errors"]:
        c.fail("the decoder reported errors: %s" % dump["errors"])

    binary = os.path.basename(dump["file"])
    mods = [m for m in modules
            if os.path.basename(m["path"]) == binary]
    if not mods:
        mods = [m for m in modules if m["path"] == ""]
    if len(mods) != 1:
        c.fail("expected one module for %s, the runtime lists %d matching "
               "(paths: %s)" % (binary, len(mods),
                                [m["path"] for m in modules]))
        return report(c, args.mode, 0, 0)
    mod = mods[0]
    bias = num(mod["bias"])

    if args.mode == "pcmap":
        want_funcs = {f["pc"]: f for f in dump["functions"]}
        want_atomics = {}
        for a in dump["atomics"]:
            want_atomics.setdefault(a["pc"], []).append(a)
    else:
        want_funcs = {f["pc"]: f for f in dump["sanmd_functions"]}
        want_atomics = {a["pc"]: [a] for a in dump["sanmd_atomics"]}
    if not want_funcs:
        c.fail("the decoder finds no %s functions in %s"
               % (args.mode, binary))

    got_funcs = {}
    got_atomics = {}
    for f in mod["functions_list"]:
        start = num(f["start"]) - bias
        if start in got_funcs:
            c.fail("function %#x listed twice" % start)
        got_funcs[start] = f
        for a in f["atomics_list"]:
            got_atomics[num(a["pc"]) - bias] = (a, start)

    # Functions.
    for pc in sorted(set(want_funcs) - set(got_funcs)):
        c.fail("function %#x (%s) is in the binary, not in the runtime"
               % (pc, want_funcs[pc].get("name")))
    for pc in sorted(set(got_funcs) - set(want_funcs)):
        c.fail("function %#x is in the runtime, not in the binary" % pc)
    sorted_atomics = sorted(want_atomics)
    for pc in sorted(set(want_funcs) & set(got_funcs)):
        w, g = want_funcs[pc], got_funcs[pc]
        name = "function %#x (%s)" % (pc, w.get("name"))
        if num(g["size"]) != w["size"]:
            c.fail("%s: size %s, binary says %d" % (name, g["size"],
                                                     w["size"]))
        inside = [a for a in sorted_atomics if pc <= a < pc + w["size"]]
        if num(g["num_atomics"]) != len(inside):
            c.fail("%s: num_atomics %s, binary has %d atomic PCs"
                   % (name, g["num_atomics"], len(inside)))
        if args.mode == "pcmap":
            # docs/FORMAT.md: a function that has atomics (bit 1) but none in
            # the table (they became libatomic calls) is not complete.
            want = w["features"]
            if want & FEATURE_HAS_ATOMICS and not inside:
                want &= ~FEATURE_ATOMICS
            if num(g["features"]) != want:
                c.fail("%s: features %s, expected %d (binary says %d)"
                       % (name, g["features"], want, w["features"]))
            if not num(g["source"]) & SOURCE_PCMAP:
                c.fail("%s: source %s lacks PCMAP_SOURCE_PCMAP"
                       % (name, g["source"]))
        else:
            if num(g["upstream_features"]) != w["features"]:
                c.fail("%s: upstream_features %s, binary says %d"
                       % (name, g["upstream_features"], w["features"]))
            if num(g["upstream_stack_args"]) != w.get("stack_args", 0):
                c.fail("%s: upstream_stack_args %s, binary says %s"
                       % (name, g["upstream_stack_args"],
                          w.get("stack_args")))
            if not num(g["source"]) & SOURCE_UPSTREAM:
                c.fail("%s: source %s lacks PCMAP_SOURCE_UPSTREAM"
                       % (name, g["source"]))
            want_complete = bool(w["features"] & FEATURE_ATOMICS)
            if bool(num(g["features"]) & FEATURE_ATOMICS) != want_complete:
                c.fail("%s: features %s, but the sanmd atomics feature is "
                       "%s" % (name, g["features"],
                               "set" if want_complete else "not set"))

    # Atomics: only PCs inside functions can be walked; the binary must not
    # have others.
    spans = sorted((pc, pc + f["size"]) for pc, f in want_funcs.items())
    for pc in sorted_atomics:
        if not any(lo <= pc < hi for lo, hi in spans):
            c.fail("atomic %#x of the binary is in no function" % pc)
    for pc in sorted(set(want_atomics) - set(got_atomics)):
        c.fail("atomic %#x (%s) is in the binary, the runtime does not say "
               "YES" % (pc, want_atomics[pc][0].get("where")))
    for pc in sorted(set(got_atomics) - set(want_atomics)):
        c.fail("the runtime says YES at %#x, the binary has no atomic there"
               % pc)
    for pc in sorted(set(want_atomics) & set(got_atomics)):
        g, fstart = got_atomics[pc]
        where = want_atomics[pc][0].get("where")
        got = {k: num(g[k]) for k in ("kind", "size", "order",
                                      "failure_order", "rmw_op", "flags")}
        if args.mode == "pcmap":
            wants = [expected_descriptor(a["descriptor"])
                     for a in want_atomics[pc]]
            if not any(all(got[k] == v for k, v in w.items())
                       for w in wants):
                c.fail("atomic %#x (%s): runtime %s, binary %s"
                       % (pc, where, got, wants))
        else:
            want = {"kind": KIND_UNKNOWN, "size": 0, "order": 0,
                    "flags": FLAG_UPSTREAM}
            if any(got[k] != v for k, v in want.items()):
                c.fail("atomic %#x (%s): runtime %s, expected %s"
                       % (pc, where, got, want))

    # The module's counts.
    if num(mod["functions"]) != len(want_funcs):
        c.fail("module: %s functions, binary has %d" % (mod["functions"],
                                                        len(want_funcs)))
    if num(mod["atomics"]) != len(want_atomics):
        c.fail("module: %s atomics, binary has %d" % (mod["atomics"],
                                                      len(want_atomics)))
    return report(c, args.mode, len(want_funcs), len(want_atomics))


def report(c, mode, nfuncs, natomics):
    if c.failures:
        for f in c.failures[:100]:
            print("compare: FAIL: " + f)
        print("compare: %d difference(s)" % len(c.failures))
        return 1
    print("compare: OK: %s: %d functions, %d atomic PCs agree"
          % (mode, nfuncs, natomics))
    return 0


if __name__ == "__main__":
    sys.exit(main())
