// A program built with -fsanitize=address or -fsanitize=undefined as well:
// pcmap reports the fault first, symbolized through the sanitizer runtime's
// public symbolizer, then hands the signal to the sanitizer's handler, whose
// report and exit status are what they would be without pcmap.

// Not in sanitizer builds (PCMAP_SANITIZE): -fsanitize=address cannot be
// combined with the thread sanitizer, and in an address,undefined build the
// UBSan program gets ASan too, whose handler then reports instead of UBSan's.
// UNSUPPORTED: sanitize-thread, sanitize-address

// Debian has no compiler-rt sanitizers for cross targets.
// UNSUPPORTED: target-aarch64
// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O1 -fsanitize=address -fsanitize-metadata=all -I%S/Inputs %S/Inputs/fault_main.c %S/Inputs/ops.c -o %t/asan
// RUN: %python %S/Inputs/run.py %run %t/asan fetch_add_seq_cst_4 | FileCheck %s --check-prefixes=CHECK,ASAN
// RUN: %pcmap-clang -g -O1 -fsanitize=undefined -fsanitize-metadata=all -I%S/Inputs %S/Inputs/fault_main.c %S/Inputs/ops.c -o %t/ubsan
// RUN: %python %S/Inputs/run.py %run %t/ubsan fetch_add_seq_cst_4 | FileCheck %s --check-prefixes=CHECK,UBSAN

// CHECK:      page [[PAGE:0x[0-9a-f]+]]
// CHECK-NEXT: pcmap: =={{[0-9]+}}== SIGSEGV (permission denied) on address [[PAGE]] at pc [[PC:0x[0-9a-f]+]]
// CHECK-NEXT: pcmap:   module:   {{.*}}san+0x{{[0-9a-f]+}}
// CHECK-NEXT: pcmap:   function: 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, {{[1-9][0-9]* atomics?}})
// CHECK-NEXT: pcmap:   atomic:   rmw add, 4 bytes, seq_cst
// CHECK-NEXT: pcmap: stack:
// CHECK-NEXT: pcmap:   #0 [[PC]] in op_fetch_add_seq_cst_4 {{.*}}ops.c:[[#LINE:]]:{{[0-9]+}} ({{a|ub}}san+0x{{[0-9a-f]+}})
// CHECK-NEXT: pcmap:   #1 0x{{[0-9a-f]+}} in main {{.*}}fault_main.c:[[#]]:[[#]]
// CHECK:      pcmap: =={{[0-9]+}}== the program's handler of SIGSEGV follows
// ASAN:       ERROR: AddressSanitizer: SEGV on unknown address [[PAGE]]
// UBSAN:      ERROR: UndefinedBehaviorSanitizer: SEGV on unknown address [[PAGE]]
// CHECK:      #0 [[PC]] in op_fetch_add_seq_cst_4 {{.*}}ops.c:[[#LINE]]
// CHECK:      status: exit 1
