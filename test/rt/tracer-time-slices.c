// The tracer must not change how the scheduler shares a CPU among the
// program's threads. Its handler read the thread's CPU clock at every
// clock event's signal, which brings the scheduler's account of the thread
// up to date between ticks: a thread whose time slice had run out was
// preempted there, not at the next tick. Four busy threads on one CPU
// switched twice as often traced (and the demo on one core cost 4 %, perf
// record's events 2 %). Event signals now read the event's own count.
// UNSUPPORTED: sanitizer, emulator
// REQUIRES: kernel-clock-events

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O2 -g -pthread -fsanitize-metadata=all %S/Inputs/sliced_threads.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=0 %t/prog 200 > %t/off
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_kernel_events=1:report_path=%t/r %t/prog 200 > %t/on
// RUN: cat %t/r.* | FileCheck %s
// RUN: %python %S/Inputs/check_preemptions.py %t/off %t/on
// The same with an event for each thread (trace_process_event=0),
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_kernel_events=1:trace_process_event=0:report_path=%t/t %t/prog 200 > %t/thread
// RUN: cat %t/t.* | FileCheck %s
// RUN: %python %S/Inputs/check_preemptions.py %t/off %t/thread
// The same with events that sample user mode alone (signalled by fasync),
// whose handler timed itself by the thread's CPU clock.
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_kernel_events=0:report_path=%t/u %t/prog 200 > %t/user
// RUN: cat %t/u.* | FileCheck %s
// RUN: %python %S/Inputs/check_preemptions.py %t/off %t/user

// CHECK: pcmap: resolution: {{.*}}(task-clock events)
