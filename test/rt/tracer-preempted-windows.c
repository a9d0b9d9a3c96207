// A thread's clock event costs it some microseconds at each of its context
// switches, preemptions too: a thread preempted at every hand-over to a
// partner on its own core (a worker whose client runs beside it) samples in
// duty windows, as one that blocks as often does. Preemptions were left out
// of the count (time slices come to any busy thread of a loaded machine):
// two threads on one CPU that hand a turn over through sched_yield held
// their events all along, and handed over 7 times less often traced (the
// forking test server with 2 connections ran 40 % slower). Preemptions
// beyond four a millisecond of CPU time now count.
// UNSUPPORTED: sanitizer, emulator
// REQUIRES: kernel-clock-events

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O2 -g -pthread -fsanitize-metadata=all %S/Inputs/switching_events.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_kernel_events=1:trace_process_event=0:report_path=%t/r %t/prog 2 yield | FileCheck %s
// RUN: cat %t/r.* | FileCheck --check-prefix=REPORT %s
// RUN: %python %S/Inputs/check_duty_windows.py %t/r.*

// Most looks see neither thread's event; none sees both held all along.
// CHECK: looks: 400, none: {{[6-9][0-9]|100}}%, both: {{[0-9]|[1-2][0-9]}}%
// The switches were preemptions.
// CHECK: switches: {{[0-9]+}} voluntary, {{[0-9]+}} involuntary
// REPORT: pcmap: resolution: {{.*}}(task-clock events)
// REPORT: pcmap: duty windows (threads that switch often): {{[0-9]+}} opened
