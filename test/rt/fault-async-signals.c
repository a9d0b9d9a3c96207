// A signal of the program's that comes while pcmap's fault handler runs
// runs where the kernel would have run it, never on pcmap's hidden
// alternate stack: pcmap's handler blocks every asynchronous signal until
// it runs the program's handler of the fault, on the interrupted stack,
// with the program's mask.
// Regression test: Boehm GC's gctest failed in incremental mode in 25 of 37
// runs. Its stop-the-world signal (SIGPWR) came while pcmap's handler of a
// write fault ran on the hidden stack, ran there, and took that stack for
// the thread's: the collector scanned unmapped memory, or missed the
// thread's stack and freed live objects. Here, 3,513 of 20,722 stops ran
// off the thread's stack.
// UNSUPPORTED: sanitizer

// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -pthread %S/Inputs/fault_async_signals.c -o %t/plain
// RUN: %pcmap-clang -O1 -pthread -fsanitize-metadata=all %S/Inputs/fault_async_signals.c -o %t/pcmap
// RUN: %run %t/plain | FileCheck %s
// RUN: %run %t/pcmap | FileCheck %s
// CHECK: 50000 faults repaired; {{[1-9][0-9]*}} stops, 0 of them off the thread's stack
