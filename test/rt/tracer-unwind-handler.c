// Samples in a signal handler of the program's own unwind through the
// handler and the signal trampoline (the C library's __restore_rt, whose
// call frame information is a signal frame's) into the code the signal
// interrupted, down to the thread's start, with and without frame pointers.
// Regression test: the walk took the handler's return address, the
// trampoline, for no return address (no call precedes it) and ended every
// such stack at the handler; gperftools' SIGPROF handler, which the
// tracer's task-clock events interrupt, showed it (tracer-gperftools.c).
// Not under TSan (it delivers signals only when a thread enters its
// runtime) or qemu-user (whose signal frames are the emulator's).
// UNSUPPORTED: sanitize-thread, emulator
// REQUIRES: pcmap-report

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -fomit-frame-pointer -pthread -fsanitize-metadata=all %S/Inputs/handler_prog.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_format=json:report_path=%t/dyn %t/prog
// RUN: %pcmap-report trace --format=folded %t/dyn.* -o %t/dyn.folded
// RUN: %python %S/Inputs/check_unwind.py %t/dyn.folded | FileCheck %s
// RUN: FileCheck %s --check-prefix=STACK < %t/dyn.folded
// RUN: %pcmap-clang -g -O2 -fno-omit-frame-pointer -pthread -fsanitize-metadata=all %S/Inputs/handler_prog.c -o %t/fp
// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_format=json:report_path=%t/fp %t/fp
// RUN: %pcmap-report trace --format=folded %t/fp.* -o %t/fp.folded
// RUN: %python %S/Inputs/check_unwind.py %t/fp.folded | FileCheck %s
// RUN: FileCheck %s --check-prefix=STACK < %t/fp.folded

// CHECK:      samples: many
// CHECK-NEXT: stacks from the thread's start: True
// CHECK-NEXT: frames outside a module: 0
// The trampoline is named where the C library's symbol table is installed
// (libc6-dbg: __restore_rt), else by its module and offset.
// STACK: {{^clone3?;start_thread;worker;.*;(__restore_rt|libc[^;]*\+0x[0-9a-f]+);on_signal;spin_in_handler}}
