#!/usr/bin/env python3
"""The race detector on real test suites, beside ThreadSanitizer.

For each package (a recipe of test/corpus/corpus.py; default liburcu), the
same Debian source package is unpacked twice and built twice with its own
build system, as corpus.py builds it: once by pcmap's drivers
(pcmap-clang, pcmap-clang++, the recipe's flags and -fsanitize-metadata=all)
and once by the plain clang the drivers run (PCMAP_CLANG in the build's
CMakeCache.txt) with -fsanitize=thread added to CFLAGS, CXXFLAGS and
LDFLAGS (the recipe's flags otherwise: -O2 -g). The test programs are built
before the suite runs (liburcu: `make check TESTS=`), so that the suite's
CPU time is the tests'.

Then the package's own tests run: the recipe's test commands, and for
liburcu, whose `make check` runs unit tests that hardly start a thread,
also what Debian's build runs, `make regtest`: the regression tests
(rcutorture on every flavour of RCU, 60 programs, 15 of them 10-second
stress tests, and test_urcu_fork; about 4 minutes), then the hash table
benchmark's 17 one-second runs (which tests/benchmark lists for regtest
but `make regtest` does not run) (--recipe-tests-only: the
unit tests alone). Each test of an automake suite runs under `timeout`
(--test-timeout, 120 s; LOG_COMPILER and TAP_LOG_COMPILER): under TSan,
rcutorture_urcu_signal hangs in most of its modes, and such a test fails
alone. (Its grace periods signal each registered thread and wait for its
handler; TSan runs a handler at once only in a blocking call it
intercepts, else at the thread's next call into it, and the call_rcu
threads sleep in futex() through syscall(2), which it does not intercept.) RUNS rounds, each in a rotating order of:

  off        with --off: the pcmap build, the detector off (PCMAP_OPTIONS
             unset): the suite's CPU time without detection
  pcmap@HZ   the pcmap build with PCMAP_OPTIONS=detect_races=1:race_hz=HZ:
             exitcode=0:log_path=DIR/pcmap, for each rate of --race-hz
             (default 100, the detector's default, and 1000)
  tsan       the TSan build with TSAN_OPTIONS=log_path=DIR/tsan:
             halt_on_error=0:exitcode=0:suppress_equal_addresses=0 (so
             that its reports are not cut to one per address; still, once
             TSan has reported a race its runtime stops checking that
             8-byte cell in the process, so it names about one race per
             racy address: the other lines of a racy flag can go
             unnamed)

exitcode=0 in both, so that a report does not fail a test and the suite
runs through. Every report file (PATH.<pid>) is read; a report is the block
from its WARNING line to its SUMMARY line. Its line is the SUMMARY's
FILE:LINE (the column dropped, the path relative to its build's tree); the
lines of its accesses are the first frame (#0) of each side's stack (pcmap
names the other side when its watch table saw it; TSan always). For each
package:

  pcmap lines   distinct SUMMARY lines of pcmap's data-race reports, over
                all its rates and rounds
  TSan lines    distinct SUMMARY lines of TSan's data-race reports
  both          pcmap lines that TSan names as either access of one of its
                races (a race has two lines; each tool's SUMMARY names the
                access it caught, which need not be the same one)
  pcmap only    pcmap lines TSan never names: each must be looked at. A
                report TSan does not confirm is a false positive of pcmap's,
                or a race TSan missed (it sees only the interleavings its
                run makes), or memory that changes under the program
                (the kernel's, another process's)
  TSan only     TSan lines whose race pcmap did not report (neither of its
                accesses' lines among pcmap's lines): pcmap samples, at
                race_hz checks per second of each thread's CPU time

and the CPU time (user + system) of the whole test command under each run,
from the resource usage of its waited-for children, the tests passed (the
suite's own summary, test/corpus/corpus.py's test_summary), and for pcmap
the checks it made (the sum of each process's "in N checks of plain
accesses"). Reports of other kinds (TSan's "signal-unsafe call", "thread
leak", ...) are counted apart. The pcmap-only lines are listed with their
functions and locations below the tables; the exit status is 0 even then
(the output says so), 1 if a build fails or a suite fails with pcmap's
build (a suite that fails under TSan is only shown as failed).

usage: bench/race_corpus.py --build BUILD [--work DIR] [--only NAME,...]
           [--runs N] [--race-hz 100,1000] [--off] [--jobs N]
           [--timeout S] [--test-timeout S]
           [--recipe-tests-only] [--reuse]
           [--json FILE] [--headline FILE]
       bench/race_corpus.py --reports PCMAP_DIR PCMAP_TREE
           TSAN_DIR TSAN_TREE

--only: recipes of test/corpus/corpus.py (liburcu, ck, mimalloc, ...);
--work: where sources are cached and built (default: a temporary
directory, removed at the end; a given one is kept, and with --reuse a
tree a previous run built there is built again only if the source, the
flags or the tools changed: pcmap's driver, plugin and runtimes, clang). Needs a deb-src entry for
`apt-get source` (test/corpus/README.md). --reports compares two
directories of report files as a run does, and nothing more (a run's are
in WORK/NAME/reports/MODE-ROUND)."""

