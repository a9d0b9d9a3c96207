#!/usr/bin/env python3
"""The CPU cost of the drivers (pcmap-clang) against clang, on a real project
of many small files: each translation unit compiled four ways, one after
the other, in an order that rotates from file to file,

  clang          clang <args>
  clang + flags  clang <args + the arguments pcmap-clang gives clang for
                 -fsanitize-metadata=all>
  exec + flags   the same through a program that only replaces itself
                 with clang (execv): what any driver that is a program
                 of its own costs at least
  pcmap-clang    pcmap-clang <args> -fsanitize-metadata=all

and the user + system CPU time of each compiler process taken from wait4().
"clang + flags" does exactly the work of "pcmap-clang" but for the driver
itself (the script checks that their objects are identical), so their
ratio is the driver's own cost (target: at most 2% more CPU); against plain
clang it is the cost of pcmap as a whole; against "exec + flags", what the
driver does beyond starting. Then `--version` and `-c empty.c`,
alternated the same way, medians of RUNS runs each.

The arguments the driver gives clang are read by running the driver with
PCMAP_CLANG set to a script that prints its arguments; "clang" is the clang
the driver runs (PCMAP_CLANG in BUILD_DIR/CMakeCache.txt).

The project: a PostgreSQL build tree configured with CC=clang-<version>
(its backend's compile commands, from `make -n`), or a compilation database.
Prints a markdown table.

usage: bench/driver_cost.py --build BUILD_DIR (--postgres PG_BUILD_DIR |
           --compdb compile_commands.json | --one-function-files N)
           [--every N] [--runs RUNS] [--project-runs R]
           [--driver PATH] [--compare-driver PATH] [--headline FILE]

--one-function-files N writes N C files of one small function each and
compiles them (-O2 -c): the case where the driver's start-up weighs most.
--project-runs R compiles the project R times, each variant's files
interleaved as above, and reports each variant's median total: on a shared
machine one pass over 40 small files varies by several percent.

--headline FILE also writes the figures as JSON (bench/headline.py).

--compare-driver measures another driver alongside (an older build, say) in
the same rotation: its objects must be identical too.

PostgreSQL 15's backend, as Debian ships it (bench/README.md):
  apt-get source postgresql-15   # needs a deb-src entry
  mkdir pg-build && cd pg-build && ../postgresql-15-*/configure CC=clang-19
  make -C src/backend generated-headers"""

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile

from headline import Headline


def cmake_cache(build, name):
    for line in open(os.path.join(build, "CMakeCache.txt")):
        if line.startswith(name + ":"):
            return line.split("=", 1)[1].strip()
    sys.exit("driver_cost.py: no %s in %s/CMakeCache.txt" % (name, build))


def postgres_commands(pg_build):
    """The backend's compile commands, as (directory, arguments without the
    compiler), from `make -n`: the commands it would run to build it."""
    # -k: the dry run stops at the link, which needs libraries that a dry
    # run does not build; the compile commands are all there.
    out = subprocess.run(["make", "-n", "-k", "-w", "-C",
                          os.path.join(pg_build, "src", "backend")],
                         capture_output=True, text=True).stdout
    backend = os.path.realpath(os.path.join(pg_build, "src", "backend"))
    commands, directories = [], []
    for line in out.splitlines():
        moved = re.match(r"make(\[\d+\])?: (Entering|Leaving) directory "
                         r"'(.*)'", line)
        if moved and moved.group(2) == "Entering":
            directories.append(moved.group(3))
        elif moved and directories:
            directories.pop()
        words = shlex.split(line) if " -c " in line and not moved else []
        if words and directories and os.path.realpath(
                directories[-1]).startswith(backend) and \
                os.path.basename(words[0]).startswith("clang"):
            commands.append((directories[-1], words[1:]))
    return commands


def compdb_commands(path):
    commands = []
    for entry in json.load(open(path)):
        words = entry.get("arguments") or shlex.split(entry["command"])
        if "-c" in words:
            commands.append((entry["directory"], words[1:]))
    return commands


def with_output(args, output):
    """args compiling to output instead of their own -o."""
    result, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg == "-o":
            skip = True
        elif not (arg.startswith("-o") and len(arg) > 2):
            result.append(arg)
    return result + ["-o", output]


def cpu_seconds(argv, cwd):
    """Runs argv; returns the user + system CPU time of its process (and of
    any process it waited for)."""
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit("driver_cost.py: failed (%d) in %s: %s" %
                 (proc.returncode, cwd, shlex.join(argv)))
    return usage.ru_utime + usage.ru_stime


