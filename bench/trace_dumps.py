#!/usr/bin/env python3
"""Every JSON dump of the tracer is readable: runs a multi-threaded program
whose stacks cross several libraries (the program, a shared library of its
own built without frame pointers, one it dlopens, libstdc++, libm, libc)
RUNS times with report_format=json, and reads each run's dump with
`pcmap-report trace` alone (exit status 0), then all of them merged.

Prints the runs, the dumps read and rejected, the stacks and frames, how
many frames lie in no module, and how many stacks reach their thread's
start (clone, clone3 or _start).

usage: bench/trace_dumps.py BUILD_DIR [RUNS] [--headline FILE]
--headline FILE: also write the figures as JSON (bench/headline.py)."""
import glob
import json
import os
import subprocess
import sys
import tempfile

from headline import Headline, take_option

headline = Headline(take_option(sys.argv))
build = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 100
bin_dir = os.path.join(os.path.abspath(build), "bin")
tmp = tempfile.mkdtemp()

LIBRARY = r"""
#include <atomic>
#include <cmath>
#include <map>
#include <string>
std::atomic<long> hits;
extern "C" __attribute__((noinline)) double lib_work(int seed) {
  std::map<std::string, double> m;
  for (int i = 0; i < 200; ++i)
    m[std::to_string(i * seed)] = std::sqrt(double(i + seed));
  double sum = 0;
  for (auto &kv : m)
    sum += kv.second;
  hits.fetch_add(1);
  return sum;
}
"""
PLUGIN = r"""
#include <atomic>
#include <cstdlib>
static std::atomic<int> plugin_calls;
static int by_value(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}
extern "C" __attribute__((noinline)) void plugin_sort(int *v, int n) {
  std::qsort(v, n, sizeof(int), by_value);
  plugin_calls.fetch_add(1);
}
"""
PROGRAM = r"""
#include <dlfcn.h>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <thread>
#include <vector>
extern "C" double lib_work(int seed);
static long cpu_ms() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}
int main(int argc, char **argv) {
  long ms = argc > 1 ? std::atol(argv[1]) : 60; // each thread's CPU time
  void *plugin = dlopen("./libplugin.so", RTLD_NOW);
  auto sort = plugin ? (void (*)(int *, int))dlsym(plugin, "plugin_sort")
                     : nullptr;
  std::atomic<double> total{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&, t] {
      long until = cpu_ms() + ms;
      std::vector<int> v(2000);
      for (int seed = 1; cpu_ms() < until; ++seed) {
        double x = lib_work(seed + t);
        for (auto &e : v)
          e = int(x * 7919) % 1000 + seed;
        if (sort)
          sort(v.data(), int(v.size()));
        total = total + x;
      }
    });
  for (auto &th : threads)
    th.join();
  std::printf("%d\n", total > 0);
}
"""
for name, text in (("lib.cpp", LIBRARY), ("plugin.cpp", PLUGIN),
                   ("prog.cpp", PROGRAM)):
    with open(os.path.join(tmp, name), "w") as f:
        f.write(text)
cxx = os.path.join(bin_dir, "pcmap-clang++")
flags = ["-O2", "-g", "-fsanitize-metadata=all"]
subprocess.run([cxx] + flags + ["-fPIC", "-shared", "lib.cpp", "-o",
                                "liblib.so"], cwd=tmp, check=True)
subprocess.run([cxx] + flags + ["-fPIC", "-shared", "plugin.cpp", "-o",
                                "libplugin.so"], cwd=tmp, check=True)
subprocess.run([cxx] + flags + ["-pthread", "prog.cpp", "-o", "prog", "-L.",
                                "-llib", "-Wl,-rpath," + tmp, "-ldl"],
               cwd=tmp, check=True)

read = rejected = stacks = frames = outside = at_start = folded = 0
env = dict(os.environ, PCMAP_OPTIONS="trace_atomics=1:report_format=json:"
           "report_path=" + os.path.join(tmp, "trace"))
for _ in range(runs):
    for old in glob.glob(os.path.join(tmp, "trace.*")):
        os.unlink(old)
    subprocess.run(["./prog"], cwd=tmp, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    dumps = glob.glob(os.path.join(tmp, "trace.*"))
    for dump in dumps:
        r = subprocess.run([os.path.join(bin_dir, "pcmap-report"), "trace",
                            "--format=folded", dump], capture_output=True,
                           text=True)
        if r.returncode != 0:
            rejected += 1
            print(r.stderr.strip(), file=sys.stderr)
            continue
        read += 1
        with open(dump) as f:
            d = json.loads(f.read().splitlines()[-1])
        for s in d["stacks"]:
            stacks += 1
            frames += len(s["frames"])
            outside += sum(1 for m, _ in s["frames"] if m < 0)
        for line in r.stdout.splitlines():
            folded += 1
            root = line.split(";")[0].split(" ")[0]
            at_start += root in ("clone", "clone3", "_start")

print("trace_dumps.py: program: %s" % os.path.join(tmp, "prog"),
      file=sys.stderr)
print("runs: %d, dumps read: %d, rejected: %d" % (runs, read, rejected))
print("stacks: %d, frames: %d, frames in no module: %d" %
      (stacks, frames, outside))
print("named stacks from their thread's start: %d of %d" % (at_start, folded))
headline.add("read", "dumps read by `pcmap-report trace`", read, "dumps",
             baseline=read + rejected, baseline_label="dumps written")
headline.add("outside", "frames in no module", outside, "frames",
             baseline=frames, baseline_label="all frames")
headline.add("at_start", "named stacks from their thread's start", at_start,
             "stacks", baseline=folded, baseline_label="all named stacks")
headline.write()
