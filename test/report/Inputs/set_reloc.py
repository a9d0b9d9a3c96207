#!/usr/bin/env python3
"""Rewrites the first relocation that applies to a section of a relocatable
ELF64 object: its offset and, optionally, its type.

  set_reloc.py IN OUT SECTION OFFSET [TYPE]
"""

import struct
import sys


def main():
    src, dst, target, offset = sys.argv[1:5]
    rtype = int(sys.argv[5], 0) if len(sys.argv) > 5 else None
    data = bytearray(open(src, "rb").read())
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
               for i in range(shnum)]
    strtab = headers[shstrndx]
    def name(h):
        start = strtab[4] + h[0]
        return data[start:data.index(b"\0", start)].decode()
    for h in headers:
        if h[1] == 4 and name(headers[h[7]]) == target:  # SHT_RELA, sh_info
            at = h[4]
            struct.pack_into("<Q", data, at, int(offset, 0))
            if rtype is not None:
                info, = struct.unpack_from("<Q", data, at + 8)
                struct.pack_into("<Q", data, at + 8,
                                 (info & ~0xffffffff) | rtype)
            open(dst, "wb").write(data)
            return 0
    sys.exit("no relocations for section %s" % target)


if __name__ == "__main__":
    sys.exit(main())
