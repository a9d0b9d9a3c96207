#!/usr/bin/env python3
"""Start-up benchmark: what pcmap costs a program that does nothing but
start and exit.

Programs. A hello world, and programs linked with N small shared libraries
(--libs, default 40 and 200), each library a few functions with C11 atomics
(bench/gen_startup_program.py writes them into a temporary directory). Each
program is built twice, with the same flags (-O2; libraries -fPIC -shared,
found through the program's RUNPATH, $ORIGIN): by `BUILD/bin/pcmap-clang
-fsanitize-metadata=all`, which instruments every library and the program and
links the runtime into the program, whose constructors then register each
module's tables at start-up; and by the plain clang that pcmap was built
against. The two builds lie in directories of the same name length, so the
dynamic loader does the same work for both. `--sqlite DIR` adds a real
program: SQLite's shell, built both ways from the amalgamation in DIR
(sqlite3.c, shell.c; bench/README.md says how to make it) and run with
--version. `--real PCMAP_BIN PLAIN_BIN [ARGS...]` (last on the command line)
adds any pair of existing programs, run with ARGS.

Time. A small C helper (bench/startup_spawn.c, compiled at run time by the
plain clang) runs the two builds of a program alternately, posix_spawn then
wait4, the children's stdin, stdout and stderr on /dev/null, a few warm-up
runs first; a round is --runs runs of each. Per run it takes the wall time
from before posix_spawn to after wait4 (CLOCK_MONOTONIC), and from wait4's
rusage, which is the child's own, its user + system CPU time, minor page
faults and peak resident set size (ru_maxrss). The table gives, per spawn,
the median over --rounds rounds of each round's mean, and the median of the
rounds' pcmap/plain ratios (each round's two builds ran interleaved under
the same load). The rounds visit the programs in turn.

System calls. One run of each build under `strace -f`, counted by name:
"file reads" are open, openat, openat2, read, pread64, readv, preadv and
preadv2 (stat-family calls are listed apart in the JSON), "mmap" is mmap;
then the calls pcmap's build makes more or fewer of, and the files only it
opens. A program of this kind does almost nothing but start, so these are
its start-up's calls (and its exit's).

PCMAP_OPTIONS is removed from the programs' environment: the defaults are
measured (the drivers turn the fault reporter on).

usage: bench/startup.py [--build DIR] [--rounds N] [--runs N] [--libs N,N]
                        [--sqlite DIR] [--json FILE] [--headline FILE]
                        [--real PCMAP_BIN PLAIN_BIN [ARGS...]]
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_startup_program  # noqa: E402
from headline import Headline  # noqa: E402

FILE_READS = ("open", "openat", "openat2", "read", "pread64", "readv",
              "preadv", "preadv2")
OPENS = ("open", "openat", "openat2")
STATS = ("stat", "fstat", "lstat", "newfstatat", "statx", "fstatat64")
VARIANTS = ("plain", "pcmap")


class Failure(Exception):
    """A build or a run that the benchmark cannot do without."""


def log(msg):
    print("startup.py: " + msg, file=sys.stderr, flush=True)


def run_checked(cmd, what, **kw):
    """Runs cmd; a failure becomes a Failure naming what and the command."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, **kw)
    if r.returncode != 0:
        raise Failure("%s failed (exit status %d):\n  %s\n%s" % (
            what, r.returncode, " ".join(cmd), r.stdout.rstrip()))
    return r.stdout


