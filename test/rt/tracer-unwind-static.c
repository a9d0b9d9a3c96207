// tracer-unwind.c in a static executable, whose PLT (.iplt, through which
// it calls the C library's string functions) has no call frame
// information: every stack still starts at its thread's start.
// Not under TSan or qemu-user (tracer-unwind.c); the sanitizers do not
// link statically.
// UNSUPPORTED: sanitizer, emulator
// REQUIRES: pcmap-report

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -fomit-frame-pointer -pthread -static -fsanitize-metadata=all %S/Inputs/unwind_prog.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_format=json:report_path=%t/trace %run %t/prog
// RUN: %pcmap-report trace --format=folded %t/trace.* -o %t/folded
// RUN: %python %S/Inputs/check_unwind.py %t/folded | FileCheck %s

// CHECK:      samples: many
// CHECK-NEXT: stacks from the thread's start: True
// CHECK-NEXT: frames outside a module: 0
// CHECK-NEXT: take's callers: ['reader_loop', 'writer_loop']
// CHECK-NEXT: take's callers share it: True
// CHECK-NEXT: by_value called from the C library: True
// CHECK-NEXT: by_value's stacks through sorter and main: True