class Compilers:
    """The commands of each variant; drivers maps a driver variant's name
    to its binary: pcmap-clang, and another driver to compare with."""

    def __init__(self, clang, drivers, tmp):
        self.clang, self.drivers = clang, drivers
        self.variants = ["clang", "clang + flags", "exec + flags"] + list(
            drivers)
        # The least a driver costs: a program that only execs clang, linked
        # as the drivers are (the C library shared).
        self.exec_wrapper = os.path.join(tmp, "exec-clang")
        source = self.exec_wrapper + ".c"
        with open(source, "w") as f:
            f.write("#include <unistd.h>\n"
                    "int main(int argc, char **argv) {\n"
                    "  (void)argc;\n"
                    "  argv[0] = (char *)CLANG;\n"
                    "  execv(CLANG, argv);\n"
                    "  return 127;\n"
                    "}\n")
        subprocess.run([clang, "-O2", "-DCLANG=%s" % json.dumps(clang),
                        source, "-o", self.exec_wrapper], check=True)
        # A clang that prints the arguments the driver gives it.
        self.printer = os.path.join(tmp, "print-arguments")
        with open(self.printer, "w") as f:
            f.write("#!/bin/sh\nprintf '%s\\0' \"$@\"\n")
        os.chmod(self.printer, 0o755)

    def driver_arguments(self, args, cwd):
        env = dict(os.environ, PCMAP_CLANG=self.printer)
        out = subprocess.run([self.drivers["pcmap-clang"]] + args, cwd=cwd,
                             env=env, check=True, capture_output=True).stdout
        return [a.decode() for a in out.split(b"\0")[:-1]]

    def commands(self, args, cwd, variants):
        """The command of each of variants for one compile."""
        pcmap = args + ["-fsanitize-metadata=all"]
        result = {}
        for variant in variants:
            if variant == "clang":
                result[variant] = [self.clang] + args
            elif variant in ("clang + flags", "exec + flags"):
                first = (self.clang
                         if variant == "clang + flags" else self.exec_wrapper)
                result[variant] = [first] + self.driver_arguments(pcmap, cwd)
            else:
                result[variant] = [self.drivers[variant]] + pcmap
        return result


def rotated(variants, index):
    """variants in the order of run index: each goes first, second, ... in
    turn, so that no variant always follows the same one."""
    start = index % len(variants)
    return variants[start:] + variants[:start]


def one_function_commands(tmp, count):
    """count C files of one function each, and their compile commands."""
    commands = []
    for i in range(count):
        name = os.path.join(tmp, "f%d.c" % i)
        with open(name, "w") as f:
            f.write("int f%d(int x) { return x * %d + 1; }\n" % (i, i + 2))
        commands.append((tmp, ["-O2", "-c", name, "-o", name + ".o"]))
    return commands


def measure_project(compilers, commands, tmp):
    variants = compilers.variants
    totals = {v: 0.0 for v in variants}
    outputs = {v: os.path.join(tmp, "out-%d.o" % i)
               for i, v in enumerate(variants)}
    different = 0
    for index, (cwd, args) in enumerate(commands):
        argv = compilers.commands(args, cwd, variants)
        for variant in rotated(variants, index):
            command = with_output(argv[variant], outputs[variant])
            totals[variant] += cpu_seconds(command, cwd)
        objects = {open(outputs[v], "rb").read() for v in variants[1:]}
        if len(objects) != 1:
            different += 1
            print("  objects differ: %s" % args[-1], file=sys.stderr)
        if (index + 1) % 50 == 0:
            print("  %d of %d files" % (index + 1, len(commands)),
                  file=sys.stderr)
    return totals, different


def measure_small(compilers, args, cwd, runs, variants):
    argv = compilers.commands(args, cwd, variants)
    times = {v: [] for v in variants}
    for index in range(runs):
        for variant in rotated(variants, index):
            times[variant].append(cpu_seconds(argv[variant], cwd))
    return {v: statistics.median(t) for v, t in times.items()}