def plain_clang(build):
    """The clang pcmap was built against: LLVM_DIR in BUILD/CMakeCache.txt
    is <prefix>/lib/cmake/llvm."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                m = re.match(r"LLVM_DIR:[A-Z]+=(.*)", line.strip())
                if m:
                    prefix = os.path.dirname(os.path.dirname(
                        os.path.dirname(m.group(1))))
                    clang = os.path.join(prefix, "bin", "clang")
                    if os.path.exists(clang):
                        return clang
    except OSError:
        pass
    return shutil.which("clang-19") or "clang-19"


class Program:
    """A program measured in its two builds."""

    def __init__(self, name, plain, pcmap, args=()):
        self.name = name
        self.cmd = {"plain": [plain] + list(args), "pcmap": [pcmap] + list(args)}
        self.rounds = {v: [] for v in VARIANTS}
        self.syscalls = {}
        self.opened = {}
        self.dir = {}


def build_generated(n, work, compilers, jobs):
    """Writes and builds the program with n libraries in both builds."""
    src = os.path.join(work, "src-%d" % n)
    gen_startup_program.write(n, src)
    name = "hello world" if n == 0 else "%d libraries" % n
    progs = {}
    for v in VARIANTS:
        # "plain" and "pcmap" have the same length: the loader's paths too.
        out = os.path.join(work, "libs-%d" % n, v)
        os.makedirs(out, exist_ok=True)
        cc = compilers[v]

        def lib(k):
            run_checked(cc + ["-O2", "-fPIC", "-shared",
                              os.path.join(src, "libsb%d.c" % k),
                              "-o", os.path.join(out, "libsb%d.so" % k)],
                        "building %s's library %d (%s)" % (name, k, v))

        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            for f in [pool.submit(lib, k) for k in range(n)]:
                f.result()
        exe = os.path.join(out, "prog")
        link = ["-L" + out, "-Wl,-rpath,$ORIGIN"] if n else []
        run_checked(cc + ["-O2", os.path.join(src, "main.c"), "-o", exe] +
                    link + ["-lsb%d" % k for k in range(n)],
                    "building %s (%s)" % (name, v))
        progs[v] = exe
    p = Program(name, progs["plain"], progs["pcmap"])
    p.dir = {v: os.path.dirname(progs[v]) for v in VARIANTS}
    return p


def build_sqlite(amalgamation, work, compilers, jobs):
    """Builds SQLite's command-line shell from its amalgamation (sqlite3.c,
    shell.c) both ways; it is measured with --version."""
    srcs = [os.path.join(amalgamation, f) for f in ("sqlite3.c", "shell.c")]
    for f in srcs:
        if not os.path.exists(f):
            raise Failure("--sqlite: no %s (bench/README.md says how to make "
                          "the amalgamation)" % f)
    flags = ["-O2", "-DSQLITE_THREADSAFE=1", "-I" + amalgamation]
    outs = {v: os.path.join(work, "sqlite", v) for v in VARIANTS}

    def compile(v, src):
        os.makedirs(outs[v], exist_ok=True)
        obj = os.path.join(outs[v], os.path.basename(src)[:-2] + ".o")
        run_checked(compilers[v] + flags + ["-c", src, "-o", obj],
                    "compiling %s (%s)" % (src, v))
        return obj

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        objs = {v: [pool.submit(compile, v, s) for s in srcs]
                for v in VARIANTS}
        objs = {v: [f.result() for f in fs] for v, fs in objs.items()}
    for v in VARIANTS:
        run_checked(compilers[v] + objs[v] +
                    ["-o", os.path.join(outs[v], "sqlite3"), "-lpthread",
                     "-ldl", "-lm"], "linking sqlite3 (%s)" % v)
    p = Program("sqlite3 --version", os.path.join(outs["plain"], "sqlite3"),
                os.path.join(outs["pcmap"], "sqlite3"), ["--version"])
    p.dir = dict(outs)
    return p


def check_outputs(p, env):
    """Both builds run, exit 0 and print the same thing."""
    outs = {v: run_checked(p.cmd[v], "running %s (%s)" % (p.name, v), env=env)
            for v in VARIANTS}
    if outs["plain"] != outs["pcmap"]:
        raise Failure("%s: the two builds print different things:\n"
                      "plain: %r\npcmap: %r" % (p.name, outs["plain"],
                                                 outs["pcmap"]))


def measure_round(helper, p, runs, warmup, env):
    """One round of p: runs spawns of each build, interleaved."""
    cmd = [helper, str(runs), str(warmup)]
    for v in VARIANTS:
        cmd += [":"] + p.cmd[v]
    out = run_checked(cmd, "the spawn loop on %s" % p.name, env=env)
    lines = out.split("\n")
    for v, line in zip(VARIANTS, lines):
        wall_ns, cpu_us, minflt, majflt, rss_sum, rss_max = map(int, line.split())
        p.rounds[v].append({
            "wall_us": wall_ns / 1000.0 / runs, "cpu_us": cpu_us / runs,
            "minor_faults": minflt / runs, "major_faults": majflt / runs,
            "max_rss_kib": rss_sum / runs, "max_rss_kib_max": rss_max})


# strace -f lines: "PID name(args) = result", "PID name(... <unfinished ...>"
# and "PID <... name resumed>...": the call counts once, where it starts.
SYSCALL = re.compile(r"^(?:\[pid\s+)?\d*\]?\s*([a-z_0-9]+)\(")
OPENED = re.compile(r'^\S*\s*open(?:at2?)?\((?:[A-Z_]+, )?"([^"]*)".*= \d+')


def count_syscalls(strace, p, work, env):
    for v in VARIANTS:
        trace = os.path.join(work, "strace-%s-%s.txt" % (
            p.name.replace(" ", "-"), v))
        subprocess.run([strace, "-f", "-o", trace, "--"] + p.cmd[v], env=env,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        counts, opened = {}, set()
        try:
            with open(trace) as f:
                for line in f:
                    m = SYSCALL.match(line)
                    if m:
                        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
                    m = OPENED.match(line)
                    if m:
                        path = m.group(1)
                        # The two builds' own directories compare equal.
                        if p.dir.get(v) and path.startswith(p.dir[v] + "/"):
                            path = "$ORIGIN" + path[len(p.dir[v]):]
                        opened.add(path)
        except OSError:
            counts = {}
        if not counts.get("execve"):
            log("strace could not trace %s (%s; is ptrace allowed?): system "
                "calls not counted" % (p.name, v))
            return False
        p.syscalls[v] = counts
        p.opened[v] = sorted(opened)
    return True


def median(xs):
    return statistics.median(xs) if xs else None


def summarize(p):
    """Medians per build of the rounds' means, and of the per-round ratios."""
    s = {}
    for key in ("wall_us", "cpu_us", "minor_faults", "major_faults",
                "max_rss_kib"):
        s[key] = {v: median([r[key] for r in p.rounds[v]]) for v in VARIANTS}
        s[key]["ratio"] = median([
            b[key] / a[key] for a, b in zip(p.rounds["plain"], p.rounds["pcmap"])
            if a[key] > 0])
    return s


