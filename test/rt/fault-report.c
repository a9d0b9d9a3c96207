// The fault reporter: a program linked by pcmap-clang reports a SIGSEGV
// inside each kind of atomic, in a plain load of a covered function and in
// code without metadata, with the module, the function, what the PC is and
// a symbolized stack; then it dies of SIGSEGV as it would without pcmap.
// Also SIGBUS and SIGILL, PIE and non-PIE, static, the shared runtime; and a
// program that links the runtime by hand reports nothing unless asked.

// RUN: rm -rf %t && mkdir %t
// The faults are in the ops' own instructions (on AArch64, LL/SC loops; the
// outline-atomic helpers have a test of their own, fault-outline-aarch64.c).
// RUN: %pcmap-clang -g -O1 -fsanitize-metadata=all %inline-atomics -I%S/Inputs -c %S/Inputs/ops.c -o %t/ops.o
// RUN: %pcmap-clang -g -O1 -fsanitize-metadata=all -I%S/Inputs %S/Inputs/fault_main.c %t/ops.o -o %t/prog
// RUN: %python %S/Inputs/run.py %run %t/prog load_acquire_4 | FileCheck %s --check-prefixes=COMMON,LOAD
// RUN: %python %S/Inputs/run.py %run %t/prog store_release_8 | FileCheck %s --check-prefixes=COMMON,STORE
// RUN: %python %S/Inputs/run.py %run %t/prog fetch_add_seq_cst_4 | FileCheck %s --check-prefixes=COMMON,RMW
// RUN: %python %S/Inputs/run.py %run %t/prog cas_weak_acq_rel_relaxed_8 | FileCheck %s --check-prefixes=COMMON,CAS
// RUN: %python %S/Inputs/run.py %run %t/prog fetch_nand_seq_cst_4 | FileCheck %s --check-prefixes=COMMON,NAND
// RUN: %python %S/Inputs/run.py %run %t/prog load_volatile_relaxed_4 | FileCheck %s --check-prefixes=COMMON,VOLATILE
// RUN: %python %S/Inputs/run.py %run %t/prog plain_volatile_load_4 | FileCheck %s --check-prefixes=COMMON,PLAIN
// RUN: %python %S/Inputs/run.py %run %t/prog uninstrumented_fetch_add_4 | FileCheck %s --check-prefixes=COMMON,UNCOVERED

// COMMON: page [[PAGE:0x[0-9a-f]+]]
// COMMON-NEXT: pcmap: =={{[0-9]+}}== SIGSEGV (permission denied) on address [[PAGE]] at pc [[PC:0x[0-9a-f]+]] in thread {{[0-9]+}}
// COMMON-NEXT: pcmap:   module:   {{.*}}/prog{{[-a-z]*}}+0x{{[0-9a-f]+}}
// LOAD-NEXT:   pcmap:   function: 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, {{[1-9][0-9]* atomics?}})
// LOAD-NEXT:   pcmap:   atomic:   load, 4 bytes, acquire
// STORE-NEXT:  pcmap:   function: 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, {{[1-9][0-9]* atomics?}})
// STORE-NEXT:  pcmap:   atomic:   store, 8 bytes, release
// RMW-NEXT:    pcmap:   function: 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, {{[1-9][0-9]* atomics?}})
// RMW-NEXT:    pcmap:   atomic:   rmw add, 4 bytes, seq_cst
// CAS-NEXT:    pcmap:   function: 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, {{[1-9][0-9]* atomics?}})
// CAS-NEXT:    pcmap:   atomic:   cmpxchg, 8 bytes, acq_rel (failure relaxed), weak
// NAND-NEXT:   pcmap:   function: 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, {{[0-9]+}} atomics)
// NAND-NEXT:   pcmap:   atomic:   rmw nand, 4 bytes, seq_cst
// VOLATILE-NEXT: pcmap:   function: 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, {{[1-9][0-9]* atomics?}})
// VOLATILE-NEXT: pcmap:   atomic:   load, 4 bytes, relaxed, volatile
// PLAIN-NEXT:  pcmap:   function: 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, 0 atomics)
// PLAIN-NEXT:  pcmap:   atomic:   not atomic (covered)
// UNCOVERED-NEXT: pcmap:   function: not covered by pcmap metadata
// UNCOVERED-NEXT: pcmap:   atomic:   no pcmap metadata
// COMMON-NEXT: pcmap: stack:
// LOAD-NEXT:   pcmap:   #0 [[PC]] in op_load_acquire_4 {{.*}}ops.c:[[#]]:[[#]] (prog{{[-a-z]*}}+0x{{[0-9a-f]+}})
// STORE-NEXT:  pcmap:   #0 [[PC]] in op_store_release_8 {{.*}}ops.c:[[#]]:[[#]] (prog{{[-a-z]*}}+0x{{[0-9a-f]+}})
// RMW-NEXT:    pcmap:   #0 [[PC]] in op_fetch_add_seq_cst_4 {{.*}}ops.c
// CAS-NEXT:    pcmap:   #0 [[PC]] in op_cas_weak_acq_rel_relaxed_8 {{.*}}ops.c
// NAND-NEXT:   pcmap:   #0 [[PC]] in op_fetch_nand_seq_cst_4 {{.*}}ops.c
// VOLATILE-NEXT: pcmap:   #0 [[PC]] in op_load_volatile_relaxed_4 {{.*}}ops.c
// PLAIN-NEXT:  pcmap:   #0 [[PC]] in op_plain_volatile_load_4 {{.*}}ops.c
// UNCOVERED-NEXT: pcmap:   #0 [[PC]] in op_uninstrumented_fetch_add_4 {{.*}}ops.c
// COMMON-NEXT: pcmap:   #1 0x{{[0-9a-f]+}} in main {{.*}}fault_main.c:[[#]]:[[#]] (prog{{[-a-z]*}}+0x{{[0-9a-f]+}})
// COMMON:      pcmap: =={{[0-9]+}}== the default action of SIGSEGV follows
// COMMON-NEXT: status: killed by SIGSEGV

