// Atomics written in inline asm, downstream of the plugin: the fault reporter
// names a recorded asm atomic ("atomic (inline asm): ...") and says why a
// function whose asm pcmap cannot analyse is unknown; the tracer counts a
// spinlock written in asm as an atomic site like any other; the function
// report counts asm atomics in their own column and flags opaque asm.
// Not under TSan: its asynchronous signals never land in the program's loops.
// UNSUPPORTED: sanitize-thread

// x86-64 inline asm.
// REQUIRES: target-x86_64
// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O1 -fsanitize-metadata=all %S/Inputs/asm_runtime.c -o %t/prog
// RUN: %python %S/Inputs/run.py %run %t/prog xchg | FileCheck %s --check-prefix=XCHG
// XCHG:      page [[PAGE:0x[0-9a-f]+]]
// XCHG-NEXT: pcmap: =={{[0-9]+}}== SIGSEGV (permission denied) on address [[PAGE]] at pc [[PC:0x[0-9a-f]+]] in thread
// XCHG-NEXT: pcmap:   module:   {{.*}}/prog+0x{{[0-9a-f]+}}
// XCHG-NEXT: pcmap:   function: 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, 1 atomic)
// XCHG-NEXT: pcmap:   atomic (inline asm): rmw xchg, 1 byte, seq_cst
// XCHG-NEXT: pcmap: stack:
// XCHG-NEXT: pcmap:   #0 [[PC]] in fault_xchgb {{.*}}asm_runtime.c:
// XCHG:      status: killed by SIGSEGV

// RUN: %python %S/Inputs/run.py %run %t/prog opaque | FileCheck %s --check-prefix=OPAQUE
// OPAQUE:      page [[PAGE:0x[0-9a-f]+]]
// OPAQUE-NEXT: pcmap: =={{[0-9]+}}== SIGSEGV (permission denied) on address [[PAGE]] at pc [[PC:0x[0-9a-f]+]] in thread
// OPAQUE-NEXT: pcmap:   module:   {{.*}}/prog+0x{{[0-9a-f]+}}
// OPAQUE-NEXT: pcmap:   function: 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, 0 atomics, atomics not recorded: inline asm pcmap cannot analyse)
// OPAQUE-NEXT: pcmap:   atomic:   unknown (inline asm pcmap cannot analyse)
// OPAQUE-NEXT: pcmap: stack:
// OPAQUE-NEXT: pcmap:   #0 [[PC]] in fault_opaque {{.*}}asm_runtime.c:
// OPAQUE:      status: killed by SIGSEGV

// RUN: env PCMAP_OPTIONS=trace_atomics=1 %run %t/prog spin 2>&1 | FileCheck %s --check-prefix=TRACE
// TRACE:      pcmap: atomic tracer: [[#]] samples at 1000 Hz in 1 thread; [[#]] ({{[0-9.]+}}%) on atomics
// TRACE-NEXT: pcmap: top [[#]] of [[#]] atomic sites by samples:
// TRACE-NEXT: samples share atomic site
// TRACE-NEXT: [[#]] {{[0-9.]+}}% (inline asm) rmw xchg, 4 bytes, seq_cst 0x{{[0-9a-f]+}} spin_lock+[[#]] {{.*}}asm_runtime.c:[[#]]:[[#]] (prog+0x{{[0-9a-f]+}})
// TRACE:      [[#]] {{[0-9.]+}}% {{[0-9.]+}}% [[#]] 0x{{[0-9a-f]+}} spin_lock (prog)
// TRACE:      spun yes

// RUN: env PCMAP_OPTIONS=report_functions=1 %run %t/prog 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: size atomics load store rmw cmpxchg fence unknown asm features start module: function
// REPORT-DAG: {{^}} [[#]] 1 0 0 1 0 0 0 1 atomics,pcmap 0x{{[0-9a-f]+}} prog: spin_lock
// REPORT-DAG: {{^}} [[#]] 1 0 0 1 0 0 0 1 atomics,pcmap 0x{{[0-9a-f]+}} prog: fault_xchgb
// REPORT-DAG: {{^}} [[#]] 0 0 0 0 0 0 0 0 opaque-asm,pcmap 0x{{[0-9a-f]+}} prog: fault_opaque

// The compiler says why, when asked.
// RUN: %pcmap-clang -O1 -fsanitize-metadata=all -Rpass-missed=pcmap -c %S/Inputs/asm_runtime.c -o %t/prog.o 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: function 'fault_opaque' does not claim complete atomics: inline asm statement '.byte 0xf0, 0xff, 0x07' is not analysed (directive '.byte') [-Rpass-missed=pcmap]
