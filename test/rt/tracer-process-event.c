// With trace_kernel_events, a process of one thread that starts another is
// sampled by one task-clock event from then on, which every thread started
// after holds a copy of (trace_process_event). The kernel switches two
// threads that hold copies of one event without stopping and starting its
// timer; an event of each thread's own has its timer stopped and started at
// each of the thread's context switches, which costs some 9 microseconds a
// switch on a virtual machine whose timer is dear (two threads handing a
// turn to each other on one core: 2.3 us a round untraced, 21 us with an
// event each, 2.8 us with copies of one, as under perf record). Threads
// that switched often were therefore sampled in duty windows, one signal
// per 20 to 60 ms of their CPU time, and the windows' samples came while
// the thread's own event made its switches dearer: LevelDB's db_bench had
// its writers' waits and wake-ups charged 2 to 7 points more than perf
// charges them. Now such threads are sampled at trace_hz, and they hold no
// event of their own.
// UNSUPPORTED: sanitizer, emulator
// REQUIRES: kernel-clock-events

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O2 -g -pthread -fsanitize-metadata=all %S/Inputs/switching_events.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_kernel_events=1:report_path=%t/r %t/prog 2 | FileCheck %s
// RUN: cat %t/r.* | FileCheck --check-prefix=REPORT %s
// RUN: %python %S/Inputs/check_process_event.py %t/r.*
// The same with two threads that take turns on one core through
// sched_yield (preempted at each hand-over).
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_kernel_events=1:report_path=%t/y %t/prog 2 yield | FileCheck %s
// RUN: cat %t/y.* | FileCheck --check-prefix=REPORT %s
// RUN: %python %S/Inputs/check_process_event.py %t/y.*

// Every look sees one event beyond those open before the threads started:
// the process's, never an event for each thread.
// CHECK: looks: 400, none: 0%, both: 0%
// REPORT: pcmap: resolution: {{.*}}(task-clock events)
// REPORT-NOT: duty windows
