#!/usr/bin/env python3
"""Checks `pcmap-report stackmaps` against LLVM's own tools.

check_stackmaps.py PCMAP_REPORT FILE [--readobj TEXT] [--expect ID=KIND[:SIZE]]...

1. llvm-readobj --stackmap FILE (or the saved output TEXT) against
   pcmap-report's text output: every line llvm-readobj prints must be there,
   in order, identical; pcmap-report may only add its "Function start:" and
   "PC:" lines (and blob headers for further blobs, which llvm-readobj does
   not print).
2. The same fields against pcmap-report's JSON (version, functions, constants,
   records, locations, live-outs), parsed independently.
3. Functions: start and size equal the symbol table's (llvm-nm -S).
4. Call sizes against llvm-objdump -d: for a "call" record the instruction
   that ends at the PC is a call of exactly call_size bytes; for "patchpoint"
   the instructions from the PC are a move or moves of the target, an
   indirect call and nops, call_size bytes in all; for "nops" they are nops;
   for "none" the instruction before the PC is not a call. --expect says
   what the test's IR declared for a record ID.

Prints "OK: ..." and exits 0, or prints every mismatch and exits 1.
"""

import json
import re
import subprocess
import sys

errors = []


def err(msg):
    errors.append(msg)


def run(args):
    return subprocess.run(args, check=True, stdout=subprocess.PIPE,
                          universal_newlines=True).stdout


def parse_readobj(text):
    """The fields llvm-readobj --stackmap prints."""
    lines = text.splitlines()
    out = {"functions": [], "constants": [], "records": []}
    rec = None
    for line in lines:
        s = line.strip()
        m = re.match(r"LLVM StackMap Version: (\d+)$", s)
        if m:
            out["version"] = int(m.group(1))
            continue
        m = re.match(r"Function address: (\d+), stack size: (\d+), "
                     r"callsite record count: (\d+)$", s)
        if m:
            out["functions"].append(tuple(int(x) for x in m.groups()))
            continue
        m = re.match(r"#(\d+): (\d+)$", s)
        if m and rec is None:
            out["constants"].append(int(m.group(2)))
            continue
        m = re.match(r"Record ID: (\d+), instruction offset: (\d+)$", s)
        if m:
            rec = {"id": int(m.group(1)), "offset": int(m.group(2)),
                   "locations": [], "live_outs": []}
            out["records"].append(rec)
            continue
        m = re.match(r"#\d+: (.*), size: (\d+)$", s)
        if m and rec is not None:
            rec["locations"].append((m.group(1), int(m.group(2))))
            continue
        m = re.match(r"(\d+) live-outs: \[ (.*)\]$", s)
        if m and rec is not None:
            los = re.findall(r"R#(\d+) \((\d+)-bytes\)", m.group(2))
            rec["live_outs"] = [(int(r), int(z)) for r, z in los]
            if len(los) != int(m.group(1)):
                err("readobj: live-out count mismatch in %r" % s)
    return out


def readobj_lines(text):
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("LLVM StackMap Version"):
            return lines[i:]
    return []


def location_text(loc, constants):
    kind, reg, off = loc["kind"], loc["dwarf_reg"], loc["offset"]
    if kind == "Register":
        return "Register R#%d" % reg
    if kind == "Direct":
        return "Direct R#%d + %d" % (reg, off)
    if kind == "Indirect":
        return "Indirect [R#%d + %d]" % (reg, off)
    if kind == "Constant":
        return "Constant %d" % (off & 0xffffffff)
    if kind == "ConstantIndex":
        value = int(loc["value"], 16)
        if value != constants[off]:
            err("JSON: ConstantIndex value %s is not constant #%d" %
                (loc["value"], off))
        return "ConstantIndex #%d (%d)" % (off, value)
    err("JSON: unknown location kind %r" % kind)
    return kind


def compare_text(ro_text, pr_text):
    expected = readobj_lines(ro_text)
    got = [l for l in pr_text.splitlines()
           if not l.startswith("File: ")
           and not l.startswith("    Function start: ")
           and not l.startswith("    PC: ")]
    # Only the first blob: llvm-readobj does not print the others.
    if got and got[0].startswith("Stack map 1 of"):
        got = got[1:]
        for i, l in enumerate(got):
            if l.startswith("Stack map 2 of"):
                got = got[:i]
                break
    if not expected:
        err("llvm-readobj printed no stack map")
    for i, line in enumerate(expected):
        if i >= len(got):
            err("text: missing line %r" % line)
            break
        if got[i] != line:
            err("text: line %d: llvm-readobj %r, pcmap-report %r" %
                (i + 1, line, got[i]))
    if len(got) > len(expected):
        err("text: extra line %r" % got[len(expected)])


