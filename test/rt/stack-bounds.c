// pcmap's signal handlers run in a bounded amount of the stack a signal
// comes on, and never write below it: the fault handler on a program's
// 8 KiB alternate signal stack (SIGSTKSZ), reporting or chaining to the
// program's handler; the tracer's SIGPROF handler on a fiber's 16 KiB
// stack. The report itself runs on pcmap's own stack. Each stack has a
// guard page below it, and its paint says how deep it was used.
// Regression test: the fault handler wrote 22,824 bytes below an 8 KiB
// alternate stack; the SIGPROF handler 11,880 below a 16 KiB thread stack.
// (The sanitizers' instrumented frames and their own handlers and alternate
// stacks change the figures: the bounds are checked without them.)

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O1 -pthread -fsanitize-metadata=all -Wno-prio-ctor-dtor %S/Inputs/stack_bounds.c -o %t/prog
// RUN: %clang -O1 -pthread -Wno-prio-ctor-dtor %S/Inputs/stack_bounds.c -o %t/plain

// The whole report, then the default action: a write below the 8 KiB
// stack would have hit its guard page and ended the process mid-report.
// RUN: %python %S/Inputs/run.py %run %t/prog report | FileCheck %s --check-prefix=REPORT
// REPORT:      pcmap: =={{[0-9]+}}== SIGSEGV (address not mapped) on address 0x10
// REPORT:      pcmap: stack:
// REPORT-NEXT: pcmap:   #0 0x{{[0-9a-f]+}} in {{fault|main}}
// REPORT-NOT:  the report itself faulted
// REPORT:      pcmap: =={{[0-9]+}}== the default action of SIGSEGV follows
// REPORT-NEXT: status: killed by SIGSEGV

// The program's crash handler, installed before pcmap, measures its
// alternate stack: pcmap's handler adds at most 1 KiB to the plain
// build's use, chaining or reporting first.
// RUN: %run %t/plain handled > %t/plain-handled
// RUN: %run %t/prog handled > %t/chained
// RUN: env PCMAP_OPTIONS=report_handled_faults=1 %run %t/prog handled > %t/reported 2> %t/reported.log
// RUN: FileCheck %s --check-prefix=REPORTED < %t/reported.log
// REPORTED: pcmap: stack:
// REPORTED: pcmap: =={{[0-9]+}}== the program's handler of SIGSEGV follows
// RUN: %if !sanitizer %{ %python %S/Inputs/stack_use.py 1024 %t/plain-handled %t/chained %t/reported | FileCheck %s --check-prefix=HANDLED %}
// HANDLED: chained: {{-?[0-9]+}} bytes beyond the plain build's {{[0-9]+}}: within the bound of 1024
// HANDLED: reported: {{-?[0-9]+}} bytes beyond the plain build's {{[0-9]+}}: within the bound of 1024

// A fiber's 16 KiB stack under the tracer, which walks the call stack in
// each sample: pcmap adds at most 2 KiB beyond the kernel's signal frame
// (AT_MINSIGSTKSZ, 3376 bytes with AVX-512), which any signal takes and the
// plain build never does; task-clock events at 2000 Hz find the program at
// its deepest. (TSan needs a larger stack than that for itself.)
// RUN: %run %t/plain fiber > %t/plain-fiber
// RUN: %if !sanitize-thread %{ env PCMAP_OPTIONS=trace_atomics=1:trace_hz=2000 %run %t/prog fiber > %t/traced 2> %t/traced.log %}
// RUN: %if !sanitize-thread %{ FileCheck %s --check-prefix=TRACED < %t/traced.log %}
// TRACED: pcmap: atomic tracer: {{[1-9][0-9]*}} samples
// RUN: %if !sanitizer %{ %python %S/Inputs/stack_use.py --plus-signal-frame 2048 %t/plain-fiber %t/traced | FileCheck %s --check-prefix=FIBER %}
// FIBER: traced: {{-?[0-9]+}} bytes beyond the plain build's {{[0-9]+}}{{( and the kernel's signal frame)?}}: within the bound of 2048