// SIGBUS and SIGILL.
// RUN: %python %S/Inputs/run.py %run %t/prog sigbus | FileCheck %s --check-prefix=BUS
// BUS: page [[PAGE:0x[0-9a-f]+]]
// BUS-NEXT: pcmap: =={{[0-9]+}}== SIGBUS (nonexistent physical address) on address [[PAGE]] at pc
// BUS-NEXT: pcmap:   module:   {{.*}}/prog{{[-a-z]*}}+0x
// BUS-NEXT: pcmap:   function: 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, 0 atomics)
// BUS-NEXT: pcmap:   atomic:   not atomic (covered)
// BUS-NEXT: pcmap: stack:
// BUS-NEXT: pcmap:   #0 0x{{[0-9a-f]+}} in do_sigbus {{.*}}fault_main.c:
// BUS:      status: killed by SIGBUS
// RUN: %python %S/Inputs/run.py %run %t/prog sigill | FileCheck %s --check-prefix=ILL
// ILL: pcmap: =={{[0-9]+}}== SIGILL (illegal {{opcode|operand}}) on address 0x{{[0-9a-f]+}} at pc
// ILL: pcmap:   #0 0x{{[0-9a-f]+}} in main {{.*}}fault_main.c:
// ILL: status: killed by SIGILL

// Static, non-PIE, the shared runtime. The sanitizers' runtimes cannot be
// linked statically: a sanitizer build (PCMAP_SANITIZE) skips the static one.
// RUN: %if !sanitizer %{ %pcmap-clang -g -O1 -fsanitize-metadata=all -I%S/Inputs -static %S/Inputs/fault_main.c %t/ops.o -o %t/prog-static %}
// RUN: %if !sanitizer %{ %python %S/Inputs/run.py %run %t/prog-static fetch_add_seq_cst_4 | FileCheck %s --check-prefixes=COMMON,RMW %}
// RUN: %pcmap-clang -g -O1 -fsanitize-metadata=all -I%S/Inputs -fno-pie -no-pie %inline-atomics %S/Inputs/fault_main.c %S/Inputs/ops.c -o %t/prog-nopie
// RUN: %python %S/Inputs/run.py %run %t/prog-nopie store_release_8 | FileCheck %s --check-prefixes=COMMON,STORE
// RUN: %pcmap-clang -g -O1 -fsanitize-metadata=all -shared-libpcmap -I%S/Inputs %S/Inputs/fault_main.c %t/ops.o -o %t/prog-shared
// RUN: %python %S/Inputs/run.py %run %t/prog-shared load_acquire_4 | FileCheck %s --check-prefixes=COMMON,LOAD

// The options turn it off; linked by hand it is off unless turned on.
// RUN: env PCMAP_OPTIONS=handle_segv=0 %python %S/Inputs/run.py %run %t/prog load_acquire_4 | FileCheck %s --check-prefix=OFF
// RUN: %clang -g -O1 %S/Inputs/fault_main.c -I%S/Inputs %t/ops.o %rt-static-lib -o %t/prog-by-hand
// RUN: %python %S/Inputs/run.py %run %t/prog-by-hand load_acquire_4 | FileCheck %s --check-prefix=OFF
// OFF-NOT: pcmap:
// OFF: status: killed by SIGSEGV
// RUN: env PCMAP_OPTIONS=handle_segv=1 %python %S/Inputs/run.py %run %t/prog-by-hand load_acquire_4 | FileCheck %s --check-prefixes=COMMON,LOAD

// Without a symbolizer the frames still name their modules; a symbolizer
// path that does not work is reported. (A program linked with a sanitizer,
// as in a PCMAP_SANITIZE build, is symbolized by the sanitizer's symbolizer.)
// RUN: env PCMAP_OPTIONS=symbolize=0 %python %S/Inputs/run.py %run %t/prog load_acquire_4 | FileCheck %s --check-prefix=NOSYM
// RUN: env PCMAP_OPTIONS=symbolizer_path=%t/nonexistent %python %S/Inputs/run.py %run %t/prog load_acquire_4 | FileCheck %s --check-prefixes=%if sanitizer %{SANSYM%} %else %{BADSYM,NOSYM%}
// RUN: env PCMAP_SYMBOLIZER_PATH=%t/nonexistent %python %S/Inputs/run.py %run %t/prog load_acquire_4 | FileCheck %s --check-prefixes=%if sanitizer %{SANSYM%} %else %{BADSYM,NOSYM%}
// SANSYM: pcmap: warning: {{symbolizer_path|PCMAP_SYMBOLIZER_PATH}} '{{.*}}nonexistent' is not an executable
// SANSYM: pcmap:   #0 0x{{[0-9a-f]+}} in op_load_acquire_4 {{.*}}ops.c:
// BADSYM: pcmap: warning: {{symbolizer_path|PCMAP_SYMBOLIZER_PATH}} '{{.*}}nonexistent' is not an executable; stack traces are not symbolized
// NOSYM: pcmap: stack:
// NOSYM-NEXT: pcmap:   #0 0x{{[0-9a-f]+}} (prog+0x{{[0-9a-f]+}})
// BADSYM-NEXT: pcmap:   (not symbolized: no llvm-symbolizer found (set PCMAP_SYMBOLIZER_PATH))
// NOSYM-NEXT: pcmap:   #1 0x{{[0-9a-f]+}} (prog+0x{{[0-9a-f]+}})
// NOSYM: status: killed by SIGSEGV
