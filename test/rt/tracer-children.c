// The symbolizer the tracer starts for its text reports is a child the
// program never sees: no SIGCHLD reaches the program's handler, and the
// program's wait(-1) loop reaps only its own child (then ECHILD), while
// the reports still name their functions.
// Regression test: the program's SIGCHLD handler ran for the symbolizer,
// and its wait() reaped it (pcmap's own wait then got ECHILD).
// Not under the sanitizers, whose own symbolizer (started by their
// runtime, not pcmap's) is a child of the program that never exits, so
// that the program's wait(-1) loop waits for it forever; nor under
// qemu-user, which emulates no exit signal but SIGCHLD (the go-between is
// an ordinary child there).
// UNSUPPORTED: sanitizer, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O1 -fsanitize-metadata=all %S/Inputs/child_waiter.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1 %run %t/prog 2>&1 | FileCheck %s
// CHECK:      pcmap: atomic tracer (dump 1, api):
// CHECK:      work+{{[0-9]+}} {{.*}}child_waiter.c
// CHECK:      own children reaped: 1, others: 0, wait then: ECHILD
// CHECK-NEXT: SIGCHLDs: 1
// CHECK:      pcmap: atomic tracer:
// CHECK:      work+{{[0-9]+}} {{.*}}child_waiter.c
