#!/usr/bin/env python3
"""Writes an x86-64 assembly file with two functions and a hand-made
.llvm_stackmaps section of a given version, laid out byte by byte as
docs/StackMaps.md describes it (independently of include/pcmap/StackMap.h).

make_stackmap.py VERSION [--one-function] [--data-function] [--corrupt KIND]
    > out.s

The code (offsets are what the records point at):
  f1: 0 pushq %rbp (1); 1 callq f2 (5); 6 movq %rsp, %rbp (3); 9 popq; retq
      record ID 10 at offset 6: the return address of the call (5 bytes)
      record ID 11 at offset 9: after a movq, no call, no nops
  f2: 0 movabsq $0x1234, %r11 (10); 10 callq *%r11 (3); 13 3 nops; 16 retq
      record ID 12 at offset 0: a patchpoint of 16 bytes

--data-function: the second function record points at a data object (d2,
in .data) instead of f2: there is no code to decode at its record.

Corruptions (--corrupt): truncated-header, bad-version, reserved,
counts-past-end, count-mismatch, truncated-record, too-many-locations,
bad-kind, bad-constant-index.
"""

import struct
import sys


def main():
    version = int(sys.argv[1])
    one_function = "--one-function" in sys.argv
    data_function = "--data-function" in sys.argv
    corrupt = None
    if "--corrupt" in sys.argv:
        corrupt = sys.argv[sys.argv.index("--corrupt") + 1]

    items = []  # bytes, or ("sym", name) for an 8-byte function address

    def raw(fmt, *values):
        items.append(struct.pack("<" + fmt, *values))

    def pad8():
        n = sum(8 if isinstance(i, tuple) else len(i) for i in items)
        if n % 8:
            items.append(b"\0" * (8 - n % 8))

    def location(kind, size, reg, offset):
        if version == 3:
            raw("BBHHHi", kind, 0, size, reg, 0, offset)
        else:
            raw("BBHi", kind, size, reg, offset)

    def live_outs(regs):
        pad8()
        raw("HH", 0, len(regs))
        for reg, size in regs:
            raw("HBB", reg, 0, size)
        pad8()

    functions = [("f1", 24, 2), ("d2" if data_function else "f2", 8, 1)]
    if one_function:
        functions = [("f1", 24, 2)]
    records = 2 if one_function else 3
    raw("BBH", 4 if corrupt == "bad-version" else version, 0,
        1 if corrupt == "reserved" else 0)
    raw("III", len(functions), 1,
        1000 if corrupt == "counts-past-end" else records)
    for name, stack, count in functions:
        items.append(("sym", name))
        raw("Q", stack)
        if version >= 2:
            raw("Q", count + (1 if corrupt == "count-mismatch" else 0))
    raw("Q", 0x0123456789ABCDEF)
    # f1, offset 6: every location kind.
    raw("QIHH", 10, 6, 0, 1000 if corrupt == "too-many-locations" else 5)
    location(6 if corrupt == "bad-kind" else 1, 8, 3, 0)  # Register rbx
    location(2, 8, 7, -16)  # Direct [rsp - 16]
    location(3, 4, 6, -8)  # Indirect [rbp - 8]
    location(4, 8, 0, -5)  # Constant -5
    location(5, 8, 0, 1 if corrupt == "bad-constant-index" else 0)
    live_outs([(0, 8), (17, 16)])
    # f1, offset 9.
    raw("QIHH", 11, 9, 0, 1)
    location(4, 4, 0, 42)
    live_outs([])
    if not one_function:
        # f2, offset 0: a patchpoint with one live-out.
        raw("QIHH", 12, 0, 0, 0)
        live_outs([(12, 8)])

    if corrupt == "truncated-header":
        items = [b"".join(i for i in items if not isinstance(i, tuple))[:12]]
    if corrupt == "truncated-record":
        items[-1:] = []  # the last record loses its live-out and half
        items[-1] = items[-1][:2]  # of its NumLiveOuts field

    out = sys.stdout
    out.write("\t.text\n")
    out.write("\t.globl f1\n\t.type f1,@function\nf1:\n"
              "\tpushq %rbp\n\tcallq f2\n\tmovq %rsp, %rbp\n\tpopq %rbp\n"
              "\tretq\n\t.size f1, .-f1\n")
    out.write("\t.globl f2\n\t.type f2,@function\nf2:\n"
              "\tmovabsq $0x1234, %r11\n\tcallq *%r11\n"
              "\tnop\n\tnop\n\tnop\n\tretq\n\t.size f2, .-f2\n")
    out.write("\t.data\n\t.globl d2\n\t.type d2,@object\nd2:\n"
              "\t.quad 0, 0\n\t.size d2, 16\n")
    out.write('\t.section .llvm_stackmaps,"a",@progbits\n\t.p2align 3\n')
    for item in items:
        if isinstance(item, tuple):
            out.write("\t.quad %s\n" % item[1])
        elif item:
            out.write("\t.byte %s\n" % ", ".join(str(b) for b in item))


if __name__ == "__main__":
    main()
