"""Holds the tracer's stacks to perf's on the same process: runs PROGRAM
under `perf record --call-graph dwarf -e cpu-clock` with the tracer on, and
compares each function's cumulative share of the samples (the share of
stacks it is in) and self share (the share of stacks it is the top of).
perf unwinds with the same call frame information, offline, from a copy
of each sample's stack: an independent reference for every caller.

Samples in the tracer's own handler (perf sees them, the tracer does not
sample itself) and perf's samples in the kernel are left out of perf's
side. Inlined frames are left out of both (perf with --no-inline; the
tracer's from the function that holds the PC, as its symbol table says).

Usage: compare_perf.py PROGRAM [ARGS...]  (llvm-symbolizer on the PATH;
COMPARE_OPTIONS: more of the tracer's options, COMPARE_LIMIT: the points
allowed, COMPARE_TOP: the functions compared)
prints, for the TOP functions by perf's cumulative share, both shares, and
the largest difference in points.
"""
import collections
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

TOP = int(os.environ.get("COMPARE_TOP", "10"))
program, args = sys.argv[1], sys.argv[2:]
tmp = tempfile.mkdtemp()
perf_data = os.path.join(tmp, "perf.data")
env = dict(os.environ,
           PCMAP_OPTIONS="trace_atomics=1:report_format=json:report_path=" +
           os.path.join(tmp, "trace") +
           # More of the tracer's options (COMPARE_OPTIONS=a=1:b=2).
           (":" + os.environ["COMPARE_OPTIONS"]
            if os.environ.get("COMPARE_OPTIONS") else ""))
# perf keeps the vDSO's image, which it needs to unwind through it, in its
# build-id cache: one of this run's own (lit gives no HOME).
perf = ["perf", "--buildid-dir", os.path.join(tmp, "buildid")]
# Each sample copies 16 KiB of stack: with perf's default ring buffer
# perf record drops samples in bursts when it falls behind (LevelDB's
# db_bench lost about 2% of its samples). As root the buffer is made large
# enough to lose none; perf_event_mlock_kb caps it for other users.
mmap = ["-m", "64M"] if os.geteuid() == 0 else []
subprocess.run(perf + ["record", "-q", "-e", "cpu-clock", "-F", "997"] + mmap
               + ["--call-graph", "dwarf,16384", "-o", perf_data, "--",
                  program] + args, env=env, check=True,
               stdout=subprocess.DEVNULL)
# What perf lost: records dropped when its buffer was full, and samples the
# kernel could not write (LOST and LOST_SAMPLES records' counts).
dump = subprocess.Popen(perf + ["report", "-D", "-i", perf_data],
                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                        text=True, errors="replace")
lost = 0
for line in dump.stdout:
    m = re.search(r"PERF_RECORD_LOST(?:_SAMPLES)?: .*lost(?: samples)? ?:(\d+)",
                  line)
    if m:
        lost += int(m.group(1))
dump.wait()


def unnamed(path, address):
    """An address no symbol names, by its object's file (perf names objects
    by their real path, the loader by the name it was asked for)."""
    return "%s+0x%x" % (os.path.basename(os.path.realpath(path)), address)


def symbolize(queries):
    """{(path, address): function name} for every (path, address) asked,
    named by llvm-symbolizer from the file's symbols (no inlined frames)."""
    names = {}
    by_path = collections.defaultdict(list)
    for path, address in queries:
        by_path[path].append(address)
    for path, addresses in by_path.items():
        if not os.path.exists(path):
            for a in addresses:
                names[(path, a)] = unnamed(path, a)
            continue
        out = subprocess.run(
            ["llvm-symbolizer", "--obj=" + path, "--no-inlines",
             "--functions=short", "--no-untag-addresses"],
            input="".join("0x%x\n" % a for a in addresses),
            capture_output=True, text=True).stdout.split("\n\n")
        for a, block in zip(addresses, out):
            name = block.strip().split("\n")[0] if block.strip() else "??"
            names[(path, a)] = name if name != "??" else unnamed(path, a)
    return names


def shares(stacks):
    """(cumulative, self) share of each function, from (frames, count)
    pairs with frames innermost first."""
    total = sum(n for _, n in stacks)
    cum, own = collections.Counter(), collections.Counter()
    for frames, n in stacks:
        for f in set(frames):
            cum[f] += n
        if frames:
            own[frames[0]] += n
    return ({f: 100.0 * c / total for f, c in cum.items()},
            {f: 100.0 * c / total for f, c in own.items()}, total)


# perf's stacks: each sample a blank-line-separated block, one frame per
# line, its address relative to its object ("ip"), innermost first; above
# the first, return addresses less one (inside the call), as the tracer
# keeps them.
script = subprocess.run(perf + ["script", "-i", perf_data, "--no-inline",
                         "-F", "ip,sym,dso"], capture_output=True, text=True,
                        check=True).stdout
