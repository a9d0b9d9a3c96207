// With trace_kernel_events, a thread that blocks more often than the
// events' budget allows samples in duty windows (dutyWindow): each window
// keeps its clock event open until the event's first signal, which charges
// the window's weight. Windows that closed at the next timer signal lost
// their sample whenever that signal came first (the timer's periods start
// where its last signal was due, not where it came): the forking test
// server's workers had 0.52 to 1.15 samples per millisecond of CPU time
// (median 0.87) at 1000 Hz. Now every window is sampled (all but those
// open when a thread ends), and two threads that hand a byte to each other
// are charged their CPU time.
// UNSUPPORTED: sanitizer, emulator
// REQUIRES: kernel-clock-events

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O2 -g -pthread -fsanitize-metadata=all %S/Inputs/switching_events.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_kernel_events=1:report_path=%t/r %t/prog 3 > %t/out
// RUN: cat %t/r.* | FileCheck %s
// RUN: %python %S/Inputs/check_duty_windows.py %t/r.*

// CHECK: pcmap: atomic tracer: {{[0-9]+}} samples at 1000 Hz
// CHECK: pcmap: resolution: {{.*}}(task-clock events)
// CHECK: pcmap: threads that block often were sampled in [[N:[0-9]+]] windows of their CPU time, {{[0-9]+}} sampled, each sample weighing {{[0-9.]+}} periods on average
