#!/usr/bin/env python3
"""What faults a program handles itself cost with pcmap's fault reporter on:
test/rt/Inputs/fault_handlers.c built by pcmap-clang (the reporter on, the
default) and by plain clang, run alternately RUNS times each in the modes
"repair" (1,000 write-barrier faults its handler repairs) and "recover"
(100 faults it recovers from with siglongjmp), with the handler installed
before pcmap's and after it. Prints the median wall time of each and the
ratio to the plain build (the issue's bound: 2x).

usage: bench/handled_faults.py BUILD_DIR [RUNS] [--headline FILE]
--headline FILE: also write the figures as JSON (bench/headline.py)."""

import os
import statistics
import subprocess
import sys
import tempfile
import time

from headline import Headline, take_option

headline = Headline(take_option(sys.argv))
build = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 11
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
source = os.path.join(root, "test", "rt", "Inputs", "fault_handlers.c")
cache = [l.split("=", 1)[1].strip() for l in
         open(os.path.join(build, "CMakeCache.txt"))
         if l.startswith("CMAKE_C_COMPILER:")]
clang = os.environ.get("CC", cache[0] if cache else "clang")
tmp = tempfile.mkdtemp()
pcmap, plain = os.path.join(tmp, "pcmap"), os.path.join(tmp, "plain")
subprocess.run([os.path.join(build, "bin", "pcmap-clang"), "-O1",
                "-fsanitize-metadata=all", "-Wno-unknown-warning-option",
                source, "-o", pcmap], check=True)
subprocess.run([clang, "-O1", source, "-o", plain], check=True)


def run(exe, mode):
    start = time.perf_counter()
    subprocess.run([exe, mode], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


LABELS = {"repair": "1,000 faults repaired, handler installed before pcmap's",
          "repair-after": "1,000 faults repaired, handler installed after "
                          "pcmap's",
          "recover": "100 faults recovered with siglongjmp, handler "
                     "installed before pcmap's",
          "recover-after": "100 faults recovered with siglongjmp, handler "
                           "installed after pcmap's"}
print("| mode | plain (ms) | pcmap (ms) | ratio |")
print("| --- | ---: | ---: | ---: |")
for mode in ("repair", "repair-after", "recover", "recover-after"):
    times = {plain: [], pcmap: []}
    for _ in range(runs):
        for exe in (plain, pcmap):
            times[exe].append(run(exe, mode))
    p, q = (statistics.median(times[e]) * 1000 for e in (plain, pcmap))
    print("| %s | %.2f | %.2f | %.2fx |" % (mode, p, q, q / p))
    headline.add(mode, "`%s`: %s" % (mode, LABELS[mode]), q, "ms",
                 baseline=p, baseline_label="plain clang's build",
                 digits=2)
headline.write()
