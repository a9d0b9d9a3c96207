// The tracer samples each thread on its own CPU clock: a program with one
// busy thread and sleeping or waiting ones gets about its CPU time times the
// rate in samples, nearly all of them in the busy loop, and no sleeper is
// ever interrupted (no EINTR, no spurious wake-up). Short-lived threads are
// sampled from their first instruction (their timer starts with them).
// Regression test: every thread's timer once ran on the CPU clock of the
// thread that created it, and a process-wide timer found new threads; idle
// threads were signalled, got EINTR, and the samples were 2.9x the CPU time.
// Not under TSan: it delivers asynchronous signals only when the thread next
// enters its runtime, never in the middle of the uninstrumented loop.
// UNSUPPORTED: sanitize-thread

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O1 -pthread -fsanitize-metadata=all %S/Inputs/idle_threads.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_top=1000:report_format=json:report_path=%t/idle %run %t/prog | FileCheck %s --check-prefix=PROG
// RUN: %python %S/Inputs/check_accuracy.py %t/idle spin_on_atomic 0.9 | FileCheck %s --check-prefix=ACCURATE
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_top=1000:report_format=json:report_path=%t/short %run %t/prog short | FileCheck %s --check-prefix=PROG
// RUN: %python %S/Inputs/check_accuracy.py %t/short spin_on_atomic 0.9 | FileCheck %s --check-prefix=ACCURATE
// PROG: interrupted sleeps: 0, spurious wake-ups: 0
// ACCURATE: samples within 10% of CPU time x rate: True
// ACCURATE-NEXT: at least 90% in spin_on_atomic: True
