// With trace_kernel_events, a thread that blocks more often than the
// events' budget allows samples with its event in a few of its timer's
// intervals (dutyWindow); between them its event is closed, not disabled:
// the kernel switches a disabled event's context at each of the thread's
// context switches too (0.3 microseconds a switch here: a thread that
// blocks every 4 microseconds of CPU time ran 13 % slower traced with its
// event disabled between windows, 5 % with it closed). Two threads that
// hand a byte to each other hold no event most of the time.
// UNSUPPORTED: sanitizer, emulator
// REQUIRES: kernel-clock-events

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O2 -g -pthread -fsanitize-metadata=all %S/Inputs/switching_events.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_kernel_events=1:trace_process_event=0:report_path=%t/r %t/prog 2 | FileCheck %s
// The threads are sampled (in windows, with their events).
// RUN: cat %t/r.* | FileCheck --check-prefix=REPORT %s

// Most looks see neither thread's event; none sees both held all along.
// CHECK: looks: 400, none: {{[6-9][0-9]|100}}%, both: {{[0-9]|[1-2][0-9]}}%
// REPORT: pcmap: resolution: {{.*}}(task-clock events)
