// The kernel's CPU time outside system calls (page faults, interrupts) is
// charged where the thread was, as perf charges it, not to its next system
// call. A thread that spins, faults its pages in and gives them back with
// madvise (Inputs/kernel_time.c, which measures each part with its own CPU
// clock): each function's share of the samples within 8 points of its
// share of the CPU time. Regression test: with the clock events on, every
// period no event signalled (the faults' time too) went to the next tick
// after a system call; drop_pages had 21-29% of the samples for 6% of the
// time, touch_pages 31-35% for 56-58%.
// REQUIRES: pcmap-report
// UNSUPPORTED: sanitizer, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O2 -g -fsanitize-metadata=all %S/Inputs/kernel_time.c -o %t/prog
// RUN: %python %S/Inputs/check_kernel_time.py 8 %t %pcmap-report %t/prog 3 | FileCheck %s
// CHECK: within 8 points: True
