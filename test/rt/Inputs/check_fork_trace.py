"""Checks the tracer's JSON reports of the forking test server
(Inputs/fork_server.c): one file per process, the workers' reports name
the server as their parent, the contended atomics rank first once the
workers' reports are merged, and the samples match the workers' CPU time
(as the kernel counted it) at the sampling rate, within TOLERANCE.

The kernel's count (wait4) is of a worker's whole life, its exit's work
included: where the runtime names the functions of its JSON dump itself
(trace_symbolize_json=1), the naming, after the dump's CPU time was read,
cost each worker of the test server 100-150 ms, a fifth of its CPU time.
The samples are then checked on a second run of the server, without it
(SAMPLES_TRACE_PREFIX, SAMPLES_OUTPUT).

Usage: check_fork_trace.py TRACE_PREFIX SERVER_OUTPUT CONNECTIONS
       [SAMPLES_TRACE_PREFIX SAMPLES_OUTPUT]
Prints what it checked, for FileCheck; the measured figures go to stderr.
"""

import collections
import glob
import json
import re
import sys

TOLERANCE = 0.15

prefix, server_output, connections = sys.argv[1], sys.argv[2], int(sys.argv[3])
samples_prefix, samples_output = (sys.argv[4], sys.argv[5]) \
    if len(sys.argv) > 5 else (prefix, server_output)


def worker_cpu_ms(output):
    """The workers' CPU time, which the server printed (wait4)."""
    with open(output) as f:
        m = re.search(r"workers: (\d+), requests: (\d+), requests/s: "
                      r"([\d.]+), worker cpu ms: ([\d.]+)", f.read())
    assert m, "no summary line from the server"
    assert int(m.group(1)) == connections, (m.group(1), connections)
    return float(m.group(4))


def read_reports(prefix):
    """{pid: report} of one run's dumps, and its server's and workers'."""
    reports = {}
    for path in glob.glob(prefix + ".*"):
        with open(path) as f:
            lines = f.read().splitlines()
        assert len(lines) == 1, (path, len(lines))
        r = json.loads(lines[0])
        assert path.endswith(".%d" % r["pid"]), (path, r["pid"])
        assert r["version"] == 6 and r["reason"] == "exit" and r["final"], path
        reports[r["pid"]] = r
    servers = [r for r in reports.values() if r["parent_run"] == ""]
    assert len(servers) == 1, [r["pid"] for r in servers]
    return reports, servers[0], [r for r in reports.values()
                                 if r is not servers[0]]


reports, server, children = read_reports(prefix)
print("processes: %d" % len(reports))
assert all(r["ppid"] == server["pid"] and r["parent_run"] == server["run"]
           for r in children), "a worker does not name the server"
assert len({r["run"] for r in reports.values()}) == len(reports)
print("workers name the server: %d" % len(children))

sites = collections.Counter()
names = {}
for r in children:
    for s in r["sites"]:
        key = (s["build_id"], s["module_offset"])
        sites[key] += s["samples"]
        names[key] = s["function"]
ranked = [names[k] for k, _ in sites.most_common(2)]
print("top sites: %s" % " ".join(sorted(ranked)))

cpu_ms = worker_cpu_ms(samples_output)
_, server, children = read_reports(samples_prefix)
samples = sum(r["samples"] for r in children)
hz = server["hz"]
expected = cpu_ms * hz / 1000.0
ratio = samples / expected if expected else 0.0
sys.stderr.write("worker samples %d, worker CPU %.1f ms at %d Hz: %.1f "
                 "expected, ratio %.3f\n" % (samples, cpu_ms, hz, expected,
                                             ratio))
print("samples within %d%% of the workers' CPU time: %s" %
      (TOLERANCE * 100, abs(ratio - 1) <= TOLERANCE))
