// The program sees the actions of its fault signals and its alternate
// signal stacks as in its plain build: sigaction and signal report what the
// program itself set (SIG_DFL at first), read back as the kernel keeps
// them, never pcmap's handler, which stays underneath as the default
// action; sigaltstack reports no stack until the program sets one, in the
// main thread and in the threads it starts, though each has pcmap's. Its
// crashes still get pcmap's report: a fault with the default action, a
// crash handler that resets the default action and raises the signal again
// (the fault it handled is reported), a thread's stack overflow after the
// program set and removed a stack of its own, and Boehm GC's handler, which
// prints its own message for a stray write and calls abort() (gc-stray.c).
// Regression test: sigaction(SIGSEGV, NULL, &old) returned pcmap's handler
// (flags 0x5c000004) where the plain build gets SIG_DFL, signal() returned
// it too, and sigaltstack reported pcmap's 262144-byte stack on every
// thread.
// The sanitizers install handlers of their own.
// UNSUPPORTED: sanitizer

// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -pthread %S/Inputs/signal_view.c -o %t/plain
// RUN: %pcmap-clang -O1 -pthread -fsanitize-metadata=all %S/Inputs/signal_view.c -o %t/pcmap
// RUN: %run %t/plain > %t/plain.out
// RUN: %run %t/pcmap > %t/pcmap.out
// RUN: diff %t/plain.out %t/pcmap.out
// RUN: %if !emulator %{ %run %t/plain kill-in-mask > %t/plain-kill.out %}
// RUN: %if !emulator %{ %run %t/pcmap kill-in-mask > %t/pcmap-kill.out %}
// RUN: %if !emulator %{ diff %t/plain-kill.out %t/pcmap-kill.out %}
// RUN: FileCheck %s --check-prefix=VIEW < %t/pcmap.out
// VIEW: initially Segmentation fault: SIG_DFL, flags 0, mask 0
// VIEW: signal(SIGBUS, SIG_DFL) returned SIG_DFL
// VIEW: main: no alternate stack
// VIEW: thread: no alternate stack
// VIEW: replaced Segmentation fault: SIG_DFL
// VIEW: now Segmentation fault: own handler (siginfo)
// VIEW: now Illegal instruction: SIG_IGN
// VIEW: main: sigaltstack(own) = 0
// VIEW: main, own set: alternate stack of 65536 bytes
// VIEW: main: sigaltstack(SS_DISABLE) = 0
// VIEW: main, own removed: no alternate stack

// RUN: %python %S/Inputs/run.py %run %t/plain default | FileCheck %s --check-prefix=PLAIN
// RUN: %python %S/Inputs/run.py %run %t/plain handler | FileCheck %s --check-prefix=PLAIN
// RUN: %python %S/Inputs/run.py %run %t/plain overflow | FileCheck %s --check-prefix=PLAIN
// PLAIN-NOT: pcmap:
// PLAIN: status: killed by SIGSEGV

// RUN: %python %S/Inputs/run.py %run %t/pcmap default | FileCheck %s --check-prefix=DEFAULT
// DEFAULT:      pcmap: =={{[0-9]+}}== SIGSEGV (address not mapped) on address 0x10 at pc
// DEFAULT:      pcmap: =={{[0-9]+}}== the default action of SIGSEGV follows
// DEFAULT-NEXT: status: killed by SIGSEGV

// RUN: %python %S/Inputs/run.py %run %t/pcmap overflow | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW:      overflowing thread, own removed: no alternate stack
// OVERFLOW-NEXT: pcmap: =={{[0-9]+}}== SIGSEGV (stack overflow) on address
// OVERFLOW:      pcmap: =={{[0-9]+}}== the default action of SIGSEGV follows
// OVERFLOW-NEXT: status: killed by SIGSEGV

// RUN: %python %S/Inputs/run.py %run %t/pcmap handler | FileCheck %s --check-prefix=HANDLER
// HANDLER:      own handler: resetting and raising
// HANDLER-NEXT: pcmap: =={{[0-9]+}}== SIGSEGV (address not mapped) on address 0x10 at pc
// HANDLER:      pcmap: =={{[0-9]+}}== the program's handler of SIGSEGV raised it again; the default action of SIGSEGV follows
// HANDLER-NEXT: status: killed by SIGSEGV
