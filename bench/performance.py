#!/usr/bin/env python3
"""pcmap's performance page, generated from the benchmarks' own output.

  performance.py list
      the benchmarks of the registry (bench/benchmarks.json) and how long
      each takes
  performance.py run [--build DIR] [--work DIR] [--input NAME=DIR]
                     [--skip NAME] [NAMES...]
      runs the benchmarks named (default: all) as their commands say, each
      alone, and stores each result in bench/results/NAME.json: the command,
      the date, the machine, its load, the baseline, the script's output and
      its headline figures (the script's --headline FILE); a benchmark that
      cannot run, or fails, is stored as not run, with the reason
  performance.py skip NAME --reason TEXT
      stores NAME as not run on this machine, with the reason
  performance.py render [--output FILE] [--readme FILE]
      writes docs/Performance.md from bench/results/*.json, and the README's
      headline table between its markers <!-- performance:begin --> and
      <!-- performance:end --> (a README without them is left alone)
  performance.py check [--output FILE] [--readme FILE]
      exits 1 if the page, or the README's table (where the README has the
      markers and something between them), differs from what render would
      write

Commands name the build directory BUILD (--build, default build-19), a
directory for what benchmarks build and keep WORK (--work, default
BUILD/bench-work) and their inputs by name (SQLITE, POSTGRES: --input
NAME=DIR, or prepared in WORK by the command the registry gives). Paths are
relative to the repository. Python 3's standard library only."""

import argparse
import datetime
import difflib
import json
import os
import platform
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REGISTRY = os.path.join(ROOT, "bench", "benchmarks.json")
RESULTS = os.path.join(ROOT, "bench", "results")
PAGE = os.path.join(ROOT, "docs", "Performance.md")
README = os.path.join(ROOT, "README.md")
BEGIN, END = "<!-- performance:begin -->", "<!-- performance:end -->"
PAGE_LINK = "docs/Performance.md"


def log(msg):
    print("performance.py: " + msg, file=sys.stderr, flush=True)


def load_registry(path):
    with open(path) as f:
        registry = json.load(f)
    names = [b["name"] for b in registry["benchmarks"]]
    if len(set(names)) != len(names):
        sys.exit("performance.py: %s names a benchmark twice" % path)
    return registry


# --- The machine --------------------------------------------------------

def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def cmake_cache(build, name):
    for line in read(os.path.join(build, "CMakeCache.txt")).splitlines():
        if line.startswith(name + ":"):
            return line.split("=", 1)[1].strip()
    return None


def llvm_version(build):
    """The version of the clang the build's drivers run."""
    clang = cmake_cache(build, "PCMAP_CLANG")
    if clang:
        try:
            out = subprocess.run([clang, "--version"], capture_output=True,
                                 text=True).stdout
            m = re.search(r"clang version (\d+[.\d]*)", out)
            if m:
                return m.group(1)
        except OSError:
            pass
    return cmake_cache(build, "LLVM_VERSION_MAJOR") or "unknown"


def machine(build):
    """The hardware and the system: no name, no path."""
    cpuinfo = read("/proc/cpuinfo")
    model = re.search(r"^model name\s*:\s*(.*)$", cpuinfo, re.M)
    if not model:  # AArch64: no model name
        model = re.search(r"^CPU part\s*:\s*(.*)$", cpuinfo, re.M)
    mem = re.search(r"^MemTotal:\s*(\d+) kB", read("/proc/meminfo"), re.M)
    os_release = dict(re.findall(r'^(\w+)="?([^"\n]*)"?$',
                                 read("/etc/os-release"), re.M))
    system = os_release.get("NAME", platform.system()).replace(
        " GNU/Linux", "")
    version = read("/etc/debian_version").strip() or os_release.get(
        "VERSION_ID", "")
    return {
        "cpu": model.group(1).strip() if model else platform.machine(),
        "arch": platform.machine(),
        "virtual": " hypervisor " in " %s " % " ".join(
            re.findall(r"^flags\s*:\s*(.*)$", cpuinfo, re.M)[:1]),
        "cores": os.cpu_count(),
        "memory_gib": round(int(mem.group(1)) / 2 ** 20) if mem else None,
        "kernel": "Linux " + platform.release(),
        "os": ("%s %s" % (system, version)).strip(),
        "llvm": llvm_version(build),
    }