import argparse
import collections
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "corpus"))
import corpus  # noqa: E402
from headline import Headline  # noqa: E402

# Build commands that make the test programs without running them, after
# the recipe's own build: the suite's CPU time is then the tests'.
PREBUILD = {
    "liburcu": ["make -j$JOBS check TESTS= >check-build.out 2>&1"],
    "liburcu-thinlto": ["make -j$JOBS check TESTS= >check-build.out 2>&1"],
}
# Tests run after the recipe's, from the package's own suite: liburcu's
# `make check` runs its unit tests only, which hardly start a thread;
# Debian's build runs `make regtest` (dh_auto_test -- regtest), the
# regression tests: rcutorture on each flavour of RCU (60 programs, 15 of
# them 10-second stress tests) and test_urcu_fork. Then the hash table
# benchmark's 17 one-second runs (tests/benchmark lists them for regtest,
# which does not run them).
LIBURCU_REGTEST = [
    "make -C tests/regression regtest >>check.out 2>&1",
    "make -C tests/benchmark check TESTS=hashtable_1_seconds.tap "
    ">>check.out 2>&1"]
EXTRA_TESTS = {"liburcu": LIBURCU_REGTEST,
               "liburcu-thinlto": LIBURCU_REGTEST}

WARNING = re.compile(r"^WARNING: (pcmap|ThreadSanitizer): (.*?)"
                     r"(?: \(pid=\d+\))?$")
SUMMARY = re.compile(r"^SUMMARY: (pcmap|ThreadSanitizer): (.*)$")
PLACE = re.compile(r"^(.*?) ?(\S+?):(\d+)(?::\d+)? in (.*)$")
SIDE = re.compile(r"^  (?!Location)\S.* of size \d+\b")
# "#0 function file:line:col (module+0xoffset)", and TSan's " (BuildId: ...)"
FRAME0 = re.compile(r"^\s+#0 (.*?) (\S+?):(\d+)(?::\d+)? "
                    r"\(\S+\+0x[0-9a-f]+\)")
CHECKS = re.compile(r"^pcmap: data races: \d+ found.* in (\d+) checks")


def log(msg):
    print("race_corpus: " + msg, file=sys.stderr, flush=True)


def cmake_cache(build, name):
    try:
        for line in open(os.path.join(build, "CMakeCache.txt")):
            if line.startswith(name + ":"):
                return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return None


# --------------------------------------------------------------------------
# Building
# --------------------------------------------------------------------------


def tsan_env(clang, clangxx, recipe, jobs):
    """corpus.build_env's variables for plain clang with -fsanitize=thread
    (libtool passes -fsanitize=* through to its links)."""
    env = corpus.build_env("", recipe, jobs, metadata=False)
    flags = recipe.flags + " -fsanitize=thread"
    env.update({"CC": clang, "CXX": clangxx, "CFLAGS": flags,
                "CXXFLAGS": flags,
                "LDFLAGS": (recipe.ldflags + " -fsanitize=thread").strip()})
    env.pop("TSAN_OPTIONS", None)
    return env


