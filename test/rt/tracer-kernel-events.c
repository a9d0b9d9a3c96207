// trace_kernel_events: each thread's task-clock event samples kernel mode
// too, so that a system call is charged its own time, a blocking one its
// context switches, where perf charges them. Two threads that hand a turn
// through a condition variable spend most of their time in the kernel;
// at the tick alone the blocking pthread_cond_wait got 30 % of the
// samples where perf has 52 % (a 22-point difference: the tick misses the
// end of a context switch, when interrupts are off), with the events
// within 2 points.
// UNSUPPORTED: sanitizer, emulator
// REQUIRES: perf, kernel-clock-events

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -pthread -fsanitize-metadata=all %S/Inputs/handoff.c -o %t/prog
// RUN: env COMPARE_LIMIT=5 COMPARE_TOP=6 COMPARE_OPTIONS=trace_kernel_events=1 %python %S/Inputs/compare_perf.py %t/prog 2>&1 | FileCheck %s
// CHECK: __pthread_cond_wait_common {{ *}}cumulative perf
// CHECK: samples: perf many, tracer many
// CHECK: within 5 points: True

// The report says so.
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_kernel_events=1:report_path=%t/report %t/prog 20000
// RUN: cat %t/report.* | FileCheck --check-prefix=REPORT %s
// REPORT: pcmap: resolution: {{.*}}(task-clock events)
// REPORT-NEXT: pcmap: the task-clock events sampled kernel mode too; {{[0-9.]+}}% of the CPU time (ends of context switches, outside their clock) is in no sample, as with perf
