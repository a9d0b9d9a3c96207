// A contended global pthread_mutex_t: one of the two hottest lines of the
// tracer's data table (the other is the counter's) is the mutex's, named
// by its symbol, though the code that touches it (the C library's) has no
// tables. On x86-64 a sample that comes as a futex wait returns is charged
// to the futex word (the lock's first member), which makes the lock's line
// the hottest when the threads contend (bench/data_accuracy.py); on a
// machine whose cores are busy with other work they seldom do, and the
// counter's line may come first (Unit/FutexWaitTest.cpp checks the word).
// Not under qemu-user: its signals come only between blocks of translated
// code, which the C library's short lock paths rarely start (the line of
// the counter the lock protects comes first there).
// UNSUPPORTED: sanitizer, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -pthread -fsanitize-metadata=all %S/Inputs/data_mutex.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_top=2 %run %t/prog 2>&1 | FileCheck %s
// CHECK:      pcmap: data: [[#]] samples ({{[0-9.]+}}%) at memory accesses, in [[#]] cache lines of 64 bytes; the top 2 by samples:
// CHECK-NEXT: 0x{{[0-9a-f]+}}  {{.*}}sharing: [[#]] samples ({{[0-9.]+}}%), {{[23]}} threads
// CHECK:      {{\+ *[0-9]+ +[0-9]+ bytes  big_lock(\+[0-9]+)?: }}
// CHECK:      pcmap: resolution:
