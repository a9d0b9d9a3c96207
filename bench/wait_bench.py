#!/usr/bin/env python3
"""Wait time (trace_wait=1): accuracy against waits the program measures
itself, and the sampler's cost with many blocked threads.

  wait_bench.py BUILD_DIR [ROUNDS]

Accuracy: test/rt/Inputs/wait_lock.c (four threads take turns on a global
mutex, each holding it about 1 ms) measures the time its threads spend in
pthread_mutex_lock; the JSON dump's wait on that mutex (every row whose
futex word is its address) is compared with it, round by round.

Cost: a program whose 100 threads block on one condition variable for 5 s
while the main thread sleeps; the process's CPU time untraced, with the
tracer alone (trace_atomics=1) and with the wait sampler (trace_wait=1,
100 Hz), as a share of one core over the run's wall time. Rounds rotate
the modes' order."""
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


def cost(work, clang, rounds):
    src = os.path.join(work, "blocked.c")
    open(src, "w").write(BLOCKED)
    prog = os.path.join(work, "blocked")
    subprocess.run([clang, "-O2", "-pthread", "-fsanitize-metadata=all", src,
                    "-o", prog], check=True)
    modes = [("untraced", ""), ("tracer", "trace_atomics=1"),
             ("tracer+wait", "trace_wait=1:report_path=" +
              os.path.join(work, "w"))]
    shares = {name: [] for name, _ in modes}
    for r in range(rounds):
        for name, opts in modes[r % 3:] + modes[:r % 3]:
            env = dict(os.environ, PCMAP_OPTIONS=opts)
            _, wall, cpu = run([prog], env)
            shares[name].append(100.0 * cpu / wall)
    return shares


def main():
    build = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    clang = os.path.join(build, "bin", "pcmap-clang")
    with tempfile.TemporaryDirectory() as work:
        ratios = accuracy(work, clang, rounds)
        shares = cost(work, clang, rounds)
    print("accuracy: reported / measured wait on big_lock, median %.3f "
          "(min %.3f, max %.3f) over %d rounds"
          % (statistics.median(ratios), min(ratios), max(ratios), rounds))
    for name, v in shares.items():
        print("cost: %-12s %.2f%% of one core (median of %d rounds of 5 s, "
              "100 threads blocked)" % (name, statistics.median(v), rounds))


if __name__ == "__main__":
    main()
