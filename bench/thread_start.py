#!/usr/bin/env python3
"""What a thread's start and end cost with the runtime: test/rt/Inputs/
thread_churn.c (create and join 20,000 threads that do nothing) built by
pcmap-clang (the fault reporter on, as by default: each thread gets the
runtime's hidden alternate signal stack) and by plain clang, run
alternately ROUNDS times. Prints the median time per thread of each, the
ratio (the bound: 1.10x), and, with strace, the system calls per thread of
each build.

usage: bench/thread_start.py BUILD_DIR [ROUNDS [THREADS]] [--headline FILE]
--headline FILE: also write the figures as JSON (bench/headline.py)."""

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

from headline import Headline, take_option

headline = Headline(take_option(sys.argv))
build = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 11
threads = int(sys.argv[3]) if len(sys.argv) > 3 else 20000
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
source = os.path.join(root, "test", "rt", "Inputs", "thread_churn.c")
cache = [l.split("=", 1)[1].strip() for l in
         open(os.path.join(build, "CMakeCache.txt"))
         if l.startswith("CMAKE_C_COMPILER:")]
clang = os.environ.get("CC", cache[0] if cache else "clang")
tmp = tempfile.mkdtemp()
pcmap, plain = os.path.join(tmp, "pcmap"), os.path.join(tmp, "plain")
subprocess.run([os.path.join(build, "bin", "pcmap-clang"), "-O2", "-pthread",
                "-fsanitize-metadata=all", source, "-o", pcmap], check=True)
subprocess.run([clang, "-O2", "-pthread", source, "-o", plain], check=True)


def per_thread(exe):
    out = subprocess.run([exe, str(threads)], check=True, text=True,
                         capture_output=True).stdout
    return float(re.search(r"([\d.]+) us each", out).group(1))


times = {pcmap: [], plain: []}
for _ in range(rounds):
    for exe in (plain, pcmap):
        times[exe].append(per_thread(exe))
p, q = statistics.median(times[plain]), statistics.median(times[pcmap])
print("create and join %d threads, median of %d alternated rounds:" %
      (threads, rounds))
print("  plain %.2f us a thread, pcmap %.2f us: %.3fx" % (p, q, q / p))
headline.add("thread", "a thread created and joined (%d threads)" % threads,
             q, "µs", baseline=p, baseline_label="plain clang's build",
             digits=2)


def syscalls(exe, n):
    """System calls of a run with n threads (strace -f -c)."""
    log = os.path.join(tmp, "strace")
    subprocess.run(["strace", "-f", "-c", "-o", log, exe, str(n)],
                   check=True, stdout=subprocess.DEVNULL)
    total = [l for l in open(log) if l.rstrip().endswith("total")]
    return int(total[0].split()[3]) if total else 0


if shutil.which("strace"):
    calls = {}
    for name, exe in (("plain", plain), ("pcmap", pcmap)):
        per = (syscalls(exe, 1000) - syscalls(exe, 0)) / 1000.0
        calls[name] = per
        print("  %s: %.1f system calls a thread" % (name, per))
    headline.add("syscalls", "system calls a thread", calls["pcmap"],
                 "calls", baseline=calls["plain"],
                 baseline_label="plain clang's build", digits=1,
                 difference=True)
headline.write()
shutil.rmtree(tmp, ignore_errors=True)
