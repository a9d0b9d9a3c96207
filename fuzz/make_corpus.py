#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz harnesses (fuzz/corpus/<harness>/).

Two kinds of seeds:
- real sections: a small C program is built with pcmap-clang
  (-fsanitize-metadata=all) and with upstream clang
  (-fexperimental-sanitize-metadata=all), in the small and the large code
  model; each metadata section is cut out of the executable together with
  its executable segments, expressed relative to the section as the
  harnesses' input layout wants (fuzz/FuzzSupport.h);
- hand-made edge cases, encoded here by the rules of docs/FORMAT.md;
- for the ELF reader, the objects and executables themselves;
- for the trace reader, the lit tests' tracer dumps.

Usage: make_corpus.py [--pcmap-clang PATH --clang PATH] [--out DIR]
Without the compilers only the hand-made seeds are written. Existing seeds
(such as inputs that once found a bug) are kept.
"""

import argparse
import hashlib
import os
import re
import struct
import subprocess
import sys
import tempfile

PROGRAM = r"""
#include <stdatomic.h>
_Atomic int counter;
_Atomic long wide;
volatile _Atomic char flag;
__attribute__((noinline)) int load_acquire(void) {
  return atomic_load_explicit(&counter, memory_order_acquire);
}
__attribute__((noinline)) void store_release(int v) {
  atomic_store_explicit(&counter, v, memory_order_release);
}
__attribute__((noinline)) long rmw(long v) {
  long r = atomic_fetch_add_explicit(&wide, v, memory_order_relaxed);
  r += atomic_fetch_or(&wide, 4);
  return r + atomic_exchange_explicit(&wide, r, memory_order_acq_rel);
}
__attribute__((noinline)) int cas(int e, int d) {
  return atomic_compare_exchange_weak_explicit(
      &counter, &e, d, memory_order_seq_cst, memory_order_relaxed);
}
__attribute__((noinline)) void fence(void) {
  atomic_thread_fence(memory_order_seq_cst);
  flag = 1;
}
/* Arguments on the stack: upstream's UAR entries carry their size. */
__attribute__((noinline)) long many(long a, long b, long c, long d, long e,
                                    long f, long g, long h, long i) {
  return a + b + c + d + e + f + g + h + i + wide;
}
__attribute__((noinline)) int plain(int x) { return x * 3; }
int main(int argc, char **argv) {
  store_release(argc);
  fence();
  return load_acquire() + (int)rmw(argc) + cas(1, 2) + plain(argc) +
         (int)many(1, 2, 3, 4, 5, 6, 7, 8, 9);
}
"""

KINDS = {"pcmap_atomics": 0, "pcmap_functions": 1, "sanmd_atomics": 2,
         "sanmd_covered": 3}
PTR_SIZE_REL = 1 << 16


# --------------------------------------------------------------------------
# Input layout (FuzzSupport.h)
# --------------------------------------------------------------------------

def selector(harness, kind, version):
    """The selector byte (and raw version bytes) for a harness, or None."""
    base, ptr = version & 0xffff, bool(version & PTR_SIZE_REL)
    known = (version & ~(0xffff | PTR_SIZE_REL)) == 0
    if harness == "format" and kind in (0, 1):
        if known and base == 1:
            return bytes([kind | (2 if ptr else 0)])
        return bytes([kind | 0x80]) + struct.pack("<I", version)
    if harness == "sanmd" and kind in (2, 3):
        if known and base in (1, 2):
            return bytes([(kind - 2) | (2 if ptr else 0) | (4 if base == 1 else 0)])
        return bytes([(kind - 2) | 0x80]) + struct.pack("<I", version)
    if harness == "report":
        if known and (base == 1 or (kind >= 2 and base == 2)):
            return bytes([kind | (4 if ptr else 0) | (8 if kind >= 2 and base == 1 else 0)])
        return bytes([kind | 0x80]) + struct.pack("<I", version)
    return None


def ranges_bytes(ranges):
    """Up to four (start relative to the section, length) code ranges."""
    ranges = ranges[:4] or [(0, 0)]
    out = bytes([len(ranges) - 1])
    for start, length in ranges:
        out += struct.pack("<iI", start, length)
    return out


def seed(harness, kind, version, ranges, section):
    sel = selector(harness, kind, version)
    return None if sel is None else sel + ranges_bytes(ranges) + section


# --------------------------------------------------------------------------
# Encoders for hand-made sections; the code is the 64 KiB before the section
# --------------------------------------------------------------------------

CODE = [(-0x10000, 0x10000)]


def uleb(v):
    out = bytearray()
    while True:
        b, v = v & 0x7f, v >> 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def rel(target, at, width):
    return struct.pack("<i" if width == 4 else "<q", target - at)


def atomics(records, width, upstream=False):
    """records: [([code offsets], descriptor)], offsets from the code start."""
    out = bytearray()
    for pcs, desc in records:
        for pc in pcs:
            out += rel(-0x10000 + pc, len(out), width)
        if not upstream:
            out += b"\0" * width + uleb(desc)
    return bytes(out)


def functions(entries, width, fixed32=False):
    """entries: [(offset, size, features[, stack args])]."""
    out = bytearray()
    for e in entries:
        out += rel(-0x10000 + e[0], len(out), width)
        for v in e[1:]:
            out += struct.pack("<I", v) if fixed32 else uleb(v)
    return bytes(out)


def desc(kind, size_log2, order, extra=0):
    return kind | (size_log2 << 3) | (order << 6) | extra


def hand_made():
    """(name, harness list, kind, version, section bytes)."""
    seeds = []
    for width, flag in ((4, 0), (8, PTR_SIZE_REL)):
        w = "w%d" % width
        good_atomics = atomics([([0x10, 0x14], desc(0, 2, 4)),
                                ([0x20], desc(2, 3, 2, 1 << 11)),
                                ([0x30], desc(3, 2, 7, (2 << 11) | (1 << 14))),
                                ([0x40], desc(4, 0, 7))], width)
        good_functions = functions([(0x10, 0x10, 3), (0x20, 0x30, 1),
                                    (0x100, 0x20, 0)], width)
        for h in ("format", "report"):
            seeds += [
                ("atomics-" + w, h, 0, 1 | flag, good_atomics),
                ("functions-" + w, h, 1, 1 | flag, good_functions),
                ("empty-" + w, h, 0, 1 | flag, b""),
                ("truncated-pc-" + w, h, 0, 1 | flag, good_atomics[:width - 1]),
                ("no-pc-record-" + w, h, 0, 1 | flag, b"\0" * width + b"\x01"),
                ("bad-kind-" + w, h, 0, 1 | flag, atomics([([0x10], 5)], width)),
                ("overlong-uleb-" + w, h, 0, 1 | flag,
                 atomics([([0x10], 0)], width)[:-1] + b"\x80" * 10 + b"\0"),
                ("big-descriptor-" + w, h, 0, 1 | flag,
                 atomics([([0x10], 1 << 21)], width)),
                ("pc-outside-" + w, h, 0, 1 | flag,
                 atomics([([0x20000], desc(0, 2, 2))], width)),
                ("function-overruns-" + w, h, 1, 1 | flag,
                 functions([(0xff00, 0x200, 1)], width)),
                ("huge-size-" + w, h, 1, 1 | flag,
                 functions([(0x10, (1 << 64) - 1, 1)], width)),
                ("high-features-" + w, h, 1, 1 | flag,
                 functions([(0x10, 0x10, (1 << 40) | 1)], width)),
                ("duplicates-" + w, h, 0, 1 | flag,
                 atomics([([0x10, 0x10], desc(0, 2, 4)), ([0x10], desc(1, 2, 5))],
                         width)),
                ("unknown-version-" + w, h, 0, 2 | flag, good_atomics),
                ("version-flags-" + w, h, 1, 1 | flag | (1 << 20), good_functions),
            ]
        covered_v2 = functions([(0x10, 0x20, 1), (0x40, 0x20, 2),
                                (0x80, 0x20, 6, 144)], width)
        covered_v1 = functions([(0x10, 0x20, 1), (0x40, 0x20, 3, 16)], width,
                               fixed32=True)
        sanmd_atomics = atomics([([0x10], 0), ([0x20], 0), ([0x14], 0)], width,
                                upstream=True)
        for h in ("sanmd", "report"):
            seeds += [
                ("covered-v2-uar-" + w, h, 3, 2 | flag, covered_v2),
                ("covered-v1-uar-" + w, h, 3, 1 | flag, covered_v1),
                ("atomics-v2-" + w, h, 2, 2 | flag, sanmd_atomics),
                ("atomics-v1-" + w, h, 2, 1 | flag, sanmd_atomics),
                ("covered-truncated-stack-args-" + w, h, 3, 2 | flag,
                 covered_v2[:-1]),
                ("covered-v1-truncated-" + w, h, 3, 1 | flag, covered_v1[:-2]),
                ("atomics-zero-pc-" + w, h, 2, 2 | flag, b"\0" * width),
                ("unknown-version-" + w, h, 3, 3 | flag, covered_v2),
            ]
    return seeds


def roundtrip_seeds():
    """Structured inputs (fuzz_roundtrip.cpp): atomics and functions."""
    at = bytes([0]) + bytes([1, 0x10, 0, 0, 0x10, 0x02, 0, 0]) + \
        bytes([0, 0x20, 0, 0, 0x1a, 0x07, 0x05, 0x0f])
    fn = bytes([1]) + bytes([0x10, 0, 0, 0x20, 0, 0x03]) + \
        bytes([0x00, 0x01, 0, 0x40, 0, 0x81, 0x80, 0x80, 0x80, 0x80, 0x01])
    return [("atomics-w4", at), ("atomics-w8", bytes([2]) + at[1:]),
            ("functions-w4", fn), ("functions-w8", bytes([3]) + fn[1:])]


OPTIONS = [
    "verbosity=2:log_path=stderr",
    "help=1,handle_segv=true symbolize=no\thandle_sigbus=0",
    "log_path='a b:c':report_format=\"json\"",
    "stack_depth=-5:trace_hz=100000:trace_top=2147483647",
    "verbosity=99999999999",
    "unknown_option=1",
    "novalue:verbosity",
    "log_path=\"unterminated",
    "trace_hz=0x10,report_path=",
    "symbolizer_path=/nonexistent/llvm-symbolizer:symbolize=yes",
    "log_path=\"x\"verbosity=0",
]


# --------------------------------------------------------------------------
# Sections of real executables
# --------------------------------------------------------------------------

def elf_sections(path):
    """(name, address, bytes) of the metadata sections, and the executable
    PT_LOAD segments as (address, size)."""
    data = open(path, "rb").read()
    (_, _, _, _, _, phoff, shoff, _, _, phentsize, phnum, shentsize, shnum,
     shstrndx) = struct.unpack_from("<16sHHIQQQIHHHHHH", data, 0)
    segments = []
    for i in range(phnum):
        ptype, flags, _, vaddr, _, _, memsz, _ = struct.unpack_from(
            "<IIQQQQQQ", data, phoff + i * phentsize)
        if ptype == 1 and flags & 1:
            segments.append((vaddr, memsz))
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
               for i in range(shnum)]
    strtab = headers[shstrndx]
    names = data[strtab[4]:strtab[4] + strtab[5]]
    sections = []
    for h in headers:
        name = names[h[0]:names.index(b"\0", h[0])].decode()
        if re.match(r"(pcmap|sanmd)_(atomics|functions|covered)\d*$", name):
            sections.append((name, h[3], data[h[4]:h[4] + h[5]]))
    return sections, segments


def real_seeds(pcmap_clang, clang, tmp, elf_files):
    """Sections of real executables; the files themselves (executables of
    the small code model, objects of both) go to elf_files."""
    src = os.path.join(tmp, "prog.c")
    with open(src, "w") as f:
        f.write(PROGRAM)
    builds = []
    for model in ("small", "large"):
        builds.append(("pcmap-" + model, [pcmap_clang, "-fsanitize-metadata=all"],
                       model))
        builds.append(("upstream-" + model,
                       [clang, "-fexperimental-sanitize-metadata=all"], model))
    seeds = []
    for tag, cc, model in builds:
        exe = os.path.join(tmp, tag)
        # Compiled by the compiler under test, linked by plain clang: the
        # executables do not contain the runtime (its registration
        # callbacks are weak), so the seeds do not change with it.
        obj = exe + ".o"
        subprocess.run(cc + ["-O2", "-mcmodel=" + model, "-Wno-atomic-alignment",
                             "-c", src, "-o", obj], check=True)
        subprocess.run([clang, "-mcmodel=" + model, obj, "-o", exe], check=True)
        elf_files.append(("real-%s.o" % tag, open(obj, "rb").read()))
        if model == "small":
            elf_files.append(("real-%s" % tag, open(exe, "rb").read()))
        sections, segments = elf_sections(exe)
        for name, addr, data in sections:
            m = re.match(r"(\w+?)(\d*)$", name)
            kind = KINDS[m.group(1)]
            version = int(m.group(2)) if m.group(2) else 2
            ranges = [(start - addr, size) for start, size in segments]
            seeds.append(("real-%s-%s" % (tag, name), kind, version, ranges, data))
    return seeds


def trace_seeds():
    """The trace harness's seeds: the lit tests' tracer dumps
    (test/report/Inputs/trace), each with a selector byte (bit 0: read the
    file twice; bit 1: top 3 rows; bit 2: per-process counts), and a few
    edge cases: a dump cut short, two runs, a multi-line document."""
    inputs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                          "test", "report", "Inputs", "trace")
    seeds = []
    for name in sorted(os.listdir(inputs)):
        if not name.endswith((".jsonl", ".json")):
            continue
        with open(os.path.join(inputs, name), "rb") as f:
            text = f.read()
        for sel in (0, 1, 6):
            seeds.append(("%s-%d" % (name, sel), bytes([sel]) + text))
    with open(os.path.join(inputs, "child.jsonl"), "rb") as f:
        child = f.read().strip()
    seeds.append(("torn", bytes([0]) + child + b"\n" + child[:len(child) // 2]))
    seeds.append(("pretty", bytes([4]) + child.replace(b", ", b",\n  ")))
    seeds.append(("empty", bytes([0])))
    return seeds


def write(out, harness, name, data):
    d = os.path.join(out, harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pcmap-clang")
    p.add_argument("--clang")
    p.add_argument("--out", default=os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "corpus"))
    args = p.parse_args()

    for name, harness, kind, version, section in hand_made():
        data = seed(harness, kind, version, CODE, section)
        if data is not None:
            write(args.out, harness, name, data)
    for name, data in roundtrip_seeds():
        write(args.out, "roundtrip", name, data)
    for name, data in trace_seeds():
        write(args.out, "trace", name, data)
    for text in OPTIONS:
        name = "opt-" + hashlib.sha1(text.encode()).hexdigest()[:10]
        write(args.out, "options", name, text.encode())

    if args.pcmap_clang and args.clang:
        with tempfile.TemporaryDirectory() as tmp:
            elf_files = []
            for name, kind, version, ranges, section in real_seeds(
                    args.pcmap_clang, args.clang, tmp, elf_files):
                for harness in ("format", "sanmd", "report"):
                    data = seed(harness, kind, version, ranges, section)
                    if data is not None:
                        write(args.out, harness, name, data)
            for name, data in elf_files:
                write(args.out, "elf", name, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
