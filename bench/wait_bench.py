#!/usr/bin/env python3
"""Wait time (trace_wait=1): accuracy against waits the program measures
itself, and the sampler's cost with many blocked threads.

  wait_bench.py BUILD_DIR [ROUNDS] [--headline FILE]
--headline FILE: also write the figures as JSON (bench/headline.py).

Accuracy: test/rt/Inputs/wait_objects.cpp (four threads take turns on a
global pthread_mutex_t, then on a std::mutex member of a heap object, each
holding it about 1 ms; the main thread waits on a condition variable)
measures the time its threads spend in each lock call; the JSON dump's wait
on each object (every row whose futex word lies in it) is compared with
it, and go tool pprof's total for big_lock, round by round.

Cost: a program whose 100 threads block on one condition variable for 5 s
while the main thread sleeps; untraced, with the tracer alone
(trace_atomics=1) and with the wait sampler (trace_wait=1, 100 Hz). The
steady cost is the CPU time of all the process's threads (their schedstat)
from 1 s to 4 s, as a share of one core; the whole run's CPU time (thread
starts, the report at exit) is shown beside it. Rounds rotate the modes'
order."""
import glob
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from headline import Headline, take_option

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BLOCKED = r'''
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t C = PTHREAD_COND_INITIALIZER;
static int Go;
static void *waiter(void *A) {
  pthread_mutex_lock(&M);
  while (!Go)
    pthread_cond_wait(&C, &M);
  pthread_mutex_unlock(&M);
  return A;
}
int main(void) {
  pthread_t T[100];
  for (int I = 0; I < 100; ++I)
    pthread_create(&T[I], 0, waiter, 0);
  sleep(5);
  pthread_mutex_lock(&M);
  Go = 1;
  pthread_cond_broadcast(&C);
  pthread_mutex_unlock(&M);
  for (int I = 0; I < 100; ++I)
    pthread_join(T[I], 0);
  return 0;
}
'''


def run(cmd, env=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True,
                         check=True).stdout
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, wall, cpu


# The lock objects of test/rt/Inputs/wait_objects.cpp, with the bytes a
# waiter's futex word may lie in (a condition variable's threads sleep on
# a word inside it).
OBJECTS = [("big_lock", 40), ("Shard::mu", 40), ("Ready", 48)]


def accuracy(work, clang, rounds):
    """Per object, each round's reported / measured wait."""
    prog = os.path.join(work, "wait_objects")
    subprocess.run([clang + "++", "-O2", "-g", "-pthread",
                    "-fsanitize-metadata=all",
                    os.path.join(ROOT, "test/rt/Inputs/wait_objects.cpp"),
                    "-o", prog], check=True)
    ratios = {name: [] for name, _ in OBJECTS}
    for r in range(rounds):
        base = os.path.join(work, "trace%d" % r)
        env = dict(os.environ, PCMAP_OPTIONS="trace_wait=1:report_format=json:"
                   "report_path=" + base)
        out, _, _ = run([prog], env)
        dump = json.loads(open(glob.glob(base + ".*")[0]).readline())
        parts = []
        for name, size in OBJECTS:
            m = re.search(re.escape(name) +
                          r" at (0x[0-9a-f]+): waited ([0-9.]+) s", out)
            addr, measured = int(m.group(1), 16), float(m.group(2))
            ns = sum(w["wait_ns"] for w in dump["waits"]
                     if w.get("address") and
                     addr <= int(w["address"], 16) < addr + size)
            ratios[name].append(ns / 1e9 / measured)
            parts.append("%s measured %.3f s, reported %.3f s (%.3f)"
                         % (name, measured, ns / 1e9, ratios[name][-1]))
            if name == "big_lock":
                total = pprof_total(work, base, "big_lock")
                if total is not None:
                    pprof_ratios.append(total / measured)
                    parts.append("go tool pprof -tagfocus=object=big_lock "
                                 "%.3f s (%.3f)" % (total, pprof_ratios[-1]))
        print("round %d: %s" % (r + 1, "; ".join(parts)))
    return ratios


