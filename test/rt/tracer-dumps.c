// Profiles of processes that never exit normally: a worker that loops
// forever is dumped on a signal (trace_dump_signal) and killed; a process
// that ends with _exit is dumped every second (trace_dump_interval); one
// that dies of a fault gets its last report after the fault report. Dumps
// are cumulative and numbered.
// Not under TSan: it delivers asynchronous signals only when the thread
// next enters its runtime, never in the middle of uninstrumented loops.
// UNSUPPORTED: sanitize-thread

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O1 -fsanitize-metadata=all %S/Inputs/dump_prog.c -o %t/prog

// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_dump_signal=10:report_format=json:trace_symbolize_json=1:report_path=%t/sig %python %S/Inputs/signal_dumps.py 2 %t/sig %run %t/prog forever > %t/driver.out
// RUN: FileCheck %s --check-prefix=SIG < %t/driver.out
// SIG:      dump 1: written
// SIG-NEXT: dump 2: written
// SIG-NEXT: killed: True
// RUN: %python %S/Inputs/check_dumps.py %t/sig. | FileCheck %s --check-prefix=SIGJSON
// SIGJSON:      dump 1 signal final=False top=spin
// SIGJSON-NEXT: dump 2 signal final=False top=spin
// SIGJSON-NEXT: cumulative: True

// Without callers and data, so that a dump takes little of the 2.5 s
// (under qemu-user, the data table's first report takes some 300 ms).
// Under qemu-user on a 2-core machine the second dump did not come in the
// program's 11 s of wall time (7 runs in 7, with the runtime of 2f6eec2 too):
// there, one interval dump and no exit report.
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_dump_interval=1:trace_callers=0:trace_data=0 %run %t/prog quit 2>&1 | FileCheck %s --check-prefix=%if emulator %{INTERVAL-EMU%} %else %{INTERVAL%}
// INTERVAL:     pcmap: atomic tracer (dump 1, interval): [[#]] samples
// INTERVAL:     pcmap: atomic tracer (dump 2, interval): [[#]] samples
// INTERVAL-NOT: pcmap: atomic tracer:
// INTERVAL-EMU:     pcmap: atomic tracer (dump 1, interval): [[#]] samples
// INTERVAL-EMU-NOT: pcmap: atomic tracer:

// RUN: env PCMAP_OPTIONS=trace_atomics=1 not --crash %run %t/prog crash 2>&1 | FileCheck %s --check-prefix=FATAL
// FATAL:      SIGSEGV (address not mapped) on address 0x0
// FATAL:      pcmap: atomic tracer (dump 1, fatal): [[#]] samples
// FATAL-NEXT: pcmap: top 1 of 1 atomic sites by samples:
// FATAL:      spin
// FATAL:      the default action of SIGSEGV follows

// A signal the tracer cannot take as its dump signal (SIGTRAP: the fault
// reporter's).
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_dump_signal=5 not --crash %run %t/prog crash 2>&1 | FileCheck %s --check-prefix=BADSIG
// BADSIG: pcmap: warning: trace_dump_signal=5 cannot be the dump signal (use SIGUSR1, 10, or SIGUSR2, 12); no dumps on a signal
