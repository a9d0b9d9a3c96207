// The fault reporter and the program's own fault handlers: every program
// behaves as its plain build does (same output, same exit status), with
// pcmap's report exactly where the process dies of the fault.
// Regression tests: a one-shot (SA_RESETHAND) handler looped forever; a
// handler expecting a nested fault (SA_NODEFER) died; every repaired fault
// was reported (seconds each); a bad call's report faulted in the stack
// walk and the crash reporter never ran.
// (Under ASan, 0xdeadbeef lies in its shadow's protected gap: "permission
// denied".) Under TSan, a handler the program installs after pcmap is
// TSan's to call, and TSan blocks every signal while it runs: its nested
// fault ends the process (a plain TSan build hangs), so that case is left
// out there.

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O1 -fsanitize-metadata=all -Wno-prio-ctor-dtor %S/Inputs/fault_handlers.c -o %t/prog
// RUN: %clang -O1 -Wno-prio-ctor-dtor %S/Inputs/fault_handlers.c -o %t/plain

// One-shot: the handler runs once, the repeated fault kills the program,
// and that fault is reported, whether the handler came before pcmap's or
// after it (pcmap's stays underneath: test/rt/signal-view.c). With a
// sanitizer, whose sigaction interceptor wins over pcmap's and installs a
// later handler in the kernel, that handler replaces pcmap's: the repeated
// fault meets the kernel's default action, unreported.
// RUN: %python %S/Inputs/run.py %run %t/plain oneshot | FileCheck %s --check-prefix=ONESHOT-PLAIN
// RUN: %python %S/Inputs/run.py %run %t/prog oneshot | FileCheck %s --check-prefix=ONESHOT
// RUN: %python %S/Inputs/run.py %run %t/prog oneshot-after | FileCheck %s --check-prefix=%if sanitizer %{ONESHOT-PLAIN%} %else %{ONESHOT%}
// ONESHOT-PLAIN:      one-shot handler: logged
// ONESHOT-PLAIN-NEXT: status: killed by SIGSEGV
// ONESHOT:      one-shot handler: logged
// ONESHOT-NEXT: pcmap: =={{[0-9]+}}== SIGSEGV (permission denied)
// ONESHOT:      pcmap: =={{[0-9]+}}== the default action of SIGSEGV follows
// ONESHOT-NEXT: status: killed by SIGSEGV

// Nested: the handler takes the nested fault it expects.
// RUN: %python %S/Inputs/run.py %run %t/prog nested | FileCheck %s --check-prefix=NESTED
// RUN: %if !sanitize-thread %{ %python %S/Inputs/run.py %run %t/prog nested-after | FileCheck %s --check-prefix=NESTED %}
// RUN: %python %S/Inputs/run.py %run %t/plain nested | FileCheck %s --check-prefix=NESTED
// NESTED-NOT:  pcmap:
// NESTED:      faults 1, nested 1
// NESTED-NEXT: status: exit 0

// Repaired and recovered faults are not crashes: no report.
// RUN: %python %S/Inputs/run.py %run %t/prog repair | FileCheck %s --check-prefix=REPAIR
// RUN: %python %S/Inputs/run.py %run %t/prog repair-after | FileCheck %s --check-prefix=REPAIR
// REPAIR-NOT:  pcmap:
// REPAIR:      faults 1000
// REPAIR-NEXT: status: exit 0
// RUN: %python %S/Inputs/run.py %run %t/prog recover | FileCheck %s --check-prefix=RECOVER
// RUN: %python %S/Inputs/run.py %run %t/prog recover-after | FileCheck %s --check-prefix=RECOVER
// RECOVER-NOT:  pcmap:
// RECOVER:      faults 100
// RECOVER-NEXT: status: exit 0
// report_handled_faults=1 reports each before the handler runs.
// RUN: env PCMAP_OPTIONS=report_handled_faults=1:symbolize=0 %python %S/Inputs/run.py %run %t/prog recover | FileCheck %s --check-prefix=REPORTED
// REPORTED-COUNT-100: pcmap: =={{[0-9]+}}== the program's handler of SIGSEGV follows
// REPORTED-NEXT: faults 100