def fingerprint(dsc, env, tools):
    """What a build is made of: the source package, the compilers and flags,
    and the size and time of each tool file (pcmap's driver, plugin and
    runtimes; plain clang), so that --reuse rebuilds after any of them
    changed."""
    files = []
    for path in tools:
        paths = [path] if os.path.isfile(path) else sorted(
            os.path.join(path, f) for f in os.listdir(path)
            if os.path.isfile(os.path.join(path, f)))
        for f in paths:
            st = os.stat(f)
            files.append([os.path.basename(f), st.st_size, st.st_mtime_ns])
    return json.dumps({"source": os.path.basename(dsc),
                       "env": [env.get(k, "") for k in
                               ("CC", "CXX", "CFLAGS", "CXXFLAGS",
                                "LDFLAGS")],
                       "files": files}, sort_keys=True)


def build_tree(recipe, dsc, tree, env, timeout, reuse, tools):
    """Unpacks dsc into tree/src and builds it there (the recipe's build
    commands and PREBUILD's). With reuse, keeps a tree built from the same
    source by the same tools. Returns (ok, seconds, detail)."""
    src = os.path.join(tree, "src")
    done = os.path.join(tree, "built")
    steps = recipe.build + PREBUILD.get(recipe.name, [])
    made_of = fingerprint(dsc, env, tools) + "\n" + json.dumps(steps)
    if reuse and os.path.exists(done):
        with open(done) as f:
            if f.read() == made_of:
                return True, 0.0, "reused"
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(tree)
    rc, out = corpus.run(["dpkg-source", "--no-check", "-x", dsc, src],
                         cwd=tree, timeout=600)
    if rc:
        return False, 0.0, "dpkg-source -x failed:\n" + out[-2000:]
    start = time.time()
    ok, text = corpus.run_steps(steps, src, env, timeout)
    seconds = time.time() - start
    with open(os.path.join(tree, "build.log"), "w") as f:
        f.write(text)
    if ok:
        with open(done, "w") as f:
            f.write(made_of)
    return ok, seconds, "" if ok else text[-3000:]


# --------------------------------------------------------------------------
# Running the suite
# --------------------------------------------------------------------------


