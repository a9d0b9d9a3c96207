"""Writes what the runtime must find in a binary's stack maps, from LLVM's
own tools (independently of the runtime's decoder):

  llvm-readobj --stackmap  functions, constants, records, locations, live-outs
  llvm-nm -S               the functions' names, addresses and sizes
  llvm-objdump -d          instruction boundaries: call-site sizes

Usage: stackmap_expect.py BINARY PATCHPOINT_IDS OUT
PATCHPOINT_IDS lists the patchpoints as ID=BYTES (comma-separated): their
call site is the patchable region (movabs+call, or on AArch64 movz, movk
and blr; NOPs) that starts at the
record, whose size must be BYTES; every other record's call site is the
call instruction that ends at the record, if there is one.

Output lines, addresses relative to a function symbol:
  F name size
  R name offset id stack_size num_records call_kind call_size nloc nlive
  L kind size dwarf_reg offset value      (one per location, in order)
  O dwarf_reg size                        (one per live-out)
  N name offset                           (a PC that is not a record)
"""

import re
import subprocess
import sys

CALL_NONE, CALL, PATCHPOINT = 0, 1, 2
KINDS = {"Register": 1, "Direct": 2, "Indirect": 3, "Constant": 4, "ConstantIndex": 5}


def run(*args):
    return subprocess.run(args, check=True, stdout=subprocess.PIPE, universal_newlines=True).stdout


def parse_readobj(text):
    functions, constants, records = [], [], []
    rec = None
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r"Function address: (\d+), stack size: (\d+), callsite record count: (\d+)", line)
        if m:
            functions.append([int(m.group(1)), int(m.group(2)), int(m.group(3))])
            continue
        m = re.match(r"#\d+: (\d+)$", line)
        if m:
            constants.append(int(m.group(1)))
            continue
        m = re.match(r"Record ID: (\d+), instruction offset: (\d+)", line)
        if m:
            rec = {"id": int(m.group(1)), "offset": int(m.group(2)), "locs": [], "lives": []}
            records.append(rec)
            continue
        m = re.match(r"#\d+: (\w+) (.*), size: (\d+)$", line)
        if m and rec is not None:
            kind, what, size = KINDS[m.group(1)], m.group(2), int(m.group(3))
            reg, off, value = 0, 0, 0
            if kind == 1:
                reg = int(re.match(r"R#(\d+)", what).group(1))
            elif kind == 2:
                mm = re.match(r"R#(\d+) \+ (-?\d+)", what)
                reg, off = int(mm.group(1)), int(mm.group(2))
            elif kind == 3:
                mm = re.match(r"\[R#(\d+) \+ (-?\d+)\]", what)
                reg, off = int(mm.group(1)), int(mm.group(2))
            elif kind == 4:
                off = int(what)
                if off >= 2**31:
                    off -= 2**32
                value = off % 2**64
            else:
                mm = re.match(r"#(\d+) \((\d+)\)", what)
                off, value = int(mm.group(1)), int(mm.group(2))
            rec["locs"].append((kind, size, reg, off, value))
            continue
        m = re.match(r"\d+ live-outs: \[(.*)\]", line)
        if m and rec is not None:
            for reg, size in re.findall(r"R#(\d+) \((\d+)-bytes\)", m.group(1)):
                rec["lives"].append((int(reg), int(size)))
    # Records belong to the functions in order, by their counts.
    i = 0
    for f in functions:
        for r in records[i:i + f[2]]:
            r["function"] = f
        i += f[2]
    if i != len(records):
        sys.exit("record counts do not add up")
    return functions, records


def main():
    binary, pp_arg, out = sys.argv[1:4]
    patchpoints = {}
    for item in filter(None, pp_arg.split(",")):
        k, v = item.split("=")
        patchpoints[int(k)] = int(v)
    functions, records = parse_readobj(run("llvm-readobj", "--stackmap", binary))
    symbols = {}
    for line in run("llvm-nm", "-S", "--defined-only", binary).splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "Tt":
            symbols[int(parts[0], 16)] = (parts[3], int(parts[1], 16))
    # Instruction starts per function, from the disassembly.
    starts = {}
    current = None
    for line in run("llvm-objdump", "-d", "--no-show-raw-insn", binary).splitlines():
        m = re.match(r"([0-9a-f]+) <(.*)>:$", line)
        if m:
            current = int(m.group(1), 16)
            starts[current] = []
            continue
        m = re.match(r"\s+([0-9a-f]+):\s+(\S+)", line)
        if m and current is not None:
            starts[current].append((int(m.group(1), 16), m.group(2)))
    lines = []
    for f in functions:
        name, size = symbols[f[0]]
        lines.append("F %s %d" % (name, size))
    record_pcs = set(r["function"][0] + r["offset"] for r in records)
    for r in records:
        faddr = r["function"][0]
        name, fsize = symbols[faddr]
        insns = [a for a in starts[faddr] if a[0] < faddr + fsize]
        ends = [(a, (insns[i + 1][0] if i + 1 < len(insns) else faddr + fsize), mn)
                for i, (a, mn) in enumerate(insns)]
        pc = faddr + r["offset"]
        kind, size = CALL_NONE, 0
        if r["id"] in patchpoints:
            # The region: optional movabs, call, then NOPs, up to the next
            # record or the end of the function.
            limit = min([p for p in record_pcs if p > pc] + [faddr + fsize])
            kind, at, i = PATCHPOINT, pc, 0
            region = [e for e in ends if pc <= e[0] < limit]
            if region and region[0][2].startswith("mov") and len(region) > 1 and region[1][2].startswith("call"):
                i = 2
            elif region and region[0][2] in ("mov", "movz"):
                # AArch64: movz (often shown as mov), movk..., blr.
                j = 1
                while j < len(region) and region[j][2] == "movk":
                    j += 1
                if j < len(region) and region[j][2] == "blr":
                    i = j + 1
            while i < len(region) and region[i][2].startswith("nop"):
                i += 1
            size = (region[i - 1][1] - pc) if i else 0
            if size != patchpoints[r["id"]]:
                sys.exit("patchpoint %d: %d bytes in the disassembly, %d asked for" % (r["id"], size, patchpoints[r["id"]]))
        else:
            before = [e for e in ends if e[1] == pc]
            if before and (before[0][2].startswith("call") or before[0][2] in ("bl", "blr")):
                kind, size = CALL, before[0][1] - before[0][0]
        lines.append("R %s %d %d %d %d %d %d %d %d" % (
            name, r["offset"], r["id"], r["function"][1], r["function"][2], kind, size,
            len(r["locs"]), len(r["lives"])))
        for loc in r["locs"]:
            lines.append("L %d %d %d %d %d" % loc)
        for live in r["lives"]:
            lines.append("O %d %d" % live)
        for off in (r["offset"] + 1, r["offset"] - 1):
            if faddr + off not in record_pcs and off >= 0:
                lines.append("N %s %d" % (name, off))
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("expect: %d functions, %d records, %d patchpoints" % (
        len(functions), len(records), sum(1 for r in records if r["id"] in patchpoints)))


main()
