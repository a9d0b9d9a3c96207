// Boehm GC's fault handler sees the action it replaced as in the plain
// build (the default one, not pcmap's handler): a stray write outside its
// heap gets its own message and abort(), exit status 134 (SIGABRT), as
// plain, with pcmap's report of the fault before the process dies.
// Regression test: Boehm GC chained to pcmap's handler, which it took for
// the program's, and the process died of SIGSEGV without its message.
// REQUIRES: boehm-gc
// UNSUPPORTED: sanitizer

// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 %S/Inputs/gc_stray.c -o %t/plain -lgc
// RUN: %pcmap-clang -O1 -fsanitize-metadata=all %S/Inputs/gc_stray.c -o %t/pcmap -lgc
// RUN: %python %S/Inputs/run.py %run %t/plain | FileCheck %s --check-prefix=PLAIN
// PLAIN:      incremental: 1
// PLAIN-NEXT: Unexpected bus error or segmentation fault at 0x10
// PLAIN-NOT:  pcmap:
// PLAIN:      status: killed by SIGABRT
// RUN: %python %S/Inputs/run.py %run %t/pcmap | FileCheck %s
// CHECK:      incremental: 1
// CHECK-NEXT: Unexpected bus error or segmentation fault at 0x10
// CHECK:      pcmap: =={{[0-9]+}}== SIGSEGV (address not mapped) on address 0x10 at pc
// CHECK:      pcmap:   function: {{.*}} main
// CHECK:      pcmap: =={{[0-9]+}}== the program's handler of SIGSEGV called abort(); the default action of SIGABRT follows
// CHECK-NEXT: status: killed by SIGABRT