def run_suite(steps, cwd, env, timeout):
    """Runs the test commands as corpus.run_steps does, each in a process
    group of its own that a time-out ends whole. Returns (exit statuses,
    CPU seconds of the waited-for children, wall seconds, log text)."""
    text, statuses = [], []
    deadline = time.time() + timeout
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.time()
    for cmd in steps:
        p = subprocess.Popen(["bash", "-c", "set -o pipefail; " + cmd],
                             cwd=cwd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True,
                             errors="replace", start_new_session=True)
        try:
            out, _ = p.communicate(timeout=max(1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, _ = p.communicate()
            out += "\n(timed out after %d s)" % timeout
            p.returncode = 124
        text.append("$ %s\n%s" % (cmd, out))
        statuses.append(p.returncode)
        if p.returncode == 124:
            break
    wall = time.time() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                before.ru_stime)
    return statuses, cpu, wall, "\n".join(text)


def tests_passed(summary):
    """(passed, total) from corpus.test_summary's text, or None."""
    m = re.search(r"(\d+) of (\d+) passed", summary)
    if m:
        return int(m.group(1)), int(m.group(2))
    m = re.match(r"(\d+) PASS lines, (\d+) FAIL lines", summary)
    if m:
        return int(m.group(1)), int(m.group(1)) + int(m.group(2))
    return None


# --------------------------------------------------------------------------
# Reading the reports
# --------------------------------------------------------------------------


def place(path, line, tree):
    """FILE:LINE, the path relative to the build's tree where it is in it."""
    path = os.path.normpath(path)
    for prefix in (tree, os.path.realpath(tree)):
        if path.startswith(prefix + os.sep):
            path = path[len(prefix) + 1:]
            break
    return "%s:%s" % (path, line)


def parse_reports(directory, tree):
    """The reports in directory's files: (races, other kinds counted,
    files, pcmap's checks). A race is {line, function, sides (the lines of
    its accesses), location, pid file}."""
    races, others, checks = [], collections.Counter(), 0
    files = sorted(os.listdir(directory)) if os.path.isdir(directory) else []
    for name in files:
        with open(os.path.join(directory, name), errors="replace") as f:
            lines = f.read().splitlines()
        block = None
        for text in lines:
            m = CHECKS.match(text)
            if m:
                checks += int(m.group(1))
                continue
            m = WARNING.match(text)
            if m:
                block = {"kind": m.group(2), "sides": [], "location": "",
                         "file": name, "want_frame": False}
                continue
            if block is None:
                continue
            if SIDE.match(text):
                block["want_frame"] = True
                continue
            if text.lstrip().startswith("#0 "):
                m = FRAME0.match(text)
                if m and block["want_frame"]:
                    block["sides"].append(place(m.group(2), m.group(3),
                                                tree))
                block["want_frame"] = False
                continue
            if text.startswith("  Location is "):
                # Less its address ("global 'x' of size 4 at 0x...").
                block["location"] = re.sub(
                    r" at 0x.*$", "", text[len("  Location is "):].strip())
                continue
            m = SUMMARY.match(text)
            if m:
                p = PLACE.match(m.group(2))
                # Without a source line: "KIND (module+0xoffset) ... in F".
                kind = p.group(1) if p else re.split(r" \(| in ",
                                                     m.group(2))[0]
                if not kind.startswith("data race"):
                    others[kind] += 1
                elif p:
                    races.append({
                        "line": place(p.group(2), p.group(3), tree),
                        "function": p.group(4), "sides": block["sides"],
                        "location": block["location"], "file": name})
                else:
                    others[kind + " without a source line"] += 1
                block = None
    return races, others, len(files), checks


# --------------------------------------------------------------------------
# One package
# --------------------------------------------------------------------------


def modes_of(rates, off=False):
    """[(name, build, description)] in the order of the first round."""
    out = [("off", "pcmap", "pcmap build, detector off")] if off else []
    for hz in rates:
        out.append(("pcmap@%d" % hz, "pcmap",
                    "pcmap build, detect_races=1, race_hz=%d" % hz))
    out.append(("tsan", "tsan", "TSan build (-fsanitize=thread)"))
    return out


def mode_env(mode, base, reports, test_timeout):
    env = dict(base)
    env.pop("PCMAP_OPTIONS", None)
    env.pop("TSAN_OPTIONS", None)
    if test_timeout:
        # Each test of an automake suite under `timeout` (the Makefiles
        # leave these variables to the environment): one test that hangs
        # (the TSan build of rcutorture_urcu_signal) fails alone.
        env["LOG_COMPILER"] = env["TAP_LOG_COMPILER"] = \
            "timeout -k 10 %d" % test_timeout
    if mode.startswith("pcmap@"):
        env["PCMAP_OPTIONS"] = (
            "detect_races=1:race_hz=%s:exitcode=0:log_path=%s"
            % (mode.split("@")[1], os.path.join(reports, "pcmap")))
    elif mode == "tsan":
        # suppress_equal_addresses=0: not one report per address (TSan
        # still stops checking a cell it reported a race on).
        env["TSAN_OPTIONS"] = ("log_path=%s:halt_on_error=0:exitcode=0:"
                               "suppress_equal_addresses=0"
                               % os.path.join(reports, "tsan"))
    return env


def run_package(recipe, args, bin_dir, clangs, cache):
    res = {"name": recipe.name, "source": recipe.source,
           "flags": recipe.flags, "builds": {}, "runs": []}
    dsc, why = corpus.fetch(recipe.source, cache)
    if not dsc:
        res["error"] = why
        log("%s: cannot fetch source package %s: %s"
            % (recipe.name, recipe.source, why))
        return res
    res["version"] = os.path.basename(dsc)[len(recipe.source) + 1:-4]
    top = os.path.join(args.work, recipe.name)
    trees = {"pcmap": os.path.join(top, "pcmap"),
             "tsan": os.path.join(top, "tsan")}
    build_dir = os.path.dirname(bin_dir)
    tools = {"pcmap": [os.path.join(bin_dir, "pcmap-clang"),
                       os.path.join(build_dir, "lib", "pcmap")],
             "tsan": [os.path.realpath(clangs[0])]}
    envs = {"pcmap": corpus.build_env(bin_dir, recipe, args.jobs),
            "tsan": tsan_env(clangs[0], clangs[1], recipe, args.jobs)}
    for build in ("pcmap", "tsan"):
        log("%s: building with %s" % (recipe.name, build))
        ok, seconds, detail = build_tree(recipe, dsc, trees[build],
                                         envs[build], args.timeout,
                                         args.reuse, tools[build])
        res["builds"][build] = {"ok": ok, "seconds": round(seconds, 1)}
        if not ok:
            res["error"] = "the %s build failed" % build
            log("%s: the %s build failed:\n%s" % (recipe.name, build, detail))
            return res
        log("%s: %s build %s" % (recipe.name, build, "reused" if detail
                                 else "done in %.0f s" % seconds))
    tests = list(recipe.test)
    if not args.recipe_tests_only:
        tests += EXTRA_TESTS.get(recipe.name, [])
    res["tests"] = tests
    modes = modes_of(args.race_hz, args.off)
    for r in range(args.runs):
        order = modes[r % len(modes):] + modes[:r % len(modes)]
        for mode, build, _ in order:
            src = os.path.join(trees[build], "src")
            reports = os.path.join(top, "reports", "%s-%d" % (mode, r + 1))
            shutil.rmtree(reports, ignore_errors=True)
            os.makedirs(reports)
            check_out = os.path.join(src, "check.out")
            if os.path.exists(check_out):
                os.unlink(check_out)
            statuses, cpu, wall, text = run_suite(
                tests, src,
                mode_env(mode, envs[build], reports, args.test_timeout),
                args.timeout)
            with open(os.path.join(reports, "..", "%s-%d.log"
                                   % (mode, r + 1)), "w") as f:
                f.write(text)
            if os.path.exists(check_out):
                shutil.copy(check_out, os.path.join(
                    top, "reports", "%s-%d.check.out" % (mode, r + 1)))
            summary = corpus.test_summary(src)
            races, others, nfiles, checks = parse_reports(
                reports, os.path.realpath(src))
            run = {"mode": mode, "round": r + 1, "statuses": statuses,
                   "cpu_seconds": round(cpu, 2),
                   "wall_seconds": round(wall, 2), "tests": summary,
                   "passed": tests_passed(summary), "races": races,
                   "other_reports": dict(others), "report_files": nfiles,
                   "checks": checks}
            res["runs"].append(run)
            log("%s round %d %s: %s; CPU %.1f s, wall %.1f s; %d race "
                "reports%s" % (recipe.name, r + 1, mode, summary or
                               "no test summary", cpu, wall, len(races),
                               "; %d checks" % checks
                               if mode.startswith("pcmap@") else ""))
            if any(statuses):
                log("%s: %s: the test command exited with %s:\n%s"
                    % (recipe.name, mode, statuses, text[-2000:]))
    compare(res)
    return res


def compare(res):
    """The lines of each tool, and what one confirms of the other's."""
    pcmap = collections.OrderedDict()  # line -> {functions, locations, ...}
    tsan = collections.OrderedDict()
    tsan_sides = set()
    for run in res["runs"]:
        for race in run["races"]:
            if run["mode"] == "tsan":
                e = tsan.setdefault(race["line"], {
                    "functions": set(), "reports": 0, "sides": set()})
                tsan_sides.update(race["sides"])
                tsan_sides.add(race["line"])
            else:
                e = pcmap.setdefault(race["line"], {
                    "functions": set(), "reports": 0, "sides": set(),
                    "locations": set(), "modes": set()})
                e["locations"].add(race["location"])
                e["modes"].add(run["mode"])
            e["functions"].add(race["function"])
            e["reports"] += 1
            e["sides"].update(race["sides"])
    both = [l for l in pcmap if l in tsan_sides]
    pcmap_only = [l for l in pcmap if l not in tsan_sides]
    tsan_only = [l for l, e in tsan.items()
                 if not ({l} | e["sides"]) & set(pcmap)]

    def plain(d):
        return {k: sorted(v) if isinstance(v, set) else v
                for k, v in d.items()}
    res["pcmap_lines"] = {l: plain(e) for l, e in pcmap.items()}
    res["tsan_lines"] = {l: plain(e) for l, e in tsan.items()}
    res["both"], res["pcmap_only"], res["tsan_only"] = both, pcmap_only, \
        tsan_only


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------


def median(xs):
    xs = sorted(xs)
    if not xs:
        return None
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2.0


def runs_of(res, mode):
    return [r for r in res["runs"] if r["mode"] == mode]


def tests_cell(runs):
    """"89 of 89" (the worst round), or the suite's summary text."""
    if not runs:
        return "-"
    counts = [r["passed"] for r in runs]
    failed = any(any(r["statuses"]) for r in runs)
    if all(counts):
        passed = min(c[0] for c in counts)
        total = max(c[1] for c in counts)
        text = "%d of %d" % (passed, total)
    else:
        text = runs[0]["tests"].replace("|", "/")[:60] or "no summary"
    return text + (" (suite failed)" if failed else "")


def cpu_cell(runs):
    m = median([r["cpu_seconds"] for r in runs])
    return "-" if m is None else "%.1f" % m


def print_package(res, modes, rounds):
    name = res["name"]
    print("## %s %s" % (name, res.get("version", "")))
    print()
    if res.get("error"):
        print("Not measured: %s." % res["error"].splitlines()[0])
        print()
        return
    b = res["builds"]
    print("Built from the same source twice: by pcmap's drivers "
          "(%s -fsanitize-metadata=all) and by plain clang with "
          "-fsanitize=thread (%s); %d round%s of the test suite in each "
          "mode, in rotating order. Build time: pcmap %s, TSan %s."
          % (res["flags"], res["flags"], rounds, "s" if rounds > 1 else "",
             "%.0f s" % b["pcmap"]["seconds"] if b["pcmap"]["seconds"]
             else "reused", "%.0f s" % b["tsan"]["seconds"]
             if b["tsan"]["seconds"] else "reused"))
    print()
    print("Tests: " + ", ".join(
        "`%s`" % re.sub(r"\s*(?:2>&1|>>?\s*\S+)", "", t).strip()
        for t in res["tests"]) + ". CPU time includes the shell and make "
        "around the tests." + (
            " The regression tests run for a fixed time: their CPU time is "
            "about that time on each running thread, whatever the build."
            if name.startswith("liburcu") and len(res["tests"]) > 1 else ""))
    print()
    print("| run | tests passed | CPU s (median) | processes reporting | "
          "race reports | distinct race lines | checks | other reports |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for mode, _, desc in modes:
        runs = runs_of(res, mode)
        lines = {x["line"] for r in runs for x in r["races"]}
        procs = sum(len({x["file"] for x in r["races"]}) for r in runs)
        others = collections.Counter()
        for r in runs:
            others.update(r["other_reports"])
        print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            desc, tests_cell(runs), cpu_cell(runs),
            "-" if mode == "off" else procs,
            "-" if mode == "off" else sum(len(r["races"]) for r in runs),
            "-" if mode == "off" else len(lines),
            sum(r["checks"] for r in runs) if mode.startswith("pcmap@")
            else "-",
            ", ".join("%s: %d" % kv for kv in sorted(others.items()))
            or "-"))
    print()
    det = [m for m, _, _ in modes if m.startswith("pcmap@")]
    pcmap_cpu = median([r["cpu_seconds"] for m in det
                        for r in runs_of(res, m)])
    print("| package | tests passed: pcmap / TSan | pcmap race lines | "
          "TSan race lines | both | pcmap only | TSan only | "
          "CPU s: off / pcmap / TSan |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    print("| %s | %s / %s | %d | %d | %d | **%d** | %d | %s / %s / %s |" % (
        name, tests_cell([r for m in det for r in runs_of(res, m)]),
        tests_cell(runs_of(res, "tsan")), len(res["pcmap_lines"]),
        len(res["tsan_lines"]), len(res["both"]), len(res["pcmap_only"]),
        len(res["tsan_only"]), cpu_cell(runs_of(res, "off")),
        "-" if pcmap_cpu is None else "%.1f" % pcmap_cpu,
        cpu_cell(runs_of(res, "tsan"))))
    print()
    print_lines(res)


