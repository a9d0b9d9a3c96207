// A thread's start and end cost at most two system calls more than in the
// plain build: the fault reporter gives each thread its hidden alternate
// signal stack from a pool (one sigaltstack call to set it, one to remove
// it at the thread's end), and a thread's stack bounds are found by its
// first fault report, not when it starts. bench/thread_start.py measures
// the time (within 10% of plain).
// Regression test: each thread cost 11 more system calls (4 sigaltstack,
// mmap, munmap, 2 getpid, 2 gettid, sched_getaffinity) and 1.13x to 1.27x
// the plain build's time.
// REQUIRES: strace
// UNSUPPORTED: sanitizer, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -pthread %S/Inputs/thread_churn.c -o %t/plain
// RUN: %pcmap-clang -O2 -pthread -fsanitize-metadata=all %S/Inputs/thread_churn.c -o %t/pcmap
// RUN: %python %S/Inputs/syscalls_per_thread.py %t/plain %t/pcmap 200 2 | FileCheck %s
// CHECK: system calls a thread: plain {{[0-9.]+}}, pcmap {{[0-9.]+}}: {{[+-][0-9]+}}, within 2
