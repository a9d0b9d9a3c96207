// The tracer's service thread, which a process CPU-time timer wakes to
// scan /proc/self/task for threads that have no timer yet (it starts with
// the program's first pthread_create: tracer-single-threaded.c), runs in the
// batch scheduling class: its wake-ups never preempt a thread of the
// program's (on a loaded machine, a forking server's worker that held a
// spinlock), and it still gets a normal share of a loaded CPU.
// Without the tracer, no thread is (a sanitizer may add threads of its own).
// Regression tests: the scans ran at normal priority, and each wake-up could
// preempt a thread of the program's; then they waited in the idle class,
// where on busy cores a wake-up waited for most of a second
// (tracer-sanitizer-threads.c).

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O1 -pthread -fsanitize-metadata=all %S/Inputs/sched_classes.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:log_path=%t/log %run %t/prog | FileCheck %s --check-prefix=TRACED
// TRACED: threads: {{[2-9]}}, batch class: 1, idle class: 0
// RUN: %run %t/prog | FileCheck %s --check-prefix=PLAIN
// PLAIN: threads: {{[1-9]}}, batch class: 0, idle class: 0
