#!/usr/bin/env python3
"""The tracer's stack walk per sample: BUILD/bench/pcmap_unwind_bench
(bench/unwind_bench.cpp, Google Benchmark) walks the stack from 8 and 24
calls down a chain of functions built without frame pointers, with the
tracer's captureStack (the call frame information through .eh_frame_hdr,
async-signal-safe, no cache), glibc's backtrace() and libgcc's
_Unwind_Backtrace (both cache what they look up; neither is
async-signal-safe). Prints a Markdown table of the medians of the
repetitions (CPU time per walk) and the frames each walk found.

usage: bench/run_unwind_bench.py [--build BUILD] [--reps N] [--min-time S]
                                 [--headline FILE]"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from headline import Headline

WALKS = (("BM_CaptureStack", "`captureStack` (the tracer's walk)"),
         ("BM_GlibcBacktrace", "glibc `backtrace()`"),
         ("BM_UnwindBacktrace", "libgcc `_Unwind_Backtrace`"))
UNIT_NS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", default="build-19")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--min-time", default="0.2")
    p.add_argument("--headline", help="also write the figures as JSON")
    a = p.parse_args()
    binary = os.path.join(a.build, "bench", "pcmap_unwind_bench")
    if not os.access(binary, os.X_OK):
        sys.exit("run_unwind_bench.py: no %s: build with "
                 "-DPCMAP_BUILD_BENCHMARKS=ON" % binary)
    fd, out = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        subprocess.run([binary, "--benchmark_min_time=%s" % a.min_time,
                        "--benchmark_repetitions=%d" % a.reps,
                        "--benchmark_out=" + out,
                        "--benchmark_out_format=json"], check=True,
                       stdout=sys.stderr)
        with open(out) as f:
            data = json.load(f)
    finally:
        os.unlink(out)
    runs = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" or b.get("error_occurred"):
            continue
        runs.setdefault(b["run_name"], []).append(b)

    def median(name, key):
        vals = [b[key] * (UNIT_NS[b.get("time_unit", "ns")]
                          if key == "cpu_time" else 1)
                for b in runs.get(name, []) if key in b]
        return statistics.median(vals) if vals else None

    depths = sorted({int(n.split("/")[1]) for n in runs})
    print("Stack walk per sample, CPU µs per walk: median of %d repetitions "
          "(frames found)" % a.reps)
    print()
    print("| walk | %s |" % " | ".join("%d calls down" % d for d in depths))
    print("| --- |%s" % (" ---: |" * len(depths)))
    for name, label in WALKS:
        cells = []
        for d in depths:
            t = median("%s/%d" % (name, d), "cpu_time")
            frames = median("%s/%d" % (name, d), "frames")
            cells.append("-" if t is None else "%.2f (%d frames)" % (
                t / 1000, frames or 0))
        print("| %s | %s |" % (label, " | ".join(cells)))
    h = Headline(a.headline)
    for d in depths:
        ours = median("BM_CaptureStack/%d" % d, "cpu_time")
        for name, label in WALKS[1:]:
            theirs = median("%s/%d" % (name, d), "cpu_time")
            h.add("walk_%d_%s" % (d, name[3:].lower()),
                  "`captureStack`, %d frames" % median(
                      "BM_CaptureStack/%d" % d, "frames"),
                  ours / 1000 if ours else None, "µs",
                  baseline=theirs / 1000 if theirs else None,
                  baseline_label=label, digits=2)
    h.write()


if __name__ == "__main__":
    main()
