// Under qemu-user, /proc/self/task/TID/syscall shows the emulator's own
// system calls and registers, never the program's: the wait sampler finds
// the PCs outside the program's code, stops, and says there is no wait
// time instead of naming objects from another machine's registers.
// Regression test: the report named "accept" waits on descriptors made of
// the emulator's x86-64 futex arguments.
// REQUIRES: emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -pthread -fsanitize-metadata=all %S/Inputs/wait_lock.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_wait=1 %run %t/prog 2>&1 | FileCheck %s
// CHECK:     pcmap: wait: none: the registers /proc/self/task/TID/syscall shows are outside the program's code (an emulator such as qemu-user runs it)
// CHECK-NOT: accept
// CHECK:     big_lock at 0x{{[0-9a-f]+}}: waited {{[0-9.]+}} s; EINTR 0