def print_lines(res):
    """The pcmap-only lines, those both name and TSan's alone."""
    if res["pcmap_only"]:
        print("**%d line%s pcmap reports that TSan does not confirm** "
              "(each a false positive to investigate, or a race TSan's run "
              "did not see):" % (len(res["pcmap_only"]),
                                 "s" if len(res["pcmap_only"]) > 1 else ""))
        print()
        for l in res["pcmap_only"]:
            e = res["pcmap_lines"][l]
            print("- `%s` in %s: %d report%s (%s); location: %s%s" % (
                l, ", ".join(e["functions"]), e["reports"],
                "s" if e["reports"] > 1 else "", ", ".join(e["modes"]),
                "; ".join(x for x in e["locations"] if x) or "not named",
                "; other side: " + ", ".join(e["sides"][1:])
                if len(e["sides"]) > 1 else ""))
        print()
    else:
        print("pcmap reports no line that TSan does not confirm.")
        print()
    if res["both"]:
        print("Lines both report: " + ", ".join(
            "`%s` (%s)" % (l, ", ".join(res["pcmap_lines"][l]["functions"]))
            for l in res["both"]) + ".")
        print()
    if res["tsan_only"]:
        shown = res["tsan_only"][:20]
        print("TSan only (%d): " % len(res["tsan_only"]) + ", ".join(
            "`%s` (%s)" % (l, ", ".join(res["tsan_lines"][l]["functions"]))
            for l in shown) + (", ..." if len(shown) < len(res["tsan_only"])
                               else "") + ".")
        print()


