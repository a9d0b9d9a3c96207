"""Copies an ELF file with its .llvm_stackmaps section damaged.

Usage: corrupt_stackmaps.py IN OUT HOW
  version   the header's version byte becomes 9
  records   NumRecords becomes 0x7fffffff (the records cannot fit)
  kind      the first record's first location gets kind 9
"""

import struct
import sys


def find_section(data, wanted):
    # ELF64 little-endian: e_shoff at 0x28, e_shentsize/e_shnum/e_shstrndx
    # at 0x3a.
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)

    def header(i):
        return struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)

    strtab = header(shstrndx)
    for i in range(shnum):
        h = header(i)
        name_at = strtab[4] + h[0]
        name = data[name_at:data.index(b"\0", name_at)].decode()
        if name == wanted:
            return h[4], h[5]  # file offset, size
    sys.exit("no %s section" % wanted)


src, dst, how = sys.argv[1:4]
data = bytearray(open(src, "rb").read())
off, size = find_section(data, ".llvm_stackmaps")
if how == "version":
    data[off] = 9
elif how == "records":
    struct.pack_into("<I", data, off + 12, 0x7FFFFFFF)
elif how == "kind":
    version = data[off]
    nfun, ncon, nrec = struct.unpack_from("<III", data, off + 4)
    fsize = 16 if version == 1 else 24
    first_record = off + 16 + nfun * fsize + ncon * 8
    data[first_record + 16] = 9  # the first location's kind
else:
    sys.exit("unknown damage " + how)
open(dst, "wb").write(data)
print("damaged %s: %s" % (how, dst.rsplit("/", 1)[-1]))
