#!/usr/bin/env python3
"""Instrumentation benchmarks, measured against their baselines in one run.

1. Compile time: each input compiled at -O2 (-c) with pcmap-clang with and
   without -fsanitize-metadata=all; median wall time of --runs runs each,
   plus the pcmap pass's own time from -ftime-report.
2. Metadata size: each input compiled and linked with pcmap
   (-fsanitize-metadata=all) and with upstream clang
   (-fexperimental-sanitize-metadata=atomics,covered); section bytes and
   bytes per atomic PC, from an independent decoder (test/support/pcmap_elf.py).

--headline FILE also writes the figures as JSON (bench/headline.py).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

from headline import Headline

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def timed(cmd):
    t0 = time.perf_counter()
    run(cmd)
    return time.perf_counter() - t0


def pass_time(cmd):
    r = subprocess.run(cmd + ["-ftime-report"], check=True, capture_output=True, text=True)
    m = re.search(r"\s([0-9.]+) \(\s*[0-9.]+%\)\s+pcmap::PCMapPass", r.stderr)
    return float(m.group(1)) if m else 0.0


def compile_time(driver, src, runs, std):
    base = [driver, "-O2", "-c", src, "-o", os.devnull] + std
    inst = base + ["-fsanitize-metadata=all"]
    plain, pcmap = [], []
    for _ in range(runs):  # interleaved, so drift affects both alike
        plain.append(timed(base))
        pcmap.append(timed(inst))
    passes = [pass_time(inst) for _ in range(runs)]
    return statistics.median(plain), statistics.median(pcmap), statistics.median(passes)


def section_sizes(readelf, binary):
    out = subprocess.run([readelf, "-S", "-W", binary], check=True, capture_output=True,
                         text=True).stdout
    sizes = {}
    for m in re.finditer(r"\]\s+((?:pcmap|sanmd)_\w+)\s+\S+\s+\S+\s+\S+\s+([0-9a-f]+)", out):
        sizes[m.group(1)] = sizes.get(m.group(1), 0) + int(m.group(2), 16)
    return sizes


def count_pcs(binary):
    out = subprocess.run([sys.executable, os.path.join(ROOT, "test", "support", "pcmap_elf.py"),
                          "dump", binary], check=True, capture_output=True, text=True).stdout
    pcmap = sum(1 for l in out.splitlines() if l.startswith("atomic "))
    upstream = sum(1 for l in out.splitlines() if l.startswith("sanmd-atomic "))
    return pcmap, upstream


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--build", default=os.path.join(ROOT, "build-19"))
    p.add_argument("--clang", help="upstream clang (default: PCMAP_CLANG in "
                   "the build's CMakeCache.txt, the clang the drivers run)")
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--functions", type=int, default=3000)
    p.add_argument("inputs", nargs="*", help="extra C/C++ sources (default: a generated program)")
    p.add_argument("--headline", help="also write the figures as JSON")
    a = p.parse_args()
    headline = Headline(a.headline)
    if not a.clang:
        with open(os.path.join(a.build, "CMakeCache.txt")) as f:
            a.clang = next((l.split("=", 1)[1].strip() for l in f
                            if l.startswith("PCMAP_CLANG:")), "clang")
    tmp = tempfile.mkdtemp(prefix="pcmap-bench-")
    gen = os.path.join(tmp, "large.cpp")
    run([sys.executable, os.path.join(ROOT, "bench", "gen_atomics_program.py"),
         "--functions", str(a.functions), gen])
    e2e = os.path.join(ROOT, "test", "e2e", "Inputs")
    inputs = [gen] + a.inputs + [os.path.join(ROOT, "examples", "demo.c"),
                                 os.path.join(e2e, "c11_atomics.c"),
                                 os.path.join(e2e, "cxx_atomics.cpp")]
    driver = os.path.join(a.build, "bin", "pcmap-clang")

    print(f"compile time, -O2 -c, median of {a.runs} runs (baseline: the same compiler without the flag)")
    print(f"{'input':<28} {'lines':>7} {'plain s':>9} {'pcmap s':>9} {'overhead':>9} {'pass s':>8}")
    for src in inputs:
        std = ["-std=c++20"] if src.endswith(".cpp") else ["-Wno-atomic-alignment"]
        if src.endswith(".cpp"):
            drv = driver + "++"
        else:
            drv = driver
        plain, pcmap, ptime = compile_time(drv, src, a.runs, std)
        lines = sum(1 for _ in open(src))
        print(f"{os.path.basename(src):<28} {lines:>7} {plain:>9.3f} {pcmap:>9.3f} "
              f"{100 * (pcmap - plain) / plain:>8.1f}% {ptime:>8.4f}")
        name = os.path.basename(src)
        headline.add("compile_" + name, f"compile time, {name} "
                     f"({lines} lines), -O2 -c", pcmap, "s", baseline=plain,
                     baseline_label="the same compile without "
                     "-fsanitize-metadata", digits=3,
                     note=f"the pass itself: {ptime:.4f} s")

    print()
    print("metadata size, linked -O2 binaries (baseline: upstream sanmd atomics+covered, 4-byte PC entries)")
    print(f"{'input':<28} {'atomic PCs':>10} {'pcmap B':>8} {'B/PC':>6} {'up PCs':>7} {'sanmd B':>8} {'B/PC':>6}")
    for src in inputs:
        cxx = src.endswith(".cpp")
        std = ["-std=c++20"] if cxx else ["-Wno-atomic-alignment"]
        ours = os.path.join(tmp, os.path.basename(src) + ".pcmap")
        theirs = os.path.join(tmp, os.path.basename(src) + ".sanmd")
        run([driver + ("++" if cxx else ""), "-O2", "-pthread", src, "-o", ours,
             "-fsanitize-metadata=all", "-latomic"] + std)
        run([a.clang + ("++" if cxx else ""), "-O2", "-pthread", src, "-o", theirs,
             "-fexperimental-sanitize-metadata=atomics,covered", "-latomic"] + std)
        readelf = os.path.join(os.path.dirname(a.clang), "llvm-readelf")
        s1, s2 = section_sizes(readelf, ours), section_sizes(readelf, theirs)
        pcs, _ = count_pcs(ours)
        _, ups = count_pcs(theirs)
        b1 = sum(v for k, v in s1.items() if k.startswith("pcmap_"))
        a1 = sum(v for k, v in s1.items() if k.startswith("pcmap_atomics"))
        b2 = sum(v for k, v in s2.items() if k.startswith("sanmd_"))
        a2 = sum(v for k, v in s2.items() if k.startswith("sanmd_atomics"))
        print(f"{os.path.basename(src):<28} {pcs:>10} {b1:>8} {a1 / max(pcs, 1):>6.2f} {ups:>7} {b2:>8} "
              f"{a2 / max(ups, 1):>6.2f}")
        name = os.path.basename(src)
        headline.add("bytes_per_pc_" + name, f"atomics section bytes per "
                     f"atomic PC, {name}", a1 / max(pcs, 1), "bytes",
                     baseline=a2 / max(ups, 1), baseline_label="upstream "
                     "-fexperimental-sanitize-metadata=atomics,covered",
                     digits=2, note=f"{pcs} atomic PCs (upstream {ups})")
        headline.add("bytes_" + name, f"metadata bytes (atomics and "
                     f"functions tables), {name}", b1, "bytes", baseline=b2,
                     baseline_label="upstream "
                     "-fexperimental-sanitize-metadata=atomics,covered")
    print("(B/PC: bytes of the atomics section per atomic PC; totals include the function tables)")
    headline.write()


if __name__ == "__main__":
    main()