def pprof_total(work, base, name):
    """The wait go tool pprof totals for the object name in pcmap-report's
    pprof profile of the dump base.*, in seconds; None without go."""
    report = os.path.join(BUILD, "bin", "pcmap-report")
    if not shutil.which("go") or not os.path.exists(report):
        return None
    profile = base + ".pb.gz"
    subprocess.run([report, "trace", "--format=pprof", "-o", profile] +
                   glob.glob(base + ".[0-9]*"), check=True)
    env = dict(os.environ, HOME=work, GOCACHE=os.path.join(work, "gocache"))
    top = subprocess.run(["go", "tool", "pprof", "-sample_index=wait",
                          "-tagfocus=object=" + name, "-top", profile],
                         env=env, capture_output=True, text=True).stdout
    m = re.search(r"Showing nodes accounting for ([0-9.]+)(m?s)", top)
    if not m:
        return None
    return float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)


def thread_cpu_ns(pid):
    """The CPU time of every thread of process pid, in nanoseconds."""
    total = 0
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            total += int(open("/proc/%d/task/%s/schedstat"
                              % (pid, tid)).read().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # the thread ended
    return total


def steady_and_whole(cmd, env):
    """(steady share, whole-run share) of one core, in percent."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL)
    time.sleep(1)
    a = thread_cpu_ns(proc.pid)
    time.sleep(3)
    b = thread_cpu_ns(proc.pid)
    proc.wait()
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                 before.ru_stime)
    return 100.0 * (b - a) / 3e9, 100.0 * cpu / wall


def cost(work, clang, rounds):
    src = os.path.join(work, "blocked.c")
    open(src, "w").write(BLOCKED)
    prog = os.path.join(work, "blocked")
    subprocess.run([clang, "-O2", "-pthread", "-fsanitize-metadata=all", src,
                    "-o", prog], check=True)
    modes = [("untraced", ""), ("tracer", "trace_atomics=1"),
             ("tracer+wait", "trace_wait=1:report_path=" +
              os.path.join(work, "w"))]
    steady = {name: [] for name, _ in modes}
    whole = {name: [] for name, _ in modes}
    for r in range(rounds):
        for name, opts in modes[r % 3:] + modes[:r % 3]:
            env = dict(os.environ, PCMAP_OPTIONS=opts)
            s, w = steady_and_whole([prog], env)
            steady[name].append(s)
            whole[name].append(w)
    return steady, whole


pprof_ratios = []
BUILD = None


def main():
    global BUILD
    headline = Headline(take_option(sys.argv))
    build = os.path.abspath(sys.argv[1])
    BUILD = build
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    clang = os.path.join(build, "bin", "pcmap-clang")
    with tempfile.TemporaryDirectory() as work:
        ratios = accuracy(work, clang, rounds)
        steady, whole = cost(work, clang, rounds)
    for name, v in ratios.items():
        print("accuracy: reported / measured wait on %s, median %.3f "
              "(min %.3f, max %.3f) over %d rounds"
              % (name, statistics.median(v), min(v), max(v), rounds))
    if pprof_ratios:
        print("accuracy: go tool pprof -sample_index=wait "
              "-tagfocus=object=big_lock / measured, median %.3f (min %.3f, "
              "max %.3f)" % (statistics.median(pprof_ratios),
                             min(pprof_ratios), max(pprof_ratios)))
    for name in steady:
        print("cost: %-12s %.2f%% of one core from 1 s to 4 s, %.2f%% over "
              "the whole run (medians of %d rounds of 5 s, 100 threads "
              "blocked)" % (name, statistics.median(steady[name]),
                            statistics.median(whole[name]), rounds))
    headline.add("accuracy", "Wait time: reported / measured wait on a "
                 "mutex", statistics.median(ratios["big_lock"]), "",
                 baseline=1.0, baseline_label="the program's own clock "
                 "around pthread_mutex_lock", digits=3)
    if pprof_ratios:
        headline.add("pprof_accuracy", "Wait time: go tool pprof "
                     "-tagfocus=object=big_lock / measured",
                     statistics.median(pprof_ratios), "", baseline=1.0,
                     baseline_label="the program's own clock around "
                     "pthread_mutex_lock", digits=3)
    headline.add("steady_cost", "Wait sampler (100 Hz, 100 threads "
                 "blocked): CPU time", statistics.median(steady["tracer+wait"]),
                 "% of one core",
                 baseline=statistics.median(steady["tracer"]),
                 baseline_label="the tracer alone, same run", digits=2,
                 difference=True)
    headline.write()


if __name__ == "__main__":
    main()
