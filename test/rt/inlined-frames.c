// Inlined code is reported where it is written: an atomic inlined from a
// helper is at the helper's line first, then the caller's, in the tracer's
// report; a fault in an inlined helper has a stack frame per inlined
// function, innermost first (as ASan prints them), and the report's
// function line names the function.
// Regression test: the site showed the caller's line (the call), and the
// fault report's stack lacked the inlined frames.
// Not under TSan (it delivers signals only when a thread enters its
// runtime) or qemu-user (whose CPU clocks include the emulator's work).
// UNSUPPORTED: sanitize-thread, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -fno-omit-frame-pointer -fsanitize-metadata=all %S/Inputs/inlined.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_width=0 %run %t/prog 2>&1 | FileCheck %s --check-prefix=TRACE
// TRACE:      pcmap: top [[#]] of [[#]] atomic sites by samples:
// TRACE-NEXT: samples share atomic site
// TRACE-NEXT: rmw add, 8 bytes, relaxed 0x{{[0-9a-f]+}} spin_bump+[[#]] {{.*}}inlined.c:14:3 [inlined: bump inlined.c:14:3 < spin_bump inlined.c:31:7] (prog+0x{{[0-9a-f]+}})
// TRACE-NEXT: from [[#]] ({{[0-9.]+}}%): main inlined.c:41:3

// RUN: not --crash %run %t/prog fault 2>&1 | FileCheck %s --check-prefix=FAULT
// FAULT:      pcmap: ==[[#]]== SIGSEGV (address not mapped) on address 0x0 at pc [[PC:0x[0-9a-f]+]]
// FAULT:      pcmap:   function: 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, 0 atomics): crash
// FAULT:      pcmap: stack:
// FAULT-NEXT: pcmap:   #0 [[PC]] in poke {{.*}}inlined.c:18:12
// FAULT-NEXT: pcmap:   #1 [[PC]] in crash {{.*}}inlined.c:35:3
// FAULT-NEXT: pcmap:   #2 0x{{[0-9a-f]+}} in main {{.*}}inlined.c:40:5