def table(compilers, rows):
    """rows: (name, unit, scale, values by variant)."""
    drivers = list(compilers.drivers)
    ratios = [(d, base) for d in drivers
              for base in ("exec + flags", "clang + flags", "clang")]
    print("| compile | %s | %s |" % (
        " | ".join(compilers.variants),
        " | ".join("%s / %s" % r for r in ratios)))
    print("| --- |" + " ---: |" * (len(compilers.variants) + len(ratios)))
    for name, unit, scale, values in rows:
        cells = [("%.3f" % (values[v] * scale)) if v in values else "-"
                 for v in compilers.variants]
        cells += [("%.3fx" % (values[d] / values[base]))
                  if base in values else "-" for d, base in ratios]
        print("| %s (%s) | %s |" % (name, unit, " | ".join(cells)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--postgres")
    parser.add_argument("--compdb")
    parser.add_argument("--one-function-files", type=int)
    parser.add_argument("--project-runs", type=int, default=1,
                        help="compile the project R times; median totals")
    parser.add_argument("--every", type=int, default=1,
                        help="measure every N-th translation unit")
    parser.add_argument("--runs", type=int, default=31)
    parser.add_argument("--driver",
                        help="the driver to measure (BUILD/bin/pcmap-clang)")
    parser.add_argument("--compare-driver",
                        help="another driver, measured alongside")
    parser.add_argument("--headline", help="also write the figures as JSON")
    opts = parser.parse_args()
    headline = Headline(opts.headline)
    build = os.path.abspath(opts.build)
    drivers = {"pcmap-clang": os.path.abspath(
        opts.driver or os.path.join(build, "bin", "pcmap-clang"))}
    if opts.compare_driver:
        drivers[os.path.basename(opts.compare_driver)] = os.path.abspath(
            opts.compare_driver)
    clang = cmake_cache(build, "PCMAP_CLANG")
    tmp = tempfile.mkdtemp(prefix="pcmap-driver-cost-")
    compilers = Compilers(clang, drivers, tmp)
    if opts.postgres:
        project = "PostgreSQL backend"
        commands = postgres_commands(opts.postgres)
    elif opts.compdb:
        project = "project"
        commands = compdb_commands(opts.compdb)
    elif opts.one_function_files:
        project = "one-function files"
        commands = one_function_commands(tmp, opts.one_function_files)
    else:
        sys.exit("driver_cost.py: --postgres, --compdb or "
                 "--one-function-files is needed")
    if not commands:
        sys.exit("driver_cost.py: no compile command found")
    commands = commands[::opts.every]
    print("%s: %d translation units; %s; %s" %
          (project, len(commands), clang, ", ".join(drivers.values())),
          file=sys.stderr)

    rounds = []
    for _ in range(max(1, opts.project_runs)):
        round_totals, round_different = measure_project(compilers, commands,
                                                        tmp)
        rounds.append(round_totals)
        different = round_different if len(rounds) == 1 else different
    totals = {v: statistics.median(r[v] for r in rounds)
              for v in compilers.variants}
    empty = os.path.join(tmp, "empty.c")
    open(empty, "w").close()
    small = measure_small(compilers, ["-c", empty, "-o", empty + ".o"], tmp,
                          opts.runs, compilers.variants)
    version = measure_small(compilers, ["--version"], tmp, opts.runs,
                            ["clang"] + list(drivers))
    table(compilers, [
        ("%s, %d files, total%s" % (
            project, len(commands),
            ", median of %d" % len(rounds) if len(rounds) > 1 else ""),
         "CPU s", 1, totals),
        ("`-c empty.c`, median of %d" % opts.runs, "CPU ms", 1000, small),
        ("`--version`, median of %d" % opts.runs, "CPU ms", 1000, version)])
    own = totals["pcmap-clang"] / totals["clang + flags"] - 1
    floor = totals["exec + flags"] / totals["clang + flags"] - 1
    beyond = totals["pcmap-clang"] / totals["exec + flags"] - 1
    print("\nThe driver's own cost on %s: %+.2f%% CPU (target: at most "
          "+2%%), of which %+.2f%% is what a program that only execs clang "
          "costs and %+.2f%% the driver's work beyond it; files whose "
          "objects differ between the drivers and clang + flags: %d." %
          (project, own * 100, floor * 100, beyond * 100, different))
    files = "%s, %d files" % (project, len(commands))
    headline.add("own", "the driver's own cost: %s, CPU" % files,
                 totals["pcmap-clang"], "s", baseline=totals["clang + flags"],
                 baseline_label="clang given the arguments pcmap-clang "
                 "gives it", digits=3)
    headline.add("floor", "a program that only execs clang: %s, CPU" % files,
                 totals["exec + flags"], "s",
                 baseline=totals["clang + flags"],
                 baseline_label="clang given the arguments pcmap-clang "
                 "gives it", digits=3)
    headline.add("total", "pcmap as a whole: %s, CPU" % files,
                 totals["pcmap-clang"], "s", baseline=totals["clang"],
                 baseline_label="plain clang", digits=3)
    headline.add("empty", "`-c empty.c`, CPU", small["pcmap-clang"] * 1000,
                 "ms", baseline=small["clang + flags"] * 1000,
                 baseline_label="clang given the arguments pcmap-clang "
                 "gives it", digits=2)
    headline.add("version", "`--version`, CPU", version["pcmap-clang"] * 1000,
                 "ms", baseline=version["clang"] * 1000,
                 baseline_label="plain clang", digits=2)
    headline.write()


if __name__ == "__main__":
    main()