def clang_version(cc):
    """"clang 19.1.7" from the compiler's --version, or its file name."""
    try:
        out = subprocess.run([cc, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True).stdout
    except OSError:
        out = ""
    m = re.search(r"clang version (\S+)", out)
    return "clang " + m.group(1) if m else os.path.basename(cc)


def ratio(x):
    return "-" if x is None else "%.2fx" % x


def plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def group(counts, names):
    return sum(counts.get(n, 0) for n in names)


def syscall_groups(p):
    """Per build: file reads, of which opens; stat-family calls; mmap; all."""
    return {v: {"file_reads": group(c, FILE_READS), "opens": group(c, OPENS),
                "stats": group(c, STATS), "mmap": c.get("mmap", 0),
                "all": sum(c.values())} for v, c in p.syscalls.items()}


def print_tables(progs, args, cc):
    print("Start-up, per spawn: median of %s of %s of each build, "
          "interleaved (ratio: median of the rounds' pcmap / plain). CPU: "
          "user + system of the child. Plain: %s -O2. Load average at the "
          "end: %s." % (plural(args.rounds, "round"), plural(args.runs, "run"),
                        clang_version(cc),
                        ", ".join("%.2f" % x for x in os.getloadavg())))
    print()
    print("| program | wall µs, plain | pcmap | ratio | CPU µs, plain | pcmap "
          "| ratio | minor faults, plain | pcmap | max RSS KiB, plain "
          "| pcmap |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
          "---: | ---: |")
    for p in progs:
        s = summarize(p)
        print("| %s | %.1f | %.1f | %s | %.1f | %.1f | %s | %.0f | %.0f "
              "| %.0f | %.0f |" % (
                  p.name, s["wall_us"]["plain"], s["wall_us"]["pcmap"],
                  ratio(s["wall_us"]["ratio"]), s["cpu_us"]["plain"],
                  s["cpu_us"]["pcmap"], ratio(s["cpu_us"]["ratio"]),
                  s["minor_faults"]["plain"], s["minor_faults"]["pcmap"],
                  s["max_rss_kib"]["plain"], s["max_rss_kib"]["pcmap"]))
    if not all(p.syscalls for p in progs):
        return
    print()
    print("System calls of one run (strace -f). File reads: open, openat, "
          "openat2, read, pread64, readv, preadv, preadv2.")
    print()
    print("| program | file reads, plain | pcmap | difference | mmap, plain "
          "| pcmap | difference | all system calls, plain | pcmap "
          "| difference |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
          "---: |")
    for p in progs:
        c = p.syscalls
        cells = []
        for names in (FILE_READS, ("mmap",), None):
            a, b = (sum(c[v].values()) if names is None else
                    group(c[v], names) for v in VARIANTS)
            cells += ["%d" % a, "%d" % b, "%+d" % (b - a)]
        print("| %s | %s |" % (p.name, " | ".join(cells)))
    print()
    for p in progs:
        c = p.syscalls
        diff = ["%s %+d" % (n, c["pcmap"].get(n, 0) - c["plain"].get(n, 0))
                for n in sorted(set(c["plain"]) | set(c["pcmap"]))
                if c["pcmap"].get(n, 0) != c["plain"].get(n, 0)]
        only = [f for f in p.opened["pcmap"] if f not in p.opened["plain"]]
        print("- %s: pcmap's build makes %s; files only it opens: %s." % (
            p.name, ", ".join(diff) if diff else "the same calls",
            ", ".join("`%s`" % f for f in only) if only else "none"))


def write_headline(progs, path):
    """Per program: the spawn's wall and CPU time, and the system calls."""
    h = Headline(path)
    plain = "plain clang's build"
    for p in progs:
        s = summarize(p)
        slug = re.sub(r"[^a-z0-9]+", "_", p.name.lower()).strip("_")
        h.add("wall_" + slug, "start-up, %s: wall time per spawn" % p.name,
              s["wall_us"]["pcmap"], "µs", baseline=s["wall_us"]["plain"],
              baseline_label=plain, ratio=s["wall_us"]["ratio"], digits=1,
              ratio_of="rounds")
        h.add("cpu_" + slug, "start-up, %s: CPU time per spawn" % p.name,
              s["cpu_us"]["pcmap"], "µs", baseline=s["cpu_us"]["plain"],
              baseline_label=plain, ratio=s["cpu_us"]["ratio"], digits=1,
              ratio_of="rounds")
        if p.syscalls:
            g = syscall_groups(p)
            h.add("syscalls_" + slug, "start-up, %s: system calls" % p.name,
                  g["pcmap"]["all"], "calls", baseline=g["plain"]["all"],
                  baseline_label=plain, difference=True)
            h.add("file_reads_" + slug, "start-up, %s: file reads" % p.name,
                  g["pcmap"]["file_reads"], "calls",
                  baseline=g["plain"]["file_reads"], baseline_label=plain,
                  difference=True)
    h.write()


def parse_args(argv):
    real = None
    if "--real" in argv:
        i = argv.index("--real")
        real, argv = argv[i + 1:], argv[:i]
        if len(real) < 2:
            sys.exit("startup.py: --real needs PCMAP_BIN PLAIN_BIN [ARGS...]")
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="--real PCMAP_BIN PLAIN_BIN [ARGS...], last on the command "
        "line: also measure that pair of programs, run with ARGS.")
    p.add_argument("--build", default="build-19",
                   help="pcmap build directory (default build-19)")
    p.add_argument("--cc", help="the plain compiler (default: the clang of "
                   "the LLVM the build uses)")
    p.add_argument("--rounds", type=int, default=7,
                   help="rounds (default 7)")
    p.add_argument("--runs", type=int, default=100,
                   help="runs of each build per round (default 100)")
    p.add_argument("--warmup", type=int, default=3,
                   help="uncounted runs of each build per round (default 3)")
    p.add_argument("--libs", default="40,200",
                   help="comma-separated library counts (default 40,200; "
                   "'' for the hello world alone)")
    p.add_argument("--sqlite", metavar="DIR",
                   help="also build SQLite's shell from the amalgamation in "
                   "DIR (sqlite3.c, shell.c) both ways and measure "
                   "`sqlite3 --version`")
    p.add_argument("--no-generated", action="store_true",
                   help="measure only --sqlite and --real")
    p.add_argument("--no-strace", action="store_true",
                   help="do not count system calls")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="parallel compiles")
    p.add_argument("--work", help="build in this directory and keep it "
                   "(default: a temporary directory, removed)")
    p.add_argument("--json", help="write every round's figures here")
    p.add_argument("--headline", help="write the headline figures here "
                   "(bench/headline.py)")
    args = p.parse_args(argv)
    args.real = real
    try:
        args.libs = [int(x) for x in args.libs.split(",") if x.strip()]
    except ValueError:
        p.error("--libs takes comma-separated numbers")
    if args.rounds < 1 or args.runs < 1 or args.warmup < 0:
        p.error("--rounds and --runs must be positive, --warmup not negative")
    if args.no_generated and not (real or args.sqlite):
        p.error("--no-generated without --sqlite or --real measures nothing")
    return args