raw_perf = []
frames = []
in_tracer = 0
for line in script.splitlines() + [""]:
    m = re.match(r"\s*([0-9a-f]+) (.*) \((.*)\)$", line)
    if m:
        frames.append((m.group(3), int(m.group(1), 16), m.group(2)))
        continue
    if frames:
        # Not the tracer's own handler (the tracer does not sample
        # itself), nor the kernel.
        if any(sym.startswith("pcmap::rt") or sym == "__restore_rt"
               for _, _, sym in frames):
            in_tracer += 1
        else:
            user = [(d, a) for d, a, _ in frames if not d.startswith("[")]
            if user:
                raw_perf.append(user)
    frames = []

# The tracer's stacks, from its JSON dumps: (module, offset) frames.
raw_tracer = []
cpu_ns = 0
for dump in glob.glob(os.path.join(tmp, "trace.*")):
    with open(dump) as f:
        d = json.loads(f.read().splitlines()[-1])
    cpu_ns += d["cpu_ns"]
    paths = [m["path"] for m in d["modules"]]
    for s in d["stacks"]:
        # perf leaves the vDSO's frames out of its stacks ("[vdso]").
        raw_tracer.append(([(paths[m] if m >= 0 else "?", int(o, 16))
                            for m, o in s["frames"]
                            if m < 0 or "vdso" not in paths[m]],
                           s["samples"]))

names = symbolize({f for st in raw_perf for f in st} |
                  {f for st, _ in raw_tracer for f in st})
# The same object may be named by a different path (a symbolic link):
# functions are compared by name alone.
perf_stacks = [([names[f] for f in st], 1) for st in raw_perf]
tracer_stacks = [([names[f] for f in st], n) for st, n in raw_tracer]

perf_cum, perf_self, perf_total = shares(perf_stacks)
tracer_cum, tracer_self, tracer_total = shares(tracer_stacks)
print("perf lost %d samples (%.1f%% of its own)" %
      (lost, 100.0 * lost / max(1, lost + in_tracer + len(raw_perf))),
      file=sys.stderr)
print("perf's samples in the tracer's handler: %.1f%%" %
      (100.0 * in_tracer / (in_tracer + len(raw_perf))), file=sys.stderr)
# The CPU time perf's samples stand for, against the kernel's count (the
# tracer's dumps'): perf's clock stops while its event is switched out, so
# that the time of the process's context switches is not in its profile.
if cpu_ns:
    print("perf's samples stand for %.1f%% of the process's CPU time" %
          (100.0 * (in_tracer + len(raw_perf)) / 997 / (cpu_ns / 1e9)),
          file=sys.stderr)
print("samples: perf %s, tracer %s" % (
    "many" if perf_total >= 300 else perf_total,
    "many" if tracer_total >= 300 else tracer_total))
worst = 0.0
top = sorted(perf_cum, key=lambda f: -perf_cum[f])[:TOP]
for f in top:
    d = abs(perf_cum[f] - tracer_cum.get(f, 0.0))
    worst = max(worst, d)
    print("%-40s cumulative perf %5.1f%% tracer %5.1f%%  self perf %5.1f%% "
          "tracer %5.1f%%" % (f[:40], perf_cum[f], tracer_cum.get(f, 0.0),
                              perf_self.get(f, 0.0), tracer_self.get(f, 0.0)),
          file=sys.stderr)
print("largest difference in the top %d cumulative shares: %.1f points" %
      (TOP, worst))


def edges(stacks, total):
    """The calls (caller -> callee) in at least 2% of the samples."""
    count = collections.Counter()
    for frames, n in stacks:
        for e in set(zip(frames[1:], frames[:-1])):
            count[e] += n
    return {e for e, n in count.items() if 100.0 * n / total >= 2}


perf_edges = edges(perf_stacks, perf_total)
tracer_edges = edges(tracer_stacks, tracer_total)
# A call in one profile and not even at 0.5% in the other: a caller one of
# them invents or misses.
def rare(stacks, total, e):
    n = sum(c for frames, c in stacks if e in zip(frames[1:], frames[:-1]))
    return 100.0 * n / total < 0.5


only_perf = sorted(e for e in perf_edges - tracer_edges
                   if rare(tracer_stacks, tracer_total, e))
only_tracer = sorted(e for e in tracer_edges - perf_edges
                     if rare(perf_stacks, perf_total, e))
print("calls perf has and the tracer not: %s" %
      (", ".join("%s -> %s" % e for e in only_perf) or "none"))
print("calls the tracer has and perf not: %s" %
      (", ".join("%s -> %s" % e for e in only_tracer) or "none"))
limit = float(os.environ.get("COMPARE_LIMIT", "3"))
print("within %g points: %s" % (limit, worst <= limit))

if os.environ.get("COMPARE_DEBUG"):
    def show(label, stacks):
        c = collections.Counter()
        for frames, n in stacks:
            if os.environ["COMPARE_DEBUG"] in frames:
                c[";".join(frames)] += n
        for k, n in c.most_common(8):
            print(label, n, k, file=sys.stderr)
    show("perf", perf_stacks)
    show("tracer", tracer_stacks)
