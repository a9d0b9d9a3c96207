"""Runs a program under strace and tells which files it read, and when.

usage: startup_files.py PCMAP_PROGRAM PLAIN_PROGRAM [ARGS...]

Both programs are the same source, one built with pcmap and one without;
each writes "main\\n" to stdout first thing in main. The system calls that
read files (openat, open, read, pread64, readv, preadv) are split at that
write: those before it are the start-up's. Prints the number of each
program's start-up file reads, the files the pcmap program opened before
main that the plain one did not, and those it opened after main; and the
paths it resolved before main with readlink (a readlink of /proc/self/exe
costs tens of microseconds in a new process) that the plain one did not.
"""

import os
import re
import subprocess
import sys
import tempfile

READS = ("openat", "open", "read", "pread64", "readv", "preadv")
LINKS = ("readlink", "readlinkat")
LINK = re.compile(r'^(?:\d+\s+)?(readlink|readlinkat)\((?:AT_FDCWD, )?"([^"]*)"')
OPEN = re.compile(r'^(?:\d+\s+)?(openat|open)\((?:AT_FDCWD, )?"([^"]*)"')
CALL = re.compile(r"^(?:\d+\s+)?(\w+)\(")
MAIN = re.compile(r'^(?:\d+\s+)?write\(1, "main\\n"')


def trace(program, args):
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "strace.log")
        calls = ",".join(READS + LINKS + ("write",))
        subprocess.run(
            ["strace", "-f", "-qq", "-e", "trace=" + calls, "-o", log, program]
            + args,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        with open(log) as f:
            lines = f.read().splitlines()
    before, after, opened_before, opened_after = 0, 0, [], []
    links_before = []
    in_main = False
    for line in lines:
        if MAIN.match(line):
            in_main = True
            continue
        link = LINK.match(line)
        if link and not in_main:
            links_before.append(link.group(2))
        call = CALL.match(line)
        if not call or call.group(1) not in READS:
            continue
        opened = OPEN.match(line)
        if in_main:
            after += 1
            if opened:
                opened_after.append(opened.group(2))
        else:
            before += 1
            if opened:
                opened_before.append(opened.group(2))
    if not in_main:
        sys.exit("startup_files.py: %s never wrote 'main'" % program)
    return before, opened_before, opened_after, links_before


def main():
    pcmap, plain, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    p_before, p_opened, p_after, p_links = trace(pcmap, args)
    c_before, c_opened, _, c_links = trace(plain, args)
    # The programs' own paths differ; compare by base name.
    mine = {os.path.basename(pcmap), os.path.basename(plain)}
    plain_files = {os.path.basename(f) for f in c_opened} - mine
    extra = [f for f in p_opened if os.path.basename(f) not in plain_files]
    print("start-up file reads: pcmap %d, plain %d, extra %d"
          % (p_before, c_before, p_before - c_before))
    print("opened only by pcmap before main: %s"
          % (" ".join(extra) if extra else "none"))
    print("opened by pcmap after main: %s"
          % (" ".join(p_after) if p_after else "none"))
    extra_links = [p for p in p_links if p not in c_links]
    print("links read only by pcmap before main: %s"
          % (" ".join(extra_links) if extra_links else "none"))


if __name__ == "__main__":
    main()
