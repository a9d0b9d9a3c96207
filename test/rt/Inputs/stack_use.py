"""Compares how much of a stack the pcmap build used with the plain build.

Usage: stack_use.py [--plus-signal-frame] BOUND PLAIN PCMAP...: each file
holds the line "used N bytes" a run of test/rt/Inputs/stack_bounds.c
printed. Prints, for each pcmap run, how many bytes it used beyond the plain
run and whether that is within BOUND bytes; with --plus-signal-frame, BOUND
bytes beyond the kernel's signal frame (AT_MINSIGSTKSZ: 3376 bytes on a CPU
with AVX-512), where the plain run takes no signal at all."""

import re
import struct
import sys


def signal_frame():
    """The kernel's signal frame size (AT_MINSIGSTKSZ, 51), 0 if unknown."""
    try:
        with open("/proc/self/auxv", "rb") as f:
            data = f.read()
    except OSError:
        return 0
    for i in range(0, len(data) - 15, 16):
        key, value = struct.unpack("QQ", data[i:i + 16])
        if key == 51:
            return value
    return 0


def used(path):
    with open(path) as f:
        text = f.read()
    m = re.search(r"^used (\d+) bytes$", text, re.M)
    if not m:
        sys.exit("%s: no 'used N bytes' line in:\n%s" % (path, text))
    return int(m.group(1))


args = sys.argv[1:]
frame = 0
if args[0] == "--plus-signal-frame":
    args.pop(0)
    frame = signal_frame()
bound = int(args[0])
plain = used(args[1])
for path in args[2:]:
    extra = used(path) - plain - frame
    verdict = "within" if extra <= bound else "OVER"
    print("%s: %d bytes beyond the plain build's %d%s: %s the bound of %d"
          % (path.rsplit("/", 1)[-1], extra, plain,
             " and the kernel's signal frame" if frame else "", verdict,
             bound))
