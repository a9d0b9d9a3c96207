#!/usr/bin/env python3
"""Makes damaged copies of a linked ELF file for decoder.test.

  corrupt.py IN OUT --section NAME [--keep N] [--append HEX]
      Replaces the contents of section NAME by its first N bytes followed by
      the bytes HEX, and sets its sh_size to the new length (which must not
      exceed the old one).
  corrupt.py IN OUT --rename OLD NEW
      Renames a section (NEW no longer than OLD) in the section name table.
  corrupt.py IN OUT --section pcmap_atomics1 --keep-records N
      Keeps the first N records of an atomics section (4-byte PCs).
  corrupt.py IN OUT --section NAME --shift-first-pc D
      Adds D to the first relative PC of the section.
  corrupt.py IN OUT --section pcmap_functions1 --bump-first-size
      Adds 1 to the size of the first function entry.
"""

import argparse
import os
import struct
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "support"))
import pcmap_elf  # noqa: E402

SHDR_SIZE = 64
SH_SIZE_FIELD = 32  # sh_name, sh_type, sh_flags, sh_addr, sh_offset


def uleb128(value):
    out = bytearray()
    while True:
        byte = value & 0x7f
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--section")
    ap.add_argument("--keep", type=int, default=0)
    ap.add_argument("--append", default="")
    ap.add_argument("--rename", nargs=2)
    ap.add_argument("--keep-records", type=int)
    ap.add_argument("--shift-first-pc", type=int)
    ap.add_argument("--bump-first-size", action="store_true")
    args = ap.parse_args()

    elf = pcmap_elf.ElfFile(args.input)
    data = bytearray(elf.data)
    if args.section and args.keep_records is not None:
        sec = elf.section_by_name[args.section]
        body = bytes(data[sec.offset:sec.offset + sec.size])
        pos = 0
        for _ in range(args.keep_records):
            while body[pos:pos + 4] != b"\0\0\0\0":
                pos += 4
            _, pos = pcmap_elf.read_uleb128(body, pos + 4, len(body), "")
        args.keep, args.append = pos, ""
    if args.section and args.shift_first_pc is not None:
        sec = elf.section_by_name[args.section]
        value = struct.unpack_from("<i", data, sec.offset)[0]
        struct.pack_into("<i", data, sec.offset, value + args.shift_first_pc)
        args.keep = sec.size
    if args.section and args.bump_first_size:
        sec = elf.section_by_name[args.section]
        body = bytes(data[sec.offset:sec.offset + sec.size])
        size, end = pcmap_elf.read_uleb128(body, 4, len(body), "")
        new = uleb128(size + 1)
        if len(new) != end - 4:
            sys.exit("corrupt.py: the new size needs another ULEB128 length")
        data[sec.offset + 4:sec.offset + end] = new
        args.keep = sec.size
    if args.section:
        sec = elf.section_by_name[args.section]
        payload = bytes(data[sec.offset:sec.offset + args.keep]) + \
            bytes.fromhex(args.append)
        if args.keep > sec.size or len(payload) > sec.size:
            sys.exit("corrupt.py: %d bytes do not fit in %s (%d bytes)"
                     % (len(payload), sec.name, sec.size))
        data[sec.offset:sec.offset + len(payload)] = payload
        hdr = elf.shoff + sec.index * SHDR_SIZE + SH_SIZE_FIELD
        struct.pack_into("<Q", data, hdr, len(payload))
    if args.rename:
        old, new = (s.encode() for s in args.rename)
        if len(new) > len(old):
            sys.exit("corrupt.py: the new name must not be longer")
        strtab = elf.sections[elf.shstrndx]
        table = bytes(data[strtab.offset:strtab.offset + strtab.size])
        at = table.find(b"\0" + old + b"\0")
        if at < 0:
            sys.exit("corrupt.py: no section named %s" % args.rename[0])
        start = strtab.offset + at + 1
        data[start:start + len(old)] = new.ljust(len(old), b"\0")
    with open(args.output, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
