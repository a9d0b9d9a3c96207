// Stacks of code without frame pointers, unwound with the call frame
// information: every sample's stack starts at its thread's start (_start,
// clone3), no frame lies outside a module, and the callers are those the
// program has, the same as with frame pointers. tracer-unwind-static.c:
// the same in a static executable.
// Not under TSan (it delivers signals only when a thread enters its
// runtime) or qemu-user (whose CPU clocks include the emulator's work).
// UNSUPPORTED: sanitize-thread, emulator
// REQUIRES: pcmap-report

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -fomit-frame-pointer -pthread -fsanitize-metadata=all %S/Inputs/unwind_prog.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_format=json:report_path=%t/dyn %run %t/prog
// RUN: %pcmap-report trace --format=folded %t/dyn.* -o %t/dyn.folded
// RUN: %python %S/Inputs/check_unwind.py %t/dyn.folded | FileCheck %s

// CHECK:      samples: many
// CHECK-NEXT: stacks from the thread's start: True
// CHECK-NEXT: frames outside a module: 0
// CHECK-NEXT: take's callers: ['reader_loop', 'writer_loop']
// CHECK-NEXT: take's callers share it: True
// CHECK-NEXT: by_value called from the C library: True
// CHECK-NEXT: by_value's stacks through sorter and main: True

// With frame pointers, the same callers.
// RUN: %pcmap-clang -g -O2 -fno-omit-frame-pointer -pthread -fsanitize-metadata=all %S/Inputs/unwind_prog.c -o %t/fp
// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_format=json:report_path=%t/fp %run %t/fp
// RUN: %pcmap-report trace --format=folded %t/fp.* -o %t/fp.folded
// RUN: %python %S/Inputs/check_unwind.py %t/fp.folded | FileCheck %s
