// A thread blocked in a system call outside the locks' and the descriptors'
// calls is named by its call: opening a FIFO (Inputs/wait_fifo.c) waits in
// openat. Regression test: the runtime wrote an empty name for a call its
// table did not have (LevelDB's unlink), and pcmap-report rejected the
// whole dump ("empty syscall").
// REQUIRES: pcmap-report
// UNSUPPORTED: sanitizer, emulator
// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -pthread -fsanitize-metadata=all %S/Inputs/wait_fifo.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_wait=1:report_format=json:report_path=%t/trace %run %t/prog %t/fifo
// RUN: %pcmap-report trace --waits=0 %t/trace.* | FileCheck %s
// CHECK: wait objects by wait time:
// CHECK: {{^ *[0-9.]+ +[0-9.]+% +[0-9]+ +1 +}}openat {{ *}}(none)
