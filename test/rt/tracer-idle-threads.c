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
// Not under qemu-user either: the process's CPU time there includes the
// emulator's translation work, which no guest timer samples.
// UNSUPPORTED: sanitize-thread, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O1 -pthread -fsanitize-metadata=all %S/Inputs/idle_threads.c -o %t/prog
// RUN: %python %S/Inputs/check_accuracy.py %t spin_on_atomic 0.9 %run %t/prog | FileCheck %s
// Short-lived threads get their timer when they start, which a sanitizer's
// pthread_create interceptor (it starts them itself) hides: there they are
// found by the next scan (docs/design/Runtime.md, "The atomic tracer").
// RUN: rm -rf %t/trace*
// RUN: %if !sanitizer %{ %python %S/Inputs/check_accuracy.py %t spin_on_atomic 0.5 %run %t/prog short | FileCheck %s --check-prefix=SHORT %}
// CHECK:      interrupted sleeps: 0, spurious wake-ups: 0
// CHECK-NEXT: samples within 10% of CPU time x rate: True
// CHECK-NEXT: at least 90% in spin_on_atomic: True
// A thread that ends before the kernel's tick sampled it (a loaded machine)
// has its CPU time counted elsewhere: the total holds, the share is lower.
// SHORT:      interrupted sleeps: 0, spurious wake-ups: 0
// SHORT-NEXT: samples within 10% of CPU time x rate: True
// SHORT-NEXT: at least 50% in spin_on_atomic: True