// A program with an alternate stack of its own (8 KiB) and handlers
// without SA_ONSTACK that need 16 KiB: they run on the interrupted stack,
// as the kernel runs them, a nested fault included, and the program's
// alternate stack is still there afterwards.
// RUN: %python %S/Inputs/run.py %run %t/plain nested-altstack | FileCheck %s --check-prefixes=ALTNESTED,ALTSTACK
// RUN: %python %S/Inputs/run.py %run %t/prog nested-altstack | FileCheck %s --check-prefixes=ALTNESTED,ALTSTACK
// RUN: %if !sanitize-thread %{ %python %S/Inputs/run.py %run %t/prog nested-altstack-after | FileCheck %s --check-prefixes=ALTNESTED,ALTSTACK %}
// RUN: %python %S/Inputs/run.py %run %t/prog repair-altstack | FileCheck %s --check-prefixes=ALTREPAIR,ALTSTACK
// RUN: %python %S/Inputs/run.py %run %t/prog repair-altstack-after | FileCheck %s --check-prefixes=ALTREPAIR,ALTSTACK
// A handler that leaves by siglongjmp does not come back to turn the
// alternate stack on again: the next fault does (pcmap's handler, which then
// runs on the interrupted stack). After the last one it may still be off,
// whether the handler came before pcmap's or after (pcmap's stays
// underneath: test/rt/signal-view.c).
// RUN: %python %S/Inputs/run.py %run %t/prog recover-altstack | FileCheck %s --check-prefixes=ALTRECOVER,ALTLEFT
// RUN: %python %S/Inputs/run.py %run %t/prog recover-altstack-after | FileCheck %s --check-prefixes=ALTRECOVER,ALTLEFT
// ALTNESTED-NOT:  pcmap:
// ALTNESTED:      faults 1, nested 1
// ALTREPAIR-NOT:  pcmap:
// ALTREPAIR:      faults 1000
// ALTRECOVER-NOT: pcmap:
// ALTRECOVER:     faults 100
// ALTSTACK:      handler on the alternate stack: 0 times
// ALTSTACK-NEXT: alternate stack: the program's
// ALTSTACK-NEXT: status: exit 0
// ALTLEFT:      handler on the alternate stack: 0 times
// ALTLEFT-NEXT: alternate stack: {{the program's|off}}
// ALTLEFT-NEXT: status: exit 0

// A call through a bad pointer: the crash reporter runs, as without pcmap;
// when pcmap reports first, a fault in its stack walk ends the report and
// the crash reporter still runs.
// RUN: %python %S/Inputs/run.py %run %t/plain badcall | FileCheck %s --check-prefix=BADCALL
// RUN: %python %S/Inputs/run.py %run %t/prog badcall | FileCheck %s --check-prefix=BADCALL
// RUN: env PCMAP_OPTIONS=report_handled_faults=1 %python %S/Inputs/run.py %run %t/prog badcall | FileCheck %s --check-prefixes=BADCALL-REPORT,BADCALL
// BADCALL-REPORT: pcmap: =={{[0-9]+}}== SIGSEGV ({{address not mapped|permission denied}}) on address 0xdeadbeef at pc 0xdeadbeef
// BADCALL-REPORT: pcmap: =={{[0-9]+}}== the program's handler of SIGSEGV follows
// BADCALL:      crash reporter: the program crashed
// BADCALL-NEXT: status: exit 3
// Without a handler of the program's: reported, then the default action.
// RUN: %python %S/Inputs/run.py %run %t/prog badcall-none | FileCheck %s --check-prefix=BADCALL-NONE
// BADCALL-NONE: pcmap: =={{[0-9]+}}== SIGSEGV ({{address not mapped|permission denied}}) on address 0xdeadbeef
// BADCALL-NONE: pcmap: =={{[0-9]+}}== the default action of SIGSEGV follows
// BADCALL-NONE-NEXT: status: killed by SIGSEGV
