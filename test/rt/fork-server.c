// The tracer in a forking server (Inputs/fork_server.c): a listener forks a
// worker per connection, the workers contend on an atomic counter and a
// spinlock in shared memory while a client drives them for two seconds.
// Every process writes its own report (report_path.<pid>), the workers'
// name the server as their parent, their contended atomics rank first, and
// their samples match the CPU time the kernel counted for them: with the
// clock events in user mode (trace_kernel_events=0), since with kernel-mode
// events the ends of context switches are in no sample, as in perf's
// profile (the report says how much: 5 to 10 % of these workers' time,
// which switch at every request), and the workers, which block so often,
// sample a random 1 in N of their intervals, each sample counting N times
// (so that in 2 s their samples stood for 79 % of the time in one run).
// Not under TSan: it delivers asynchronous signals only when the thread
// next enters its runtime, never in the middle of uninstrumented loops.
// UNSUPPORTED: sanitize-thread
// Not under qemu-user: the server starts its client by exec, which
// qemu-user does not follow.
// UNSUPPORTED: target-aarch64

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -fsanitize-metadata=all %S/Inputs/fork_server.c -o %t/server
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_kernel_events=0:report_format=json:trace_symbolize_json=1:report_path=%t/trace %t/server 4 2 > %t/out
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_kernel_events=0:report_format=json:report_path=%t/plain %t/server 4 2 > %t/plain-out
// RUN: %python %S/Inputs/check_fork_trace.py %t/trace %t/out 4 %t/plain %t/plain-out | FileCheck %s
// CHECK:      processes: 5
// CHECK-NEXT: workers name the server: 4
// CHECK-NEXT: top sites: contend spinLock
// CHECK-NEXT: samples within 15% of the workers' CPU time: True

// The data: the shared memory's counter and spinlock, which every worker
// maps at its own address, are one cache line of every process, the
// hottest, shared by the four workers (the atomic counter at +0, the lock
// at +8), their members named from the global pointer the workers' code
// loads (docs/Report.md, "Data").
// RUN: %if pcmap-report %{ %pcmap-report trace --lines 1 --callers 0 %t/trace.* | FileCheck %s --check-prefix=DATA %}
// DATA:      cache lines by samples:
// DATA-NEXT: SAMPLES  SHARE  THREADS  PROCESSES  SHARING
// DATA-NEXT: {{ +[0-9]+ +[0-9.]+% +4 +4 +}}false+true  shared  /memfd:fork_server (deleted)+0x0
// DATA:      #1 /memfd:fork_server (deleted)+0x0:
// DATA-NEXT: OFFSET  SIZE  SAMPLES  THREADS
// DATA-NEXT: {{^ +0 +8 +[0-9]+ +[0-9]+ .* shared Shared::Hits$}}
// DATA-NEXT: {{^ +8 +4 +[0-9]+ +[0-9]+ .* shared Shared::Lock$}}

// A child's text report goes to its own log file (log_path.<pid>).
// RUN: env PCMAP_OPTIONS=trace_atomics=1:log_path=%t/log %t/server 2 1 > %t/out2
// RUN: ls %t/log.* | wc -l | FileCheck %s --check-prefix=LOGS
// LOGS: 3
// RUN: cat %t/log.* | FileCheck %s --check-prefix=LOG
// LOG-COUNT-3: pcmap: atomic tracer: [[#]] samples

// Wait time in every process: the workers block reading their sockets,
// the server in wait4 for them; pcmap-report merges the processes' waits.
// RUN: %if pcmap-report %{ env PCMAP_OPTIONS=trace_wait=1:report_format=json:report_path=%t/wait %t/server 4 1 > %t/out3 %}
// RUN: %if pcmap-report %{ %pcmap-report trace --callers 0 %t/wait.* | FileCheck %s --check-prefix=WAIT %}
// WAIT:     waits: [[#]] samples of threads blocked in a system call, of [[#]] observations at 100 Hz, 0 dropped; {{[0-9.]+}} s of wait on [[#]] objects
// WAIT:     wait objects by wait time:
// WAIT-DAG: {{^ +[0-9.]+ +[0-9.]+% +[0-9]+ +1 +}}wait4 {{ *}}(none)
// WAIT-DAG: {{^ +[0-9.]+ +[0-9.]+% +[0-9]+ +1 +}}read {{ *}}socket:[{{[0-9]+}}]