def compare_json(ro, blob):
    if blob["version"] != ro.get("version"):
        err("version: llvm-readobj %s, pcmap-report %s" %
            (ro.get("version"), blob["version"]))
    if len(blob["frames"]) != len(ro["functions"]):
        err("function count: llvm-readobj %d, pcmap-report %d" %
            (len(ro["functions"]), len(blob["frames"])))
    for i, (f, (addr, stack, count)) in enumerate(
            zip(blob["frames"], ro["functions"])):
        if int(f["stored_address"], 16) != addr:
            err("function %d address: llvm-readobj %d, pcmap-report %s" %
                (i, addr, f["stored_address"]))
        if f["stack_size"] != stack:
            err("function %d stack size: llvm-readobj %d, pcmap-report %s" %
                (i, stack, f["stack_size"]))
        if f["record_count"] != count:
            err("function %d record count: llvm-readobj %d, pcmap-report %s" %
                (i, count, f["record_count"]))
    constants = [int(c, 16) for c in blob["constants"]]
    if constants != ro["constants"]:
        err("constants: llvm-readobj %s, pcmap-report %s" %
            (ro["constants"], constants))
    if len(blob["records"]) != len(ro["records"]):
        err("record count: llvm-readobj %d, pcmap-report %d" %
            (len(ro["records"]), len(blob["records"])))
    for r, e in zip(blob["records"], ro["records"]):
        where = "record ID %d" % e["id"]
        if int(r["id"]) != e["id"] or r["offset"] != e["offset"]:
            err("%s: llvm-readobj offset %d, pcmap-report ID %s offset %d" %
                (where, e["offset"], r["id"], r["offset"]))
        locs = [(location_text(l, constants), l["size"])
                for l in r["locations"]]
        if locs != e["locations"]:
            err("%s locations: llvm-readobj %s, pcmap-report %s" %
                (where, e["locations"], locs))
        los = [(l["dwarf_reg"], l["size"]) for l in r["live_outs"]]
        if los != e["live_outs"]:
            err("%s live-outs: llvm-readobj %s, pcmap-report %s" %
                (where, e["live_outs"], los))
    # Frames and records agree with each other (the v2 proposal's flat view).
    for i, f in enumerate(blob["frames"]):
        if f["record_count"] is None:
            continue
        for k in range(f["first_record"],
                       f["first_record"] + f["record_count"]):
            if blob["records"][k]["function"] != i:
                err("record %d is not in function %d" % (k, i))


def parse_nm(path):
    syms = {}
    for line in run(["llvm-nm", "-S", "--defined-only", path]).splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            syms[parts[3]] = (int(parts[0], 16), int(parts[1], 16))
    return syms


def parse_objdump(path):
    """{(section, address): (size, mnemonic, operands)} of every instruction."""
    insts = {}
    section = None
    for line in run(["llvm-objdump", "-d", path]).splitlines():
        m = re.match(r"Disassembly of section (\S+):", line)
        if m:
            section = m.group(1)
            continue
        # "  addr: <bytes>\t<mnemonic> <operands>"; bytes are hex pairs
        # (x86-64) or one 32-bit word (AArch64).
        m = re.match(r"\s*([0-9a-f]+):\s+([0-9a-f ]+?)\s*\t\s*(\S+)\s*(.*)$",
                     line)
        if not m:
            continue
        raw = m.group(2).split()
        size = 4 if len(raw) == 1 and len(raw[0]) == 8 else len(raw)
        insts[(section, int(m.group(1), 16))] = (size, m.group(3),
                                                  m.group(4))
    return insts


def is_call(mnemonic):
    return mnemonic.startswith("call") or mnemonic in ("bl", "blr")


def is_nop(mnemonic):
    return mnemonic.startswith("nop")


