// A stack overflow is reported as one, on every thread: the main thread,
// a thread the program starts, and a thread started by a constructor that
// runs before the runtime has initialised. Each thread gets an alternate
// signal stack (use_sigaltstack, platform/linux_threads.cpp), the report
// names the thread, and the program still dies of SIGSEGV. With
// use_sigaltstack=0 no handler can run on an overflowed stack: no report.
// The sanitizers install their own alternate stacks and stack-overflow
// reports.
// UNSUPPORTED: sanitizer

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O1 -g -pthread -fsanitize-metadata=all %S/Inputs/overflow.c -o %t/ov
// RUN: not --crash %run %t/ov main 2>&1 | FileCheck %s --check-prefix=MAIN
// MAIN: overflowing: main
// MAIN-NEXT: pcmap: =={{[0-9]+}}== SIGSEGV (stack overflow) on address 0x{{[0-9a-f]+}} at pc 0x{{[0-9a-f]+}} in thread {{[0-9]+}} ({{.+}})
// MAIN:      pcmap:   #{{[0-9]+}} 0x{{[0-9a-f]+}} in recurse {{.*}}overflow.c:
// MAIN:      the default action of SIGSEGV follows

// RUN: not --crash %run %t/ov thread 2>&1 | FileCheck %s --check-prefix=THREAD
// THREAD: overflowing: thread
// THREAD-NEXT: pcmap: =={{[0-9]+}}== SIGSEGV (stack overflow) on address 0x{{[0-9a-f]+}} at pc 0x{{[0-9a-f]+}} in thread {{[0-9]+}} (overflower)
// THREAD:      the default action of SIGSEGV follows

// RUN: env OVERFLOW_MODE=early not --crash %run %t/ov early 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: overflowing: early
// EARLY-NEXT: pcmap: =={{[0-9]+}}== SIGSEGV (stack overflow) on address 0x{{[0-9a-f]+}} at pc 0x{{[0-9a-f]+}} in thread {{[0-9]+}} (overflower)
// EARLY:      the default action of SIGSEGV follows

// Without alternate stacks, the kernel cannot run the handler.
// RUN: env PCMAP_OPTIONS=use_sigaltstack=0 not --crash %run %t/ov thread 2>&1 | FileCheck %s --check-prefix=NOALT
// NOALT: overflowing: thread
// NOALT-NOT: pcmap:

// The shared runtime intercepts pthread_create too.
// RUN: %pcmap-clang -O1 -g -pthread -fsanitize-metadata=all -shared-libpcmap %S/Inputs/overflow.c -o %t/ov-shared
// RUN: not --crash %run %t/ov-shared thread 2>&1 | FileCheck %s --check-prefix=THREAD
