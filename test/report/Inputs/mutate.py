#!/usr/bin/env python3
"""Runs pcmap-report on corrupted copies of a file: random bytes overwritten
in the metadata sections, in the ELF headers and anywhere, and truncations.
Every run must end with an exit status pcmap-report documents (never a
signal) and, on failure, exactly one error line naming the file.

  mutate.py PCMAP-REPORT FILE WORKDIR [COUNT] [SEED]
"""

import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "support"))
import pcmap_elf  # noqa: E402  (section offsets only)


def main():
    tool, path, work = sys.argv[1:4]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
    data = open(path, "rb").read()
    elf = pcmap_elf.ElfFile(path)
    regions = [(s.offset, s.size) for s in elf.sections
               if pcmap_elf.parse_section_name(s.name) and s.size]
    regions.append((0, 64))  # the ELF header
    regions.append((elf.shoff, elf.shnum * 64))  # section headers
    statuses = {}
    problems = []
    mutant = os.path.join(work, "mutant")
    for i in range(count):
        buf = bytearray(data)
        how = rng.randrange(4)
        if how == 3:
            del buf[rng.randrange(len(buf)):]
        else:
            off, size = regions[rng.randrange(len(regions))] if how < 2 \
                else (0, len(buf))
            for _ in range(rng.randrange(1, 9)):
                buf[off + rng.randrange(size)] = rng.randrange(256)
        with open(mutant, "wb") as f:
            f.write(buf)
        for args in (["functions"], ["atomics", "--format=json"]):
            r = subprocess.run([tool] + args + [mutant],
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True,
                               errors="replace")
            statuses[r.returncode] = statuses.get(r.returncode, 0) + 1
            lines = r.stderr.splitlines()
            if r.returncode not in (0, 2, 3, 4, 5):
                problems.append("mutant %d %s: exit status %d: %s"
                                % (i, args[0], r.returncode, r.stderr[-500:]))
            elif r.returncode and (len(lines) != 1 or "'%s'" % mutant
                                   not in lines[0]):
                problems.append("mutant %d %s: stderr %r"
                                % (i, args[0], r.stderr[-500:]))
            if problems:
                os.replace(mutant, mutant + ".%d" % i)
                break
        if problems:
            break
    for p in problems:
        print("FAIL: " + p)
    if problems:
        return 1
    print("OK: %d mutants, exit statuses %s" % (count, sorted(statuses)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