def compare_directories(pcmap_dir, pcmap_tree, tsan_dir, tsan_tree):
    """--reports: the lines of two directories of reports."""
    res = {"runs": []}
    for mode, directory, tree in (("pcmap", pcmap_dir, pcmap_tree),
                                  ("tsan", tsan_dir, tsan_tree)):
        races, others, files, checks = parse_reports(
            directory, os.path.realpath(tree))
        res["runs"].append({"mode": mode, "races": races})
        print("%s: %d files, %d race reports, %d distinct lines%s%s" % (
            mode, files, len(races), len({r["line"] for r in races}),
            "; %d checks" % checks if mode == "pcmap" else "",
            "; other reports: " + ", ".join(
                "%s: %d" % kv for kv in sorted(others.items()))
            if others else ""))
    compare(res)
    print("both %d, pcmap only %d, TSan only %d" % (
        len(res["both"]), len(res["pcmap_only"]), len(res["tsan_only"])))
    print()
    print_lines(res)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", help="the pcmap build directory")
    ap.add_argument("--work", default=None,
                    help="where sources are cached and built (default: a "
                    "temporary directory, removed at the end)")
    ap.add_argument("--only", default="liburcu",
                    help="comma-separated recipes of test/corpus/corpus.py "
                    "(default: liburcu)")
    ap.add_argument("--runs", type=int, default=1,
                    help="rounds of the suites (default 1)")
    ap.add_argument("--race-hz", default="100,1000",
                    help="race_hz values to run the detector at "
                    "(default: 100,1000)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=3600,
                    help="seconds for a build, and for a suite's run")
    ap.add_argument("--off", action="store_true",
                    help="also run the pcmap build's suite with the "
                    "detector off (its CPU time without detection)")
    ap.add_argument("--test-timeout", type=int, default=120,
                    help="seconds for each test of an automake suite "
                    "(0: no limit)")
    ap.add_argument("--recipe-tests-only", action="store_true",
                    help="run only the recipe's test commands (liburcu: "
                    "the unit tests, without the regression tests)")
    ap.add_argument("--reuse", action="store_true",
                    help="keep the builds a previous run left in --work if "
                    "made of the same source, flags and tools")
    ap.add_argument("--json", help="also write every report's line, side "
                    "and location and every run's figures as JSON")
    ap.add_argument("--headline", help="also write the figures as JSON "
                    "(bench/headline.py)")
    ap.add_argument("--reports", nargs=4, metavar=("PCMAP_DIR", "PCMAP_TREE",
                                                   "TSAN_DIR", "TSAN_TREE"),
                    help="only compare the report files of two directories "
                    "(their paths relative to the trees given): no build, "
                    "no run")
    args = ap.parse_args(argv)
    if args.reports:
        return compare_directories(*args.reports)
    if not args.build:
        ap.error("--build is needed")
    args.race_hz = [int(x) for x in args.race_hz.split(",") if x]
    headline = Headline(args.headline)

    build = os.path.abspath(args.build)
    bin_dir = os.path.join(build, "bin")
    clang = cmake_cache(build, "PCMAP_CLANG")
    clangxx = cmake_cache(build, "PCMAP_CLANGXX")
    if not clang or not os.path.exists(os.path.join(bin_dir, "pcmap-clang")):
        log("error: %s is not a pcmap build" % build)
        return 2
    clangxx = clangxx or clang + "++"
    # lld, llvm-symbolizer: the same LLVM's.
    os.environ["PATH"] = os.path.dirname(clang) + os.pathsep + \
        os.environ["PATH"]
    names = [n for n in args.only.split(",") if n]
    unknown = set(names) - {r.name for r in corpus.RECIPES}
    if unknown:
        log("error: unknown recipe(s) %s" % ", ".join(sorted(unknown)))
        return 2
    recipes = [r for r in corpus.RECIPES if r.name in names]
    temporary = args.work is None
    args.work = os.path.abspath(args.work or tempfile.mkdtemp(
        prefix="pcmap-race-corpus-"))
    os.makedirs(args.work, exist_ok=True)
    cache = os.path.join(args.work, "downloads")

    t0 = time.time()
    results = []
    try:
        for r in recipes:
            results.append(run_package(r, args, bin_dir, (clang, clangxx),
                                       cache))
    finally:
        if temporary:
            shutil.rmtree(args.work, ignore_errors=True)
    total = time.time() - t0

    modes = modes_of(args.race_hz, args.off)
    print("# The race detector on real test suites, beside "
          "ThreadSanitizer")
    print()
    print("A line is a report's SUMMARY FILE:LINE. *both*: pcmap lines TSan "
          "names as either access of one of its races; *pcmap only*: pcmap "
          "lines TSan never names (must be 0, or explained); *TSan only*: "
          "TSan lines whose race pcmap did not report (pcmap samples). CPU "
          "time: the whole test command's, user + system.")
    print()
    for res in results:
        print_package(res, modes, args.runs)
    print("Total %.0f s." % total)
    # A suite that fails under TSan is said in the table; one that fails
    # with pcmap's build, or a build that fails, fails the benchmark.
    failed = [r["name"] for r in results if r.get("error") or any(
        any(run["statuses"]) for run in r["runs"] if run["mode"] != "tsan")]
    flagged = [r["name"] for r in results if r.get("pcmap_only")]
    if flagged:
        print()
        print("pcmap reported lines that TSan does not confirm in %s: see "
              "the lists above." % ", ".join(flagged))

    for res in results:
        if res.get("error"):
            continue
        n = res["name"]
        tsan_lines = len(res["tsan_lines"])
        headline.add("%s_pcmap_only" % n,
                     "%s's tests: race lines pcmap reports that "
                     "ThreadSanitizer does not name" % n,
                     len(res["pcmap_only"]), "lines",
                     baseline_label="ThreadSanitizer reports %d lines on "
                     "the same tests" % tsan_lines,
                     note="pcmap reports %d lines (race_hz %s), %d of them "
                     "named by ThreadSanitizer" % (
                         len(res["pcmap_lines"]),
                         ", ".join(str(x) for x in args.race_hz),
                         len(res["both"])))
        headline.add("%s_found" % n,
                     "%s's tests: ThreadSanitizer's race lines whose race "
                     "pcmap reports too" % n,
                     tsan_lines - len(res["tsan_only"]), "lines",
                     baseline=tsan_lines,
                     baseline_label="ThreadSanitizer's race lines", digits=0,
                     note="pcmap samples: race_hz %s, one round" % ", ".join(
                         str(x) for x in args.race_hz) if args.runs == 1
                     else "pcmap samples: race_hz %s, %d rounds" % (
                         ", ".join(str(x) for x in args.race_hz), args.runs))
    headline.write()
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"race_hz": args.race_hz, "runs": args.runs,
                       "seconds": round(total, 1), "packages": results}, f,
                      indent=1, sort_keys=True)
    if failed:
        log("failed: %s" % ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
