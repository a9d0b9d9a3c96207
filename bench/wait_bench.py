#!/usr/bin/env python3
"""Wait time (trace_wait=1): accuracy against waits the program measures
itself, and the sampler's cost with many blocked threads.

  wait_bench.py BUILD_DIR [ROUNDS] [--headline FILE]
--headline FILE: also write the figures as JSON (bench/headline.py).

Accuracy: test/rt/Inputs/wait_lock.c (four threads take turns on a global
mutex, each holding it about 1 ms) measures the time its threads spend in
pthread_mutex_lock; the JSON dump's wait on that mutex (every row whose
futex word is its address) is compared with it, round by round.

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


def accuracy(work, clang, rounds):
    prog = os.path.join(work, "wait_lock")
    subprocess.run([clang, "-O2", "-g", "-pthread", "-fsanitize-metadata=all",
                    os.path.join(ROOT, "test/rt/Inputs/wait_lock.c"), "-o",
                    prog], check=True)
    ratios = []
    for r in range(rounds):
        base = os.path.join(work, "trace%d" % r)
        env = dict(os.environ, PCMAP_OPTIONS="trace_wait=1:report_format=json:"
                   "report_path=" + base)
        out, _, _ = run([prog], env)
        m = re.search(r"big_lock at (0x[0-9a-f]+): waited ([0-9.]+) s", out)
        addr, measured = int(m.group(1), 16), float(m.group(2))
        dump = json.loads(open(glob.glob(base + ".*")[0]).readline())
        ns = sum(w["wait_ns"] for w in dump["waits"]
                 if w.get("address") and int(w["address"], 16) == addr)
        ratios.append(ns / 1e9 / measured)
        print("round %d: measured %.3f s, reported %.3f s (%.3f)"
              % (r + 1, measured, ns / 1e9, ratios[-1]))
    return ratios


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


def main():
    headline = Headline(take_option(sys.argv))
    build = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    clang = os.path.join(build, "bin", "pcmap-clang")
    with tempfile.TemporaryDirectory() as work:
        ratios = accuracy(work, clang, rounds)
        steady, whole = cost(work, clang, rounds)
    print("accuracy: reported / measured wait on big_lock, median %.3f "
          "(min %.3f, max %.3f) over %d rounds"
          % (statistics.median(ratios), min(ratios), max(ratios), rounds))
    for name in steady:
        print("cost: %-12s %.2f%% of one core from 1 s to 4 s, %.2f%% over "
              "the whole run (medians of %d rounds of 5 s, 100 threads "
              "blocked)" % (name, statistics.median(steady[name]),
                            statistics.median(whole[name]), rounds))
    headline.add("accuracy", "Wait time: reported / measured wait on a "
                 "mutex", statistics.median(ratios), "",
                 baseline=1.0, baseline_label="the program's own clock "
                 "around pthread_mutex_lock", digits=3)
    headline.add("steady_cost", "Wait sampler (100 Hz, 100 threads "
                 "blocked): CPU time", statistics.median(steady["tracer+wait"]),
                 "% of one core",
                 baseline=statistics.median(steady["tracer"]),
                 baseline_label="the tracer alone, same run", digits=2,
                 difference=True)
    headline.write()


if __name__ == "__main__":
    main()
