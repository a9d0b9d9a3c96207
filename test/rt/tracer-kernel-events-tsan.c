// In a program built with ThreadSanitizer the task-clock events sample user
// mode only: TSan takes their SIGTRAP for a synchronous signal and calls the
// handler at once, even inside its own runtime, where the handler's first
// atomic waited for a lock the interrupted code held (a deadlock at exit of
// rt/tracer-service-thread.c in the TSan build, intermittent). The user-mode
// events' signal TSan holds back to a safe point.
// REQUIRES: sanitize-thread, kernel-clock-events

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O1 -pthread -fsanitize-metadata=all %S/Inputs/sched_classes.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:log_path=%t/log %run %t/prog > /dev/null 2> %t/err
// RUN: cat %t/err %t/log* 2>/dev/null | FileCheck %s

// CHECK: pcmap: resolution: {{.*}}(task-clock events)
// CHECK-NOT: sampled kernel mode too