def describe_machine(m):
    what = m["cpu"] + (" (virtual machine)" if m.get("virtual") else "")
    parts = ["%s, %s, %d cores" % (what, m["arch"], m["cores"])]
    if m.get("memory_gib"):
        parts[0] += ", %d GiB" % m["memory_gib"]
    parts += [m["kernel"], m["os"], "LLVM " + m["llvm"]]
    return "; ".join(parts)


class LoadSampler(threading.Thread):
    """The one-minute load average every few seconds while a benchmark
    runs: the machine may be shared."""

    def __init__(self, period=5.0):
        super().__init__(daemon=True)
        self.period, self.samples = period, []
        self.done = threading.Event()

    def run(self):
        while True:
            self.samples.append(os.getloadavg()[0])
            if self.done.wait(self.period):
                return

    def stop(self):
        self.done.set()
        self.join()
        return self.samples


# --- Running ------------------------------------------------------------

class Places:
    """What the placeholders of a command stand for, and the way back."""

    def __init__(self, build, work, inputs):
        self.values = {"BUILD": build, "WORK": work}
        self.values.update(inputs)

    def expand(self, text):
        for name in sorted(self.values, key=len, reverse=True):
            text = re.sub(r"\b%s\b" % name, lambda _: self.values[name], text)
        return text

    def scrub(self, text):
        """The machine's paths and name out of a benchmark's output."""
        pairs = [(v, k) for k, v in self.values.items() if v]
        pairs += [(ROOT + "/", ""), (ROOT, "."),
                  (os.path.realpath(tempfile.gettempdir()), "$TMPDIR"),
                  (tempfile.gettempdir(), "$TMPDIR"),
                  (os.path.expanduser("~"), "~")]
        for path, name in sorted(pairs, key=lambda p: len(p[0]), reverse=True):
            if len(path) > 1:
                text = text.replace(path, name)
        host = socket.gethostname()
        if host and len(host) > 2:
            text = re.sub(r"\b%s\b" % re.escape(host), "HOST", text)
        return text


def missing_requirements(bench, places):
    missing = []
    for path in bench.get("requires", {}).get("files", []):
        full = places.expand(path)
        if not os.path.isabs(full):
            full = os.path.join(ROOT, full)
        if not os.path.exists(full):
            missing.append("no %s" % path)
    for tool in bench.get("requires", {}).get("tools", []):
        if not shutil.which(tool):
            missing.append("no %s on the PATH" % tool)
    return missing


def tee(stream, sink, chunks):
    for line in iter(stream.readline, ""):
        chunks.append(line)
        sink.write(line)
        sink.flush()


def run_command(argv, env):
    """Runs argv in the repository, its stdout and stderr shown as they
    come; returns (status, stdout, stderr)."""
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)
    out, err = [], []
    threads = [threading.Thread(target=tee, args=(proc.stdout, sys.stderr,
                                                  out)),
               threading.Thread(target=tee, args=(proc.stderr, sys.stderr,
                                                  err))]
    for t in threads:
        t.start()
    status = proc.wait()
    for t in threads:
        t.join()
    return status, "".join(out), "".join(err)


