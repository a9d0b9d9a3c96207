#!/usr/bin/env python3
"""waits_dump.py PROG PLACES [--cxx]: writes a version 5 trace dump of
Inputs/trace/waits.c (with --cxx, waits.cpp) built as PROG, whose threads
wait on the futex words at the places PROG printed when run (PLACES: "NAME
module 0xOFFSET", "LIB path PATH"), as the tracer would write it: each
waiting stack in the C library's function that waits (pthread_mutex_lock,
pthread_cond_wait; std::condition_variable::wait in the C++ library), then
at the program's call (the call instruction, whose inline frames the debug
information gives), then main. The modules are the program and the
libraries, with their build IDs. Uses llvm-nm, llvm-objdump and
llvm-readelf from PATH."""
import json
import re
import subprocess
import sys


def run(*args):
    return subprocess.run(args, check=True, capture_output=True,
                          text=True).stdout


def build_id(path):
    return re.search(r"Build ID: ([0-9a-f]+)",
                     run("llvm-readelf", "-n", path)).group(1)


def symbols(path, dynamic=False):
    """Name (without its version) -> value of the defined symbols."""
    out = {}
    args = ["llvm-nm", "--defined-only"] + (["-D"] if dynamic else []) + [path]
    for line in run(*args).splitlines():
        p = line.split()
        if len(p) == 3:
            out.setdefault(p[2].split("@")[0], int(p[0], 16))
    return out


def call_in(prog, function, callee):
    """A byte inside the call of callee (through the PLT) in function: the
    return address less one, as the tracer writes a caller's frame."""
    text = run("llvm-objdump", "-d", "--no-show-raw-insn",
               "--disassemble-symbols=" + function, prog)
    for line in text.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(call|bl)\S*\s.*<%s@plt>"
                     % re.escape(callee), line)
        if m:
            return int(m.group(1), 16) + 1
    sys.exit("no call of %s in %s" % (callee, function))


def main():
    prog, places_file = sys.argv[1], sys.argv[2]
    cxx = "--cxx" in sys.argv
    places, paths = {}, {}
    for line in open(places_file):
        name, kind, value = line.split()
        if kind == "path":
            paths[name] = value
        else:
            places[name] = int(value, 0)
    libs = ["libc"] + (["libstdcxx"] if cxx else [])
    modules = [{"path": p, "build_id": build_id(p)}
               for p in [prog] + [paths[l] for l in libs]]
    prog_syms, libc = symbols(prog), symbols(paths["libc"], True)
    main_at = [0, "0x%x" % (prog_syms["main"] + 8)]

    def libc_frame(name):
        return [1, "0x%x" % (libc[name] + 4)]

    stacks, waits = [], []

    def wait(obj, frames, samples, ms, thread, holder=None):
        stacks.append({"frames": frames + [main_at]})
        row = {"thread": thread, "syscall": "futex", "syscall_nr": 202,
               "samples": samples, "wait_ns": ms * 1000000,
               "stack": len(stacks) - 1,
               "address": "0x%x" % (0x555555554000 + places[obj]),
               "region": "module", "module": 0,
               "offset": "0x%x" % places[obj], "holder": 0,
               "holder_stack": -1}
        if holder:
            stacks.append({"frames": holder + [main_at]})
            row.update(holder=thread + 1, holder_stack=len(stacks) - 1)
        waits.append(row)

    def call(function, callee):
        return [0, "0x%x" % call_in(prog, function, callee)]

    if cxx:
        libstdcxx = symbols(paths["libstdcxx"], True)
        cv_wait = "_ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE"
        wait("registry.mu", [libc_frame("pthread_mutex_lock"),
                             call("lock_registry", "pthread_mutex_lock")],
             40, 400, 201)
        wait("changed", [libc_frame("pthread_cond_wait"),
                         [2, "0x%x" % (libstdcxx[cv_wait] + 8)],
                         call("wait_changed", cv_wait)], 30, 300, 202)
    else:
        lock_big = [libc_frame("pthread_mutex_lock"),
                    call("lock_big", "pthread_mutex_lock")]
        holder = [[0, "0x%x" % (prog_syms["lock_cache"] + 1)]]
        wait("big_lock", lock_big, 120, 1200, 101, holder)
        wait("big_lock", lock_big, 30, 300, 103, holder)
        wait("cache.mu", [libc_frame("pthread_mutex_lock"),
                          call("lock_cache", "pthread_mutex_lock")],
             50, 500, 102)
        wait("ready", [libc_frame("pthread_cond_wait"),
                       call("wait_ready", "pthread_cond_wait")], 20, 200, 104)
        stacks.append({"frames": [libc_frame("clock_nanosleep"), main_at]})
        waits.append({"thread": 105, "syscall": "nanosleep",
                      "syscall_nr": 35, "samples": 10,
                      "wait_ns": 100000000, "stack": len(stacks) - 1})
    samples = sum(w["samples"] for w in waits)
    dump = {
        "report": "pcmap-trace", "version": 5, "pid": 100, "ppid": 1,
        "run": "a5a5a5a5a5a5a5a5", "parent_run": "", "dump": 1,
        "reason": "exit", "final": True, "hz": 1000, "threads": 5,
        "cpu_ns": 10000000, "samples": 10, "observations": 10,
        "atomic_samples": 0, "covered_samples": 0, "uncovered_samples": 10,
        "dropped_samples": 0, "distinct_sites": 0, "distinct_functions": 0,
        "stack_depth": 32, "stack_samples_dropped": 0,
        "line_size": 64, "data_samples": 0, "data_samples_dropped": 0,
        "modules": modules, "sites": [], "functions": [],
        "stacks": [{"samples": 10, "atomic_samples": 0, "frames": [main_at]}],
        "accesses": [],
        "wait_hz": 100, "wait_observations": samples * 2,
        "wait_samples": samples, "wait_samples_dropped": 0,
        "wait_stacks": stacks, "waits": waits,
    }
    print(json.dumps(dump))


if __name__ == "__main__":
    main()
