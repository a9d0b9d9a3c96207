// Where the kernel lets a process open perf task-clock events on its own
// threads (perf_event_paranoid 2 or less, user mode), the tracer samples at
// the rate asked for, not at the kernel's tick: a busy thread at 1000 Hz gets
// about 1000 sampling signals per second of its CPU time, the samples still
// match the CPU time, no sleeper is interrupted, and the report says which
// clock sampled. Regression test: CPU-time timers alone, which the kernel
// checks at its tick, gave 250 signals per second (one per 4 ms) at 1000 Hz.
// The events' descriptors are the tracer's alone (Inputs/clock_event_fds.c).
// REQUIRES: perf-task-clock
// UNSUPPORTED: sanitize-thread, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O1 -pthread -fsanitize-metadata=all %S/Inputs/idle_threads.c -o %t/prog
// RUN: %python %S/Inputs/check_accuracy.py --min-rate=850 %t spin_on_atomic 0.9 %t/prog | FileCheck %s
// CHECK:      interrupted sleeps: 0, spurious wake-ups: 0
// CHECK-NEXT: samples within 10% of CPU time x rate: True
// CHECK-NEXT: at least 90% in spin_on_atomic: True
// CHECK-NEXT: at least 850 signals per CPU second: True

// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_path=stdout %t/prog | FileCheck %s --check-prefix=TEXT
// TEXT: pcmap: resolution: {{[0-9]+}} sampling signals for {{[0-9]+}} samples, one per {{[01]}}.{{[0-9]}} ms of CPU time (task-clock events)
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_high_resolution=0:report_path=stdout %t/prog | FileCheck %s --check-prefix=TIMER
// TIMER: pcmap: resolution: {{[0-9]+}} sampling signals
// TIMER-NOT: task-clock events

// RUN: %pcmap-clang -O1 -pthread -fsanitize-metadata=all %S/Inputs/clock_event_fds.c -o %t/fds
// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_path=%t/fds-report %t/fds | FileCheck %s --check-prefix=FDS
// FDS:      events found: yes
// FDS-NEXT: below 1024: 0
// FDS-NEXT: program's files kept: [[N:[0-9]+]] of [[N]]
// FDS-NEXT: events after exec: 0
