// The wait sampler on the lock objects of C++ programs: a global
// pthread_mutex_t, a std::mutex member of a heap object and a
// std::condition_variable, each named with its kind, its waiters' stacks
// and (for the mutexes) the holder's critical section; each object's wait
// in the JSON dump is near the time the program measured in its lock
// calls (within 25% here; bench/wait_bench.py measures the accuracy), and
// go tool pprof's -tagfocus on the object totals the same wait.
// Not under qemu-user (/proc shows the emulator's registers) or the
// sanitizers (their interceptors change the lock calls' stacks).
// REQUIRES: pcmap-report
// UNSUPPORTED: sanitizer, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang++ -g -O2 -pthread -fsanitize-metadata=all %S/Inputs/wait_objects.cpp -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_wait=1:trace_top=6:report_width=0 %run %t/prog 2>&1 | FileCheck %s
// CHECK:      pcmap: wait: [[#]] samples of threads blocked in system calls ({{[0-9.]+}} s of wall time; [[#]] observations, each thread's up to 100 a second, 0 dropped), on [[#]] objects; the top {{[0-9]+}} by wait time:
// CHECK-NEXT: wait   share  samples  threads  kind {{ *}}object
// CHECK-DAG:  {{[0-9.]+}} s {{ *[0-9.]+}}% {{ *[0-9]+}}  {{ *}}4  mutex {{ *}}big_lock{{$}}
// CHECK-DAG:  {{[0-9.]+}} s {{ *[0-9.]+}}% {{ *[0-9]+}}  {{ *}}4  std::mutex {{ *}}heap{{$}}
// CHECK-DAG:  {{[0-9.]+}} s {{ *[0-9.]+}}% {{ *[0-9]+}}  {{ *}}1  std::condition_variable {{ *}}Ready+{{4[04]}}{{$}}
// CHECK-DAG:  waiting {{.*}}pthread_mutex_lock{{.*}} < lockBig() wait_objects.cpp:[[#]]:[[#]] < worker
// CHECK-DAG:  waiting {{.*}}pthread_mutex_lock{{.*}} < std::mutex::lock() {{.*}} < lockShard() wait_objects.cpp:[[#]]:[[#]] < worker
// CHECK-DAG:  holding {{.*}}nanosleep{{.*}} < critical() wait_objects.cpp:[[#]]:[[#]] < lockBig()
// CHECK-DAG:  holding {{.*}}nanosleep{{.*}} < critical() wait_objects.cpp:[[#]]:[[#]] < lockShard()
// CHECK-DAG:  waiting {{.*}}pthread_cond_wait{{.*}} < std::condition_variable::wait{{.*}} < main wait_objects.cpp
// CHECK:      EINTR 0

// RUN: env PCMAP_OPTIONS=trace_wait=1:report_format=json:report_path=%t/trace %run %t/prog > %t/out
// RUN: %python %S/Inputs/check_wait_objects.py %t/out 0.25 %t/trace.* | FileCheck %s --check-prefix=JSON
// JSON: big_lock: module, 4 threads, wait within 25% of the program's own measure
// JSON: Shard::mu: heap, 4 threads, wait within 25% of the program's own measure
// JSON: Ready: module, 1 thread, wait within 25% of the program's own measure
// JSON: EINTR 0

// The merged report's pprof: the wait on big_lock alone, through its label.
// RUN: %pcmap-report trace --format=pprof -o %t/w.pb.gz %t/trace.*
// RUN: %if go-pprof %{ env HOME=%t GOCACHE=%t/gocache go tool pprof -sample_index=wait -tagfocus=object=big_lock -top %t/w.pb.gz > %t/top 2>&1 %}
// RUN: %if go-pprof %{ %python %S/Inputs/check_wait_objects.py %t/out 0.25 %t/trace.* --pprof-total %t/top | FileCheck %s --check-prefix=PPROF %}
// PPROF: pprof -tagfocus=object=big_lock: within 25% of the program's own measure
