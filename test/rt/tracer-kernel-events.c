// trace_kernel_events (the default where the kernel allows it): the
// threads' task-clock events sample kernel mode too, so that a system call
// is charged its own time, a blocking one its context switches, where perf
// charges them. Two threads that hand a turn through a condition variable
// spend most of their time in the kernel; at the tick alone the blocking
// pthread_cond_wait got 30 % of the samples where perf has 52 % (a
// 22-point difference: the tick misses the end of a context switch, when
// interrupts are off). They block some 80 times per millisecond of CPU
// time, so their events run in windows, a random 1 in 64 of their timer's
// intervals, each sample counting 64 times (the events' cost stays about
// that of 1 switch a millisecond), at 4000 Hz for some 400 observations
// (a standard error of about 2.5 points): within 10 points of perf (1.4
// and 4.5 in 2 runs; the tick alone is 22 off). The top 8 by perf's share,
// not 6: the waking side (pass_turn, futex_wake) and the waiting side
// (wait_turn, __pthread_cond_wait_common) have about half each, and an
// LLVM 22 build's run put the condition wait 7th (3.8 points off).
// UNSUPPORTED: sanitizer, emulator
// REQUIRES: perf, kernel-clock-events

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -pthread -fsanitize-metadata=all %S/Inputs/handoff.c -o %t/prog
// RUN: env COMPARE_LIMIT=10 COMPARE_TOP=8 COMPARE_OPTIONS=trace_kernel_events=1:trace_hz=4000 %python %S/Inputs/compare_perf.py %t/prog 150000 2>&1 | FileCheck %s
// CHECK: __pthread_cond_wait_common {{ *}}cumulative perf
// CHECK: samples: perf many, tracer many
// CHECK: within 10 points: True