def main(argv):
    args = parse_args(argv)
    driver = os.path.join(args.build, "bin", "pcmap-clang")
    if ((args.sqlite or not args.no_generated) and
            not os.access(driver, os.X_OK)):
        raise Failure("no %s: build pcmap first (scripts/build.sh 19) or "
                      "pass --build DIR" % driver)
    cc = args.cc or plain_clang(args.build)
    compilers = {"plain": [cc],
                 "pcmap": [os.path.abspath(driver), "-fsanitize-metadata=all"]}
    strace = None if args.no_strace else shutil.which("strace")
    if not args.no_strace and not strace:
        log("no strace on PATH: system calls not counted")
    env = {k: v for k, v in os.environ.items() if k != "PCMAP_OPTIONS"}

    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(
        prefix="pcmap-startup-")
    os.makedirs(work, exist_ok=True)
    try:
        helper = os.path.join(work, "startup_spawn")
        run_checked([cc, "-O2", os.path.join(HERE, "startup_spawn.c"), "-o",
                     helper], "building the spawn loop")
        progs = []
        if not args.no_generated:
            for n in [0] + args.libs:
                log("building %s" % ("the hello world" if n == 0 else
                                     "%d libraries" % n))
                progs.append(build_generated(n, work, compilers, args.jobs))
        if args.sqlite:
            log("building sqlite3 from %s" % args.sqlite)
            progs.append(build_sqlite(os.path.abspath(args.sqlite), work,
                                      compilers, args.jobs))
        if args.real:
            found = []
            for b in args.real[:2]:
                path = b if os.sep in b else shutil.which(b)
                if not path or not os.access(path, os.X_OK):
                    raise Failure("--real: no program %s" % b)
                found.append(os.path.abspath(path))
            progs.append(Program(" ".join([os.path.basename(found[1])] +
                                          args.real[2:]),
                                 found[1], found[0], args.real[2:]))
        for p in progs:
            check_outputs(p, env)
        for r in range(args.rounds):
            log("round %d of %d" % (r + 1, args.rounds))
            for p in progs:
                measure_round(helper, p, args.runs, args.warmup, env)
        if strace and not all(count_syscalls(strace, p, work, env)
                              for p in progs):
            for p in progs:
                p.syscalls = {}
        print_tables(progs, args, cc)
        if args.headline:
            write_headline(progs, args.headline)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"rounds": args.rounds, "runs": args.runs,
                           "warmup": args.warmup, "plain_compiler": cc,
                           "programs": [{
                               "name": p.name, "commands": p.cmd,
                               "summary": summarize(p), "rounds": p.rounds,
                               "syscalls": p.syscalls,
                               "syscall_groups": syscall_groups(p),
                               "opened": p.opened}
                               for p in progs]}, f, indent=1)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except Failure as e:
        sys.exit("startup.py: error: %s" % e)
