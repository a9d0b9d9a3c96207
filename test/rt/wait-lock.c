// The wait sampler (trace_wait=1): threads blocked in system calls are
// observed by wall time without a signal. A global mutex four threads take
// turns on is named by its symbol, with its kind, the waiters' stack and
// the holder's critical section; a thread blocked in read() shows the
// pipe; the JSON dump's wait for the lock is near the time the program
// measured itself (loosely here: bench/wait_accuracy.py measures it); and
// no blocking call of the program ever fails with EINTR.
// Not under qemu-user: /proc/self/task/TID/syscall shows the emulator's
// own registers there, not the program's.
// REQUIRES: pcmap-report
// UNSUPPORTED: sanitizer, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -pthread -fsanitize-metadata=all %S/Inputs/wait_lock.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_wait=1:trace_top=5:report_width=0 %run %t/prog > %t/text 2>&1
// RUN: FileCheck %s < %t/text
// The main thread's pthread_join sleeps on the joined thread's id: the
// object is that thread.
// RUN: FileCheck %s --check-prefix=JOIN < %t/text
// JOIN: {{[0-9.]+}} s {{ *[0-9.]+}}% {{ *[0-9]+}}  {{ *}}1  thread join {{ *}}thread {{[0-9]+$}}
// CHECK:      pcmap: wait: [[#]] samples of threads blocked in system calls ({{[0-9.]+}} s of wall time; [[#]] observations, each thread's up to 100 a second, 0 dropped), on [[#]] objects; the top {{[0-9]+}} by wait time:
// CHECK-NEXT: wait   share  samples  threads  kind {{ *}}object
// CHECK-NEXT: {{[0-9.]+}} s {{ *[0-9.]+}}% {{ *[0-9]+}}  {{ *}}4  mutex {{ *}}big_lock
// CHECK-NEXT: waiting {{[0-9.]+}} s ({{[0-9.]+}}%): {{.*}}pthread_mutex_lock{{.*}} < worker wait_lock.c:[[#]]:[[#]] < start_thread
// CHECK:      holding {{[0-9.]+}} s ({{[0-9.]+}}%): {{.*}}nanosleep{{.*}} < critical wait_lock.c:[[#]]:[[#]] < worker wait_lock.c
// CHECK:      read {{ *}}fd [[#]] (pipe:[{{[0-9]+}}])
// CHECK-NEXT: waiting {{.*}}read{{.*}} < reader wait_lock.c
// CHECK:      big_lock at 0x{{[0-9a-f]+}}: waited {{[0-9.]+}} s; EINTR 0

// RUN: env PCMAP_OPTIONS=trace_wait=1:report_format=json:report_path=%t/trace %run %t/prog > %t/out
// RUN: %python %S/Inputs/check_wait.py %t/out %t/trace.* | FileCheck %s --check-prefix=JSON
// JSON: version 6, wait_hz 100
// JSON: big_lock: region module, holders named
// JSON: wait within 50% of the program's own measure
// JSON: pipe: read on pipe:[
// JSON: EINTR 0

// pcmap-report trace merges the dump: the lock by name and kind, in JSON
// that the schema of docs/report-json.schema.json accepts.
// RUN: %pcmap-report trace %t/trace.* | FileCheck %s --check-prefix=REPORT
// REPORT: mutex {{.*}}big_lock
// RUN: %pcmap-report trace --format=json %t/trace.* -o %t/merged.json
// RUN: %python %S/../report/Inputs/compare.py schema %t/merged.json %S/../../docs/report-json.schema.json | FileCheck %s --check-prefix=SCHEMA
// SCHEMA: OK: trace document validates