def check_functions(blob, syms, relocatable):
    for f in blob["frames"]:
        name = f["name"]
        if name is None or name not in syms:
            err("function %s has no symbol" % f["index"])
            continue
        addr, size = syms[name]
        if f["address"] is None or int(f["address"], 16) != addr:
            err("function %s: address %s, symbol table 0x%x" %
                (name, f["address"], addr))
        if f["size"] != size or f["size_source"] not in ("symbol", "pcmap"):
            err("function %s: size %s (%s), symbol table %d" %
                (name, f["size"], f["size_source"], size))
        if not relocatable and f["stored_address"] not in (f["address"],
                                                           "0x0"):
            err("function %s: stored address %s, neither 0 nor %s" %
                (name, f["stored_address"], f["address"]))


def check_calls(blob, insts, relocatable, expect):
    ends = {}
    for (sec, addr), (size, mn, ops) in insts.items():
        ends[(sec, addr + size)] = (addr, size, mn, ops)
    for r in blob["records"]:
        f = blob["frames"][r["function"]]
        sec = f["section"] if relocatable else None
        if not relocatable:
            # objdump keys linked code by its section name; drop it.
            pass
        pc = int(r["pc"], 16)
        key = lambda a: (sec, a)

        def find(table, a):
            if relocatable:
                return table.get((sec, a))
            for (s, x), v in table.items():
                if x == a:
                    return v
            return None

        where = "record ID %s at 0x%x" % (r["id"], pc)
        kind, size = r["call_kind"], r["call_size"]
        want = expect.get(int(r["id"]))
        if want:
            if want[0] != kind or (want[1] is not None and want[1] != size):
                err("%s: expected %s%s, pcmap-report %s %s" %
                    (where, want[0],
                     "" if want[1] is None else " of %d bytes" % want[1],
                     kind, size))
        before = find(ends, pc)
        if kind == "call":
            if not before or not is_call(before[2]) or before[1] != size:
                err("%s: call of %d bytes, objdump has %s before it" %
                    (where, size, before))
        elif kind in ("patchpoint", "nops"):
            a, seen, call = pc, [], False
            while a < pc + size:
                inst = find(insts, a)
                if not inst:
                    err("%s: no instruction at 0x%x" % (where, a))
                    break
                seen.append(inst[1])
                if is_call(inst[1]):
                    call = True
                elif not is_nop(inst[1]) and not inst[1].startswith("mov"):
                    err("%s: %s inside the patchable bytes" % (where, inst[1]))
                a += inst[0]
            if a != pc + size:
                err("%s: patchable bytes end inside an instruction" % where)
            if (kind == "patchpoint") != call:
                err("%s: %s, but objdump shows %s" % (where, kind, seen))
            after = find(insts, pc + size)
            if after and is_nop(after[1]):
                err("%s: a nop follows the %d patchable bytes" % (where, size))
        elif kind == "none":
            if before and is_call(before[2]):
                err("%s: 'none', but a call ends at the PC" % where)
        else:
            err("%s: call kind %s" % (where, kind))


def main():
    args = sys.argv[1:]
    report, path = args[0], args[1]
    readobj_file = None
    expect = {}
    i = 2
    while i < len(args):
        if args[i] == "--readobj":
            readobj_file = args[i + 1]
            i += 2
        elif args[i] == "--expect":
            ident, what = args[i + 1].split("=")
            kind, _, size = what.partition(":")
            expect[int(ident)] = (kind, int(size) if size else None)
            i += 2
        else:
            sys.exit("unknown argument %s" % args[i])
    if readobj_file:
        ro_text = open(readobj_file).read()
    else:
        ro_text = run(["llvm-readobj", "--stackmap", path])
    pr_text = run([report, "stackmaps", path])
    doc = json.loads(run([report, "stackmaps", "--format=json", path]))
    f = doc["files"][0]
    relocatable = f["type"] == "relocatable"
    compare_text(ro_text, pr_text)
    compare_json(parse_readobj(ro_text), f["stackmaps"][0])
    syms = parse_nm(path)
    insts = parse_objdump(path)
    nrecords = 0
    for blob in f["stackmaps"]:
        check_functions(blob, syms, relocatable)
        check_calls(blob, insts, relocatable, expect)
        nrecords += len(blob["records"])
    seen = set(int(r["id"]) for b in f["stackmaps"] for r in b["records"])
    for ident in expect:
        if ident not in seen:
            err("no record with ID %d" % ident)
    if errors:
        for e in errors:
            print("MISMATCH: " + e)
        sys.exit(1)
    print("OK: %d stack maps, %d records, %d functions agree" %
          (len(f["stackmaps"]), nrecords,
           sum(len(b["frames"]) for b in f["stackmaps"])))


if __name__ == "__main__":
    main()
