"""Copies an ELF file with its .llvm_stackmaps section damaged.

Usage: corrupt_stackmaps.py IN OUT HOW
  version   the header's version byte becomes 9
  records   NumRecords becomes 0x7fffffff (the records cannot fit)
  kind      the first record's first location gets kind 9
  v2        the (one-blob, version 3) section rewritten in version 2, the
            layout of LLVM 3.8 to 10 (8-byte locations), padded with zeros
            to its size; function addresses stay where they were, so their
            relocations still apply
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
elif how == "v2":
    blob = bytes(data[off:off + size])
    version, = struct.unpack_from("<B", blob, 0)
    nfun, ncon, nrec = struct.unpack_from("<III", blob, 4)
    if version != 3:
        sys.exit("expected version 3")
    out = bytearray(blob[:16 + nfun * 24 + ncon * 8])
    out[0] = 2
    at = len(out)
    for _ in range(nrec):
        out += blob[at:at + 16]
        nloc, = struct.unpack_from("<H", blob, at + 14)
        at += 16
        for _ in range(nloc):
            kind, _, lsize, reg, _, loff = struct.unpack_from("<BBHHHi", blob, at)
            out += struct.pack("<BBHi", kind, lsize, reg, loff)
            at += 12
        at = (at + 7) & ~7
        nlive, = struct.unpack_from("<H", blob, at + 2)
        out += blob[at:at + 4 + 4 * nlive]
        at += 4 + 4 * nlive
        at = (at + 7) & ~7
        while len(out) % 8:
            out.append(0)
    if len(out) > size:
        sys.exit("does not fit")
    data[off:off + size] = out + bytes(size - len(out))
else:
    sys.exit("unknown damage " + how)
open(dst, "wb").write(data)
print("%s: %s" % (how, dst.rsplit("/", 1)[-1]))
