// The tracer's service thread, which a process CPU-time timer wakes to
// scan /proc/self/task for threads that have no timer yet, is in the idle
// scheduling class: its wake-ups never preempt a thread of the program's
// (on a loaded machine, a forking server's worker that held a spinlock).
// Without the tracer, no thread is (a sanitizer may add threads of its own).
// Regression test: the scans, at normal priority, cost the forking test
// server (bench/tracer_fork_server.py) several percent of its throughput.

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O1 -fsanitize-metadata=all %S/Inputs/sched_classes.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:log_path=%t/log %run %t/prog | FileCheck %s --check-prefix=TRACED
// TRACED: threads: {{[2-9]}}, idle class: 1
// RUN: %run %t/prog | FileCheck %s --check-prefix=PLAIN
// PLAIN: threads: {{[1-9]}}, idle class: 0