def prepare_inputs(bench, places, given):
    """The inputs' directories: given (--input), else the registry's
    default, prepared by its command if missing. Returns (inputs, reason
    they could not be had)."""
    inputs = {}
    for name, spec in bench.get("inputs", {}).items():
        if name in given:
            path = os.path.abspath(given[name])
        else:
            path = os.path.abspath(places.expand(spec["default"]))
            if not os.path.exists(path) and spec.get("prepare"):
                argv = shlex.split(places.expand(spec["prepare"]))
                log("%s: preparing %s: %s" % (bench["name"], name,
                                              spec["prepare"]))
                status, _, err = run_command(argv, os.environ.copy())
                if status != 0:
                    tail = err.strip().splitlines()[-1:] or [""]
                    return None, "preparing %s failed (`%s`: %s)" % (
                        name, spec["prepare"], places.scrub(tail[0]))
        if not os.path.exists(path):
            return None, "no %s (%s)" % (name, spec["what"])
        inputs[name] = path
    return inputs, None


def result_base(bench, build, started):
    return {
        "name": bench["name"],
        "title": bench["title"],
        "command": bench["command"],
        "inputs": {k: v["what"] for k, v in bench.get("inputs", {}).items()},
        "date": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": machine(build),
        "measures": bench["measures"],
        "baseline": bench["baseline"],
        "output_format": bench.get("output", "text"),
    }


def write_result(result, results_dir):
    os.makedirs(results_dir, exist_ok=True)
    path = os.path.join(results_dir, result["name"] + ".json")
    with open(path, "w") as f:
        json.dump(result, f, indent=1, ensure_ascii=False)
        f.write("\n")
    return path


def not_run(bench, build, reason, results_dir):
    result = result_base(bench, build, datetime.datetime.now(datetime.timezone.utc))
    result.update(status="not run", reason=reason)
    write_result(result, results_dir)
    log("%s: not run: %s" % (bench["name"], reason))


def run_one(bench, build, work, given, results_dir):
    places = Places(build, work, {})
    missing = missing_requirements(bench, places)
    if missing:
        return not_run(bench, build, "; ".join(missing), results_dir)
    inputs, reason = prepare_inputs(bench, places, given)
    if reason:
        return not_run(bench, build, reason, results_dir)
    places = Places(build, work, inputs)
    fd, headline_path = tempfile.mkstemp(prefix="pcmap-headline-",
                                         suffix=".json")
    os.close(fd)
    os.unlink(headline_path)
    argv = shlex.split(places.expand(bench["command"])) + [
        "--headline", headline_path]
    env = dict(os.environ)
    env.pop("PCMAP_OPTIONS", None)
    started = datetime.datetime.now(datetime.timezone.utc)
    log("%s: %s (%s)" % (bench["name"], bench["command"], bench["duration"]))
    sampler = LoadSampler()
    load_start = os.getloadavg()
    sampler.start()
    t0 = time.monotonic()
    status, out, err = run_command(argv, env)
    seconds = time.monotonic() - t0
    samples = sampler.stop()
    result = result_base(bench, build, started)
    result.update(
        seconds=round(seconds, 1),
        load={"start": [round(x, 2) for x in load_start],
              "end": [round(x, 2) for x in os.getloadavg()],
              "max": round(max(samples), 2) if samples else None,
              "mean": round(sum(samples) / len(samples), 2)
              if samples else None},
        exit_status=status)
    headline = []
    if os.path.exists(headline_path):
        with open(headline_path) as f:
            headline = json.load(f).get("headline", [])
        os.unlink(headline_path)
    if status != 0 or not headline:
        tail = [l for l in err.strip().splitlines() if l.strip()][-1:] or [""]
        why = ("exit status %d" % status if status != 0 else
               "it wrote no headline figures")
        result.update(status="not run", reason="the benchmark failed (%s: %s)"
                      % (why, places.scrub(tail[0]).strip()))
        log("%s: failed after %.0f s (%s)" % (bench["name"], seconds, why))
    else:
        result.update(status="ok", output=places.scrub(out),
                      headline=json.loads(places.scrub(json.dumps(
                          headline, ensure_ascii=False))))
        log("%s: done in %.0f s" % (bench["name"], seconds))
    write_result(result, results_dir)
    return result["status"] == "ok"


