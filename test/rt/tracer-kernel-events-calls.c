// With trace_kernel_events, a clock event's signal for a period that ends
// in the kernel comes on the return to user mode (a SIGTRAP that the
// kernel queues as task work), never while a system call runs: a call the
// kernel never restarts after a handler (nanosleep, epoll_wait) does not
// fail with EINTR. A signal sent as the user-mode events' are (fasync)
// made 771 of 40,000 such calls fail. The program's own SIGTRAPs still
// reach its handler, which never sees the tracer's, and sigaction reports
// that handler; without one, SIGTRAP's default action ends the program. A
// program that blocks SIGTRAP on its own (another process sends it) is
// given it: the events sample user mode from then on, so that none of
// their SIGTRAPs waits in its mask, and the tracer says so.
// UNSUPPORTED: sanitizer, emulator
// REQUIRES: kernel-clock-events

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O2 -g -fsanitize-metadata=all %S/Inputs/kernel_events.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_kernel_events=1:trace_hz=10000:report_path=%t/calls %t/prog calls 20000 | FileCheck %s
// RUN: cat %t/calls.* | FileCheck --check-prefix=REPORT %s
// CHECK: EINTR: 0
// REPORT: pcmap: resolution: {{.*}}(task-clock events)
// REPORT-NEXT: pcmap: the task-clock events sampled kernel mode too; {{[0-9.]+}}% of the CPU time (ends of context switches, outside their clock) is in no sample, as with perf

// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_kernel_events=1:trace_hz=10000:report_path=%t/trap %t/prog trap | FileCheck --check-prefix=TRAP %s
// TRAP: traps: 3, perf traps seen: 0, EINTR: 0, handler kept: yes

// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_kernel_events=1:report_path=%t/default not --crash %t/prog default > %t/default.out
// RUN: not grep reached %t/default.out

// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_kernel_events=1:trace_hz=10000:report_path=%t/blocked %t/prog blocked 2> %t/blocked.err | FileCheck --check-prefix=BLOCKED %s
// RUN: FileCheck --check-prefix=BLOCKED-SAID %s < %t/blocked.err
// BLOCKED: EINTR: 0, SIGTRAP waiting: no
// BLOCKED-SAID: pcmap: tracer: the program blocks or waits for SIGTRAP on its own; the task-clock events sample user mode from now on (trace_kernel_events)
