// With trace_kernel_events, a thread that blocks more often than the
// events' budget allows samples in duty windows (dutyWindow): each window
// keeps its clock event open until the event's first signal, which charges
// the window's weight. Windows that closed at the next timer signal lost
// their sample whenever that signal came first (the timer's periods start
// where its last signal was due, not where it came): the forking test
// server's workers had 0.52 to 1.15 samples per millisecond of CPU time
// (median 0.87) at 1000 Hz. Now every window is sampled (all but those
// open when a thread ends), and two threads that hand a byte to each other
// are charged their CPU time. Between windows, the timer is armed to the
// next window's interval, drawn ahead: a few timer signals a window, where
// one at every interval took 26 a window (and, at the forking test server,
// 2,176 signals in a run, now 1,065).
// UNSUPPORTED: sanitizer, emulator
// REQUIRES: kernel-clock-events

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O2 -g -pthread -fsanitize-metadata=all %S/Inputs/switching_events.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_kernel_events=1:trace_process_event=0:report_path=%t/r %t/prog 3 > %t/out
// RUN: cat %t/r.* | FileCheck %s
// RUN: %python %S/Inputs/check_duty_windows.py %t/r.*

// CHECK: pcmap: atomic tracer: {{[0-9]+}} samples at 1000 Hz
// CHECK: pcmap: resolution: {{.*}}(task-clock events)
// CHECK: pcmap: duty windows (threads that switch often): {{[0-9]+}} opened at {{[0-9]+}} timer signals, {{[0-9]+}} sampled, {{[0-9.]+}} periods a sample on average