# --- Rendering ----------------------------------------------------------

def number(v):
    """A figure as the script rounded it: no exponent, no trailing zeros."""
    if v is None:
        return "-"
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer() and
                              abs(v) >= 1000):
        return "{:,}".format(int(v))
    text = "%.6g" % v
    if "e" in text:
        text = ("%.6f" % v).rstrip("0").rstrip(".")
    return text


def with_unit(v, unit, digits=None):
    if v is None:
        return "-"
    text = number(v)
    if digits and isinstance(v, (int, float)):
        text = "%.*f" % (digits, v)
    return text + (" " + unit if unit else "")


def ratio_cell(e):
    if e.get("compare") == "difference":
        if e.get("value") is None or e.get("baseline") is None:
            return "-"
        d = e["value"] - e["baseline"]
        return "%s%s" % ("+" if d >= 0 else "\u2212", number(abs(d)))
    r = e.get("ratio")
    if r is None:
        return "-"
    text = ("%.2fx" % r) if r >= 0.1 else ("%.2gx" % r)
    if e.get("ratio_of"):
        text += " (median by %s)" % {"rounds": "round", "objects": "object"}.get(
            e["ratio_of"], e["ratio_of"])
    return text


def baseline_cell(e, with_label=True):
    label = e.get("baseline_label") or ""
    if e.get("baseline") is None:
        return label or "-"
    value = with_unit(e["baseline"], e.get("unit", ""), e.get("digits"))
    return "%s (%s)" % (value, label) if label and with_label else value


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def slug(title):
    """The anchor GitHub gives a heading."""
    s = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return s.replace(" ", "-")


def date_of(result):
    return result.get("date", "")[:10]


