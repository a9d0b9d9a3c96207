// The tracer's service thread, which a process CPU-time timer wakes to
// scan /proc/self/task for threads that have no timer yet, waits in the
// idle scheduling class: its wake-ups never preempt a thread of the
// program's (on a loaded machine, a forking server's worker that held a
// spinlock). It scans in the normal class: the scan holds the thread table
// that starting and ending threads wait for.
// Without the tracer, no thread is (a sanitizer may add threads of its own).
// Regression test: the scans ran at normal priority, and each wake-up could
// preempt a thread of the program's.

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O1 -fsanitize-metadata=all %S/Inputs/sched_classes.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:log_path=%t/log %run %t/prog | FileCheck %s --check-prefix=TRACED
// TRACED: threads: {{[2-9]}}, idle class: 1
// RUN: %run %t/prog | FileCheck %s --check-prefix=PLAIN
// PLAIN: threads: {{[1-9]}}, idle class: 0
