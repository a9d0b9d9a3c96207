#!/usr/bin/env python3
"""stack_dump.py PROG: writes a version 3 trace dump of Inputs/trace/ring.c
built as PROG, as the tracer would for a run of it, with real module
offsets: frame 0 at the atomic in worker (ring_push inlined) or at another
instruction of worker, return addresses less one at the calls in
thread_main and main, and the C library's frames at exported symbols of the
libc.so.6 this Python runs with (its path and build ID, so that
pcmap-report reads it). Uses llvm-nm, llvm-objdump and llvm-readelf from
PATH (x86-64)."""
import json
import re
import subprocess
import sys


def run(*args):
    return subprocess.run(args, check=True, capture_output=True,
                          text=True).stdout


def build_id(path):
    m = re.search(r"Build ID: ([0-9a-f]+)", run("llvm-readelf", "-n", path))
    return m.group(1) if m else ""


def symbols(path, dynamic=False):
    out = {}
    for line in run("llvm-nm", "--defined-only",
                    *(["-D"] if dynamic else []), path).splitlines():
        parts = line.split()
        if len(parts) == 3:
            out.setdefault(parts[2].split("@")[0], int(parts[0], 16))
    return out


def disassembly(path):
    """Function name -> [(address, text)] of its instructions."""
    funcs, current = {}, None
    for line in run("llvm-objdump", "-d", "--no-show-raw-insn",
                    path).splitlines():
        m = re.match(r"^([0-9a-f]+) <(.+)>:$", line)
        if m:
            current = funcs.setdefault(m.group(2), [])
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
        if m and current is not None:
            current.append((int(m.group(1), 16), m.group(2)))
    return funcs


def return_address_less_one(insns, callee):
    """The call of callee in insns: the next instruction's address - 1."""
    for i, (_, text) in enumerate(insns):
        if text.startswith("call") and "<%s" % callee in text:
            return insns[i + 1][0] - 1
    sys.exit("no call of %s" % callee)


def main():
    prog = sys.argv[1]
    libc = [l.split()[-1] for l in open("/proc/self/maps")
            if re.search(r"/libc\.so\.6$", l.strip())][0]
    code = disassembly(prog)
    syms, libc_syms = symbols(prog), symbols(libc, dynamic=True)
    worker = code["worker"]
    atomic = [i for i, (_, t) in enumerate(worker) if t.startswith("lock")][0]
    site, other = worker[atomic][0], worker[atomic + 1][0]
    in_thread = return_address_less_one(code["thread_main"], "worker")
    in_main = return_address_less_one(code["main"], "worker")
    join_call = return_address_less_one(code["main"], "pthread_join")
    clone = libc_syms["clone"] + 4
    start_main = libc_syms["__libc_start_main"] + 4
    join = libc_syms["pthread_join"] + 8
    h = lambda a: "0x%x" % a
    stacks = [
        (600, 600, [[0, h(site)], [0, h(in_thread)], [1, h(clone)]]),
        (200, 200, [[0, h(site)], [0, h(in_main)], [1, h(start_main)]]),
        (150, 0, [[0, h(other)], [0, h(in_thread)], [1, h(clone)]]),
        (50, 0, [[1, h(join)], [0, h(join_call)], [1, h(start_main)]]),
    ]
    pid_base = 0x555555554000
    pid_id = build_id(prog)

    def function(name, samples, atomic, uncovered):
        return {"start": h(pid_base + syms[name]), "module": prog,
                "module_offset": h(syms[name]), "build_id": pid_id,
                "function": name, "samples": samples,
                "atomic_samples": atomic, "atomic_share": 0,
                "uncovered_callee_samples": uncovered}
    dump = {
        "report": "pcmap-trace", "version": 3, "pid": 4242, "ppid": 1,
        "run": "6666666666666666", "parent_run": "", "dump": 1,
        "reason": "exit", "final": True, "hz": 1000, "threads": 2,
        "cpu_ns": 1000000000, "samples": 1000, "atomic_samples": 800,
        "covered_samples": 950, "uncovered_samples": 50,
        "dropped_samples": 0, "distinct_sites": 1, "distinct_functions": 2,
        "stack_depth": 32, "stack_samples_dropped": 0,
        "modules": [{"path": prog, "build_id": pid_id},
                    {"path": libc, "build_id": build_id(libc)}],
        "sites": [{
            "pc": h(pid_base + site), "module": prog,
            "module_offset": h(site), "build_id": pid_id,
            "function": "worker",
            "function_start": h(pid_base + syms["worker"]),
            "function_offset": site - syms["worker"], "location": "",
            "kind": "rmw", "op": "add", "size": 8, "order": "seq_cst",
            "failure_order": "", "samples": 800, "exact_samples": 800,
            "skid_samples": 0, "share": 0.8}],
        "functions": [function("worker", 950, 800, 0),
                      function("main", 0, 0, 50)],
        "stacks": [{"samples": s, "atomic_samples": a, "frames": f}
                   for s, a, f in stacks],
    }
    print(json.dumps(dump))


if __name__ == "__main__":
    main()