def duration(seconds):
    seconds = int(round(seconds))
    if seconds < 60:
        return "%d s" % seconds
    return "%d min %02d s" % (seconds // 60, seconds % 60)


LOAD = re.compile(r" ?Load average at the end(?: of the run)?: "
                  r"\d+\.\d+, \d+\.\d+, \d+\.\d+\.")


def output_block(result):
    """The script's output: Markdown as it is (its headings under the
    benchmark's), text in a fenced block; its load averages left out."""
    text = LOAD.sub("", result.get("output", "")).strip("\n")
    if result.get("output_format") != "markdown":
        fence = "```"
        while fence in text:
            fence += "`"
        return "%stext\n%s\n%s" % (fence, text, fence)
    lines = text.splitlines()
    levels = [len(l) - len(l.lstrip("#")) for l in lines
              if re.match(r"#+ ", l)]
    shift = 4 - min(levels) if levels else 0
    out = []
    for l in lines:
        # A table or a heading after a paragraph's line starts a block of
        # its own.
        if out and out[-1].strip() and (
                l.startswith("|") and not out[-1].startswith("|") or
                re.match(r"#+ ", l)):
            out.append("")
        if re.match(r"#+ ", l):
            l = "#" * min(6, len(l) - len(l.lstrip("#")) + shift) + \
                l[len(l) - len(l.lstrip("#")):]
        out.append(l.rstrip())
    return "\n".join(out)


def figures_table(entries):
    notes = any(e.get("note") for e in entries)
    rows = ["| figure | pcmap | baseline | pcmap / baseline |" +
            (" note |" if notes else ""),
            "| --- | ---: | --- | ---: |" + (" --- |" if notes else "")]
    for e in entries:
        row = [cell(e["label"]), cell(with_unit(e.get("value"),
                                                e.get("unit", ""),
                                                e.get("digits"))),
               cell(baseline_cell(e)), cell(ratio_cell(e))]
        if notes:
            row.append(cell(e.get("note", "")))
        rows.append("| " + " | ".join(row) + " |")
    return "\n".join(rows)


def load_results(registry, results_dir):
    results = {}
    for bench in registry["benchmarks"]:
        path = os.path.join(results_dir, bench["name"] + ".json")
        if os.path.exists(path):
            with open(path) as f:
                results[bench["name"]] = json.load(f)
    return results


def ok(result):
    return result is not None and result.get("status") == "ok"


def main_machine(results):
    """The machine most results come from."""
    counts = {}
    for r in results.values():
        if ok(r):
            d = describe_machine(r["machine"])
            counts[d] = counts.get(d, 0) + 1
    return max(sorted(counts), key=counts.get) if counts else None


def headline_rows(registry, results, link, others=None):
    """The README table's rows. A row whose result comes from another
    machine than the main one is marked with a letter, which others (a
    dict, filled here) maps to that machine's description."""
    rows = []
    where = main_machine(results)
    for row in registry.get("readme", []):
        bench = next((b for b in registry["benchmarks"]
                      if b["name"] == row["benchmark"]), None)
        if bench is None:
            sys.exit("performance.py: the README's table names no benchmark "
                     "%s" % row["benchmark"])
        r = results.get(bench["name"])
        anchor = "%s#%s" % (link, slug(bench["title"])) if link else \
            "#" + slug(bench["title"])
        entry = None
        if ok(r):
            entry = next((e for e in r["headline"] if e["id"] == row["id"]),
                         None)
        label = "[%s](%s)" % (row.get("label") or (entry or {}).get(
            "label", bench["title"]), anchor)
        if entry is None:
            why = r.get("reason") if r and not ok(r) else (
                "no figure %s in its result" % row["id"] if ok(r) else
                "no result")
            rows.append("| %s | not run on this machine: %s | | |" % (
                label, cell(why)))
            continue
        machine = describe_machine(r["machine"])
        if others is not None and machine != where:
            mark = others.setdefault(machine, "abcdefghij"[len(others) % 10])
            label += " (%s)" % mark
        rows.append("| %s | %s | %s | %s |" % (
            label, cell(with_unit(entry.get("value"), entry.get("unit", ""),
                                  entry.get("digits"))),
            cell(baseline_cell(entry)), cell(ratio_cell(entry))))
    return (["| benchmark | pcmap | baseline | pcmap / baseline |",
             "| --- | ---: | --- | ---: |"] + rows)


def dates(results):
    ds = sorted(date_of(r) for r in results.values() if ok(r))
    if not ds:
        return None
    return ds[0] if ds[0] == ds[-1] else "%s to %s" % (ds[0], ds[-1])


def render_readme_block(registry, results):
    others = {}
    lines = headline_rows(registry, results, PAGE_LINK, others)
    where = main_machine(results)
    elsewhere = "".join("; (%s): on %s" % (mark, machine)
                        for machine, mark in others.items())
    lines += ["", "Each figure beside its baseline from the same run%s%s%s; "
              "every benchmark, what it measures and how to run it again: "
              "[%s](%s)." % (
                  " on " + where if where else "",
                  elsewhere,
                  ", " + dates(results) if dates(results) else "",
                  PAGE_LINK, PAGE_LINK)]
    return "\n".join(lines)


def render_page(registry, results):
    where = main_machine(results)
    names = [b["name"] for b in registry["benchmarks"]]
    out = [
        "# Performance",
        "",
        "<!-- Generated by bench/performance.py render from bench/results/"
        "*.json: do not edit; run the benchmarks again instead. -->",
        "",
        "What pcmap costs, and how fast its runtime answers, each figure "
        "beside a baseline measured in the same run of the same benchmark: "
        "the uninstrumented program, plain clang, upstream's metadata, the "
        "C library's and the unwinder's own lookups, perf. Every benchmark "
        "below says what it measures, against what, the command that ran it "
        "and when. bench/README.md says how each one works and how to add "
        "one.",
        "",
        "## The machine",
        "",
    ]
    if where:
        out.append("%s; runs of %s. The benchmarks ran one at a time, "
                   "each measuring its baselines in the same run, next to "
                   "what they are compared with." % (where, dates(results)))
    else:
        out.append("No benchmark has run yet.")
    out += [
        "",
        "## Running them again",
        "",
        "From the repository, with a pcmap build that has the benchmarks "
        "(`bash scripts/build.sh 19`: build-19):",
        "",
        "```sh",
        "python3 bench/performance.py list                      # the "
        "benchmarks, and how long each takes",
        "python3 bench/performance.py run --build build-19      # all of "
        "them, one after the other",
        "python3 bench/performance.py run --build build-19 %s  # some" %
        " ".join(names[:2]),
        "python3 bench/performance.py render                    # this page "
        "and the README's table",
        "python3 bench/performance.py check                     # is this "
        "page what render writes?",
        "```",
        "",
        "Each benchmark's result is bench/results/NAME.json. In the "
        "commands below BUILD is the build directory (`--build`), WORK a "
        "directory where benchmarks keep what they build (`--work`, default "
        "BUILD/bench-work), and other capitals the inputs a benchmark "
        "prepares there.",
        "",
        "## Summary",
        "",
    ]
    out += headline_rows(registry, results, None)
    out += ["", "## Benchmarks", ""]
    for bench in registry["benchmarks"]:
        r = results.get(bench["name"])
        out += ["### %s" % bench["title"], ""]
        out += ["**Measures.** " + bench["measures"], ""]
        out += ["**Baseline.** " + bench["baseline"], ""]
        command = r["command"] if r else bench["command"]
        out.append("**Command.** `%s` (%s)." % (command, bench["duration"]))
        inputs = (r or {}).get("inputs") or {
            k: v["what"] for k, v in bench.get("inputs", {}).items()}
        for name in sorted(inputs):
            out[-1] += " %s: %s." % (name, inputs[name])
        out.append("")
        if not ok(r):
            reason = r.get("reason") if r else (
                "no result yet (`python3 bench/performance.py run %s`)" %
                bench["name"])
            out += ["**Not run on this machine:** %s" % reason.rstrip("."),
                    ""]
            continue
        m = describe_machine(r["machine"])
        out += ["**Run.** %s, %s, in %s." % (
            date_of(r), "on the machine above" if m == where else "on " + m,
            duration(r.get("seconds", 0))), ""]
        out += [figures_table(r["headline"]), ""]
        out += ["The benchmark's output:", "", output_block(r), ""]
    return "\n".join(out).rstrip("\n") + "\n"


ABSOLUTE = re.compile(r"(?<![\w.~$])/(?:tmp|home|work|root|var)/")


def check_paths(text, what):
    m = ABSOLUTE.search(text)
    if m:
        line = text[:m.start()].count("\n") + 1
        sys.exit("performance.py: %s, line %d, has a path of this machine: "
                 "%s" % (what, line, text.splitlines()[line - 1].strip()))


def readme_block(readme_text):
    """What the README has between the markers."""
    b, e = readme_text.find(BEGIN), readme_text.find(END)
    return readme_text[b + len(BEGIN):e] if 0 <= b < e else ""


def replace_block(readme_text, block):
    """The README with block between the markers, or None if it has no
    markers."""
    b, e = readme_text.find(BEGIN), readme_text.find(END)
    if b < 0 or e < b:
        return None
    return readme_text[:b + len(BEGIN)] + "\n" + block + "\n" + \
        readme_text[e:]


def rendered(args):
    registry = load_registry(args.registry)
    results = load_results(registry, args.results)
    for bench in registry["benchmarks"]:
        r = results.get(bench["name"])
        if r and r.get("command") != bench["command"]:
            log("%s: its result ran `%s`; the registry now says `%s`" % (
                bench["name"], r.get("command"), bench["command"]))
    page = render_page(registry, results)
    check_paths(page, os.path.relpath(args.output, ROOT))
    block = render_readme_block(registry, results)
    return page, block


def cmd_render(args):
    page, block = rendered(args)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as f:
        f.write(page)
    log("wrote %s" % args.output)
    text = read(args.readme)
    new = replace_block(text, block) if text else None
    if new is None:
        log("%s has no %s ... %s markers: left alone" % (
            args.readme, BEGIN, END))
    elif new != text:
        with open(args.readme, "w") as f:
            f.write(new)
        log("wrote the headline table in %s" % args.readme)
    return 0


def cmd_check(args):
    page, block = rendered(args)
    status = 0
    current = read(args.output)
    if current != page:
        log("%s is not what `bench/performance.py render` writes:" %
            args.output)
        diff = list(difflib.unified_diff(
            current.splitlines(), page.splitlines(), "current", "rendered",
            lineterm=""))
        sys.stderr.write("\n".join(diff[:60]) + "\n")
        status = 1
    text = read(args.readme)
    new = replace_block(text, block) if text else None
    if new is not None and not readme_block(text).strip():
        log("%s's headline table is empty: `bench/performance.py render` "
            "writes it" % args.readme)
    elif new is not None and new != text:
        log("%s's headline table is not what render writes" % args.readme)
        status = 1
    if status == 0:
        log("%s is up to date" % args.output)
    return status


def cmd_list(args):
    registry = load_registry(args.registry)
    width = max(len(b["name"]) for b in registry["benchmarks"])
    for b in registry["benchmarks"]:
        print("%-*s  %s: %s" % (width, b["name"], b["title"], b["duration"]))
        print("%-*s  %s" % (width, "", b["command"]))
    return 0


def select(registry, names):
    known = [b["name"] for b in registry["benchmarks"]]
    for n in names:
        if n not in known:
            sys.exit("performance.py: no benchmark %s (%s)" % (
                n, ", ".join(known)))
    return [b for b in registry["benchmarks"] if not names or
            b["name"] in names]


def cmd_run(args):
    registry = load_registry(args.registry)
    build = os.path.abspath(args.build)
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        sys.exit("performance.py: %s is not a pcmap build (--build)" %
                 args.build)
    work = os.path.abspath(args.work or os.path.join(build, "bench-work"))
    os.makedirs(work, exist_ok=True)
    given = {}
    for spec in args.input:
        name, _, path = spec.partition("=")
        if not path:
            sys.exit("performance.py: --input NAME=DIR")
        given[name] = path
    failed = []
    for bench in select(registry, args.names):
        if bench["name"] in args.skip:
            continue
        if not run_one(bench, build, work, given, args.results):
            failed.append(bench["name"])
    if failed:
        log("not run: %s (bench/results/*.json say why)" % ", ".join(failed))
    return 1 if failed else 0


def cmd_skip(args):
    registry = load_registry(args.registry)
    for bench in select(registry, [args.name]):
        not_run(bench, os.path.abspath(args.build), args.reason, args.results)
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--registry", default=REGISTRY,
                   help="the registry (default bench/benchmarks.json)")
    p.add_argument("--results", default=RESULTS,
                   help="the results' directory (default bench/results)")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    r = sub.add_parser("run")
    r.add_argument("--build", default=os.path.join(ROOT, "build-19"))
    r.add_argument("--work")
    r.add_argument("--input", action="append", default=[],
                   metavar="NAME=DIR")
    r.add_argument("--skip", action="append", default=[], metavar="NAME")
    r.add_argument("names", nargs="*")
    s = sub.add_parser("skip")
    s.add_argument("--build", default=os.path.join(ROOT, "build-19"))
    s.add_argument("--reason", required=True)
    s.add_argument("name")
    for name in ("render", "check"):
        c = sub.add_parser(name)
        c.add_argument("--output", default=PAGE)
        c.add_argument("--readme", default=README)
    args = p.parse_args(argv)
    return {"list": cmd_list, "run": cmd_run, "skip": cmd_skip,
            "render": cmd_render, "check": cmd_check}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
