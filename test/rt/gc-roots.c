// A conservative garbage collector collects as often, with as small a heap,
// in a program built by the drivers as in the plain build: Boehm GC scans
// the program's .data and .bss as roots, and the runtime keeps its tables
// out of them (test/rt/static-footprint.c).
// Regression test: with the runtime's 2.1 MB of .bss, Boehm GC allocating
// 200 MB of small objects collected 307 times with an 840 KiB heap, against
// 2,022 times and 128 KiB plain.
// REQUIRES: boehm-gc
// UNSUPPORTED: sanitizer

// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 %S/Inputs/gc_alloc.c -o %t/plain -lgc
// RUN: %pcmap-clang -O2 -fsanitize-metadata=all %S/Inputs/gc_alloc.c -o %t/pcmap -lgc
// RUN: %run %t/plain > %t/plain.out
// RUN: %run %t/pcmap > %t/pcmap.out
// RUN: %python %S/Inputs/within.py 5 %t/plain.out %t/pcmap.out | FileCheck %s
// CHECK: within 5%
