#!/usr/bin/env python3
"""The race detector (detect_races=1): what it finds, what it never reports,
and what it costs, beside ThreadSanitizer.

usage: bench/race_bench.py BUILD_DIR [RUNS [ROUNDS]] [--headline FILE]
  --headline FILE: also write the figures as JSON (bench/headline.py)

Detection: test/rt/Inputs/racy.c (two threads on a plain global counter,
a plain member of a heap object, an atomic counter, a relaxed atomic flag
and a counter under a mutex, 3 s in all) RUNS times at the default
settings: in how many runs each racy counter is reported at its line, and
every report on the others (there must be none); the same on AArch64
under qemu-user where the cross-built runtime and qemu are there. The
same program built
with -fsanitize=thread, once: what TSan reports, and the work each build
does in its 3 s against the plain build's (both slow the program down).
Cost: the demo (examples/refcache.cpp, a fixed amount of work: wall time)
and the forking test server (test/rt/Inputs/fork_server.c: requests/s,
and its workers' CPU time per request, from the kernel),
ROUNDS rounds of plain and detect_races=1 in rotating order; the figure
is the median of each round's ratio."""

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from headline import Headline, take_option

headline = Headline(take_option(sys.argv))
build = os.path.abspath(sys.argv[1])
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 10
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
clang = os.path.join(build, "bin", "pcmap-clang")
work = tempfile.mkdtemp(prefix="pcmap-race-")
RACY = os.path.join(root, "test", "rt", "Inputs", "racy.c")
COUNTERS = re.compile(r"global (\d+) heap (\d+) atomic (\d+) locked (\d+)")


def build_prog(compiler, src, out, extra=()):
    subprocess.run([compiler, "-g", "-O2", "-pthread", *extra, src, "-o", out],
                   check=True)
    return out


def work_done(stdout):
    return sum(int(x) for x in COUNTERS.search(stdout).groups())


racy = build_prog(clang, RACY, os.path.join(work, "racy"),
                  ["-fsanitize-metadata=all"])
found = {"bump_global": 0, "bump_heap": 0}
false_reports = []
pcmap_work = []
for r in range(runs):
    p = subprocess.run([racy, "3"], capture_output=True, text=True,
                       env=dict(os.environ, PCMAP_OPTIONS="detect_races=1"))
    sites = set(re.findall(r"SUMMARY: pcmap: data race \S+ in (\S+)",
                           p.stderr))
    for s in sites:
        if s in found:
            found[s] += 1
        else:
            false_reports.append(s)
    pcmap_work.append(work_done(p.stdout))
plain = subprocess.run([racy, "3"], capture_output=True, text=True)
plain_work = work_done(plain.stdout)
print("racy.c, %d runs of 3 s at the default settings (race_hz=100, "
      "race_delay_us=30):" % runs)
for s, n in found.items():
    print("  %-12s reported in %d of %d runs" % (s, n, runs))
print("  atomic counter, relaxed flag, locked counter: %s"
      % (", ".join(sorted(set(false_reports))) or "never reported"))
print("  work done in 3 s against the plain run: %.2f"
      % (statistics.median(pcmap_work) / plain_work))

# The same on AArch64 under qemu-user, where the runtime was cross-built
# for it (scripts/build.sh VERSION aarch64) and qemu-aarch64 and Debian's
# cross libraries are installed: qemu delivers a signal between translated
# blocks, never in the middle of one.
a64_found = None
a64_runtime = os.path.join(build, "lib", "pcmap", "aarch64-linux-gnu",
                           "libpcmap_rt.a")
if (shutil.which("qemu-aarch64") and os.path.isdir("/usr/aarch64-linux-gnu")
        and os.path.exists(a64_runtime)):
    racy64 = build_prog(clang, RACY, os.path.join(work, "racy-aarch64"),
                        ["--target=aarch64-linux-gnu",
                         "-fsanitize-metadata=all"])
    a64_found = {"bump_global": 0, "bump_heap": 0}
    a64_false = []
    for r in range(runs):
        p = subprocess.run(["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu",
                            racy64, "3"], capture_output=True, text=True,
                           env=dict(os.environ,
                                    PCMAP_OPTIONS="detect_races=1"))
        for s in set(re.findall(r"SUMMARY: pcmap: data race \S+ in (\S+)",
                                p.stderr)):
            if s in a64_found:
                a64_found[s] += 1
            else:
                a64_false.append(s)
    print("AArch64 under qemu-user, %d runs of 3 s at the default settings:"
          % runs)
    for s, n in a64_found.items():
        print("  %-12s reported in %d of %d runs" % (s, n, runs))
    print("  atomic counter, relaxed flag, locked counter: %s"
          % (", ".join(sorted(set(a64_false))) or "never reported"))
    false_reports += a64_false
else:
    print("AArch64 under qemu-user: not run (no qemu-aarch64, cross "
          "libraries or cross-built runtime)")

tsan = build_prog("clang-19", RACY, os.path.join(work, "racy-tsan"),
                  ["-fsanitize=thread"])
start = time.monotonic()
t = subprocess.run([tsan, "3"], capture_output=True, text=True,
                   env=dict(os.environ, TSAN_OPTIONS="report_bugs=1"))
tsan_sites = set(re.findall(r"SUMMARY: ThreadSanitizer: data race \S+ in (\S+)",
                            t.stderr))
tsan_work = work_done(t.stdout)
print("ThreadSanitizer, one run of 3 s: reports %s; work done against the "
      "plain run: %.3f"
      % (", ".join(sorted(tsan_sites)) or "nothing", tsan_work / plain_work))

# Cost on the demo and the fork server.
demo = build_prog(clang + "++", os.path.join(root, "examples", "refcache.cpp"),
                  os.path.join(work, "refcache"),
                  ["-fsanitize-metadata=all", "-fno-omit-frame-pointer"])
server = build_prog(clang, os.path.join(root, "test", "rt", "Inputs",
                                        "fork_server.c"),
                    os.path.join(work, "fork_server"),
                    ["-fsanitize-metadata=all"])


# exitcode=0: the cost is measured whatever the detector finds (a race
# would make the status 66).
def with_status(options):
    return options + ":exitcode=0" if options else options


def demo_seconds(options):
    options = with_status(options)
    start = time.monotonic()
    subprocess.run([demo], env=dict(os.environ, PCMAP_OPTIONS=options),
                   check=True, capture_output=True)
    return time.monotonic() - start


def server_rate(options):
    """(requests per second, the workers' CPU microseconds per request)."""
    options = with_status(options)
    out = subprocess.run([server, "8", "3"], capture_output=True, text=True,
                         check=True,
                         env=dict(os.environ, PCMAP_OPTIONS=options)).stdout
    m = re.search(r"requests: (\d+), requests/s: ([\d.]+), "
                  r"worker cpu ms: ([\d.]+)", out)
    return float(m.group(2)), 1000 * float(m.group(3)) / int(m.group(1))


demo_ratios, server_ratios, cpu_ratios = [], [], []
for r in range(rounds):
    modes = ["", "detect_races=1"]
    if r % 2:
        modes.reverse()
    d = {m: demo_seconds(m) for m in modes}
    s = {m: server_rate(m) for m in modes}
    demo_ratios.append(d["detect_races=1"] / d[""])
    server_ratios.append(s[""][0] / s["detect_races=1"][0])
    cpu_ratios.append(s["detect_races=1"][1] / s[""][1])
    print("round %d: demo %.3f s plain, %.3f s detecting; server %.0f "
          "requests/s plain, %.0f detecting (workers' CPU per request "
          "%.2f us, %.2f us)"
          % (r + 1, d[""], d["detect_races=1"], s[""][0],
             s["detect_races=1"][0], s[""][1], s["detect_races=1"][1]))
demo_cost = statistics.median(demo_ratios)
server_cost = statistics.median(server_ratios)
cpu_cost = statistics.median(cpu_ratios)
print("cost at the defaults, median of %d rounds: demo %+.1f%% wall time, "
      "fork server %+.1f%% time per request, %+.1f%% of the workers' CPU "
      "per request"
      % (rounds, 100 * (demo_cost - 1), 100 * (server_cost - 1),
         100 * (cpu_cost - 1)))

headline.add("detected", "Races: both racy counters of racy.c reported",
             min(found.values()), "of %d runs" % runs,
             baseline_label="ThreadSanitizer reports %s"
             % (", ".join(sorted(tsan_sites)) or "nothing"),
             note="false reports: %d" % len(false_reports))
if a64_found is not None:
    headline.add("detected_aarch64",
                 "Races on AArch64 under qemu-user: both racy counters "
                 "reported", min(a64_found.values()), "of %d runs" % runs)
headline.add("demo_cost", "Race detector at the defaults: the demo's time",
             demo_cost, "x", baseline=1.0,
             baseline_label="the same run without it", digits=3,
             ratio_of="rounds")
headline.add("server_cost",
             "Race detector at the defaults: the fork server's time per "
             "request", server_cost, "x", baseline=1.0,
             baseline_label="the same run without it", digits=3,
             ratio_of="rounds")
headline.add("server_cpu",
             "Race detector at the defaults: the fork server's workers' CPU "
             "per request", cpu_cost, "x", baseline=1.0,
             baseline_label="the same run without it", digits=3,
             ratio_of="rounds")
headline.add("tsan_work", "ThreadSanitizer: racy.c's work in 3 s",
             tsan_work / plain_work, "of the plain build's", digits=3)
headline.write()
