"""The static data a runtime adds to a program: the sizes of the writable
sections a conservative garbage collector scans as roots (.data, .bss and
their relatives) in PROGRAM against BASELINE, the same program without the
runtime. With LIMIT, says whether the difference is within it, and, when it
is not, lists the largest objects (nm) for the next engineer.

Usage: static_data.py BASELINE PROGRAM LIMIT"""

import struct
import subprocess
import sys

# Writable, allocated sections that hold data (not code, not relocations
# the loader reads once): what Boehm GC scans in an executable's segment.
SECTIONS = (".data", ".bss", ".data.rel.ro", ".tbss", ".tdata")
SHF_WRITE, SHF_ALLOC = 0x1, 0x2


def writable_data(path):
    """{section name: size} of the writable data sections of an ELF64
    file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        sys.exit("%s: not a 64-bit ELF file" % path)
    end = "<" if data[5] == 1 else ">"
    shoff, = struct.unpack_from(end + "Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x3a)
    headers = [struct.unpack_from(end + "IIQQQQIIQQ", data,
                                  shoff + i * shentsize)
               for i in range(shnum)]
    strtab = headers[shstrndx][4]
    sizes = {}
    for name, _, flags, _, _, size, _, _, _, _ in headers:
        n = data[strtab + name:data.index(b"\0", strtab + name)].decode()
        if n in SECTIONS and flags & SHF_WRITE and flags & SHF_ALLOC:
            sizes[n] = size
    return sizes


baseline, program, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
before, after = writable_data(baseline), writable_data(program)
added = {n: after.get(n, 0) - before.get(n, 0) for n in SECTIONS}
total = sum(added[n] for n in (".data", ".bss"))
print("added: " + ", ".join("%s %d" % (n, added[n]) for n in SECTIONS))
print(".data + .bss added: %d bytes, %s %d" %
      (total, "within" if total <= limit else "over", limit))
if total > limit:
    out = subprocess.run(["nm", "-S", "--size-sort", "-C", program],
                         capture_output=True, text=True).stdout
    objects = [l for l in out.splitlines()
               if len(l.split()) >= 4 and l.split()[2] in "bBdD"]
    print("largest:\n  " + "\n  ".join(objects[-12:]))
