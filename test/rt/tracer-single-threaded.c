// The tracer keeps a single-threaded program single-threaded: its scan
// thread starts with the program's first pthread_create, not with the
// tracer, so that the C library does not take the process for a
// multi-threaded one (every cancellable system call, stdio lock and
// libstdc++ reference count would turn atomic). A forked child starts
// single-threaded too. The program and its child are sampled all the same.
// Regression test: the scan thread started with the tracer, and a forking
// test server's single-threaded workers lost 4 % of their throughput to the
// C library's multi-threaded paths (bench/tracer_fork_server.py).
// With a sanitizer, whose interceptor starts threads past the runtime's, the
// scan thread starts with the tracer.
// UNSUPPORTED: sanitizer

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O1 -pthread -fsanitize-metadata=all %S/Inputs/single_threaded.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:trace_top=3:report_path=%t/trace %run %t/prog | FileCheck %s --check-prefix=TRACED
// N is 1, or more under qemu-user, whose own threads the kernel lists too.
// TRACED:      main: libc single-threaded: 1, threads: [[#N:]]
// TRACED-NEXT: child: libc single-threaded: 1, threads: [[#N]]
// The joined thread is gone; the scan thread stays.
// TRACED-NEXT: after pthread_create: libc single-threaded: 0, threads: [[#N+1]]
// RUN: cat %t/trace.* | FileCheck %s --check-prefix=REPORT
// Two reports, the child's and the parent's, each with its samples.
// REPORT-COUNT-2: {{^ +[1-9][0-9]* .*spin_on_atomic}}

// Without the tracer: the same, and no thread stays.
// RUN: %run %t/prog | FileCheck %s --check-prefix=PLAIN
// PLAIN:      main: libc single-threaded: 1, threads: [[#N:]]
// PLAIN-NEXT: child: libc single-threaded: 1, threads: [[#N]]
// PLAIN-NEXT: after pthread_create: libc single-threaded: 0, threads: [[#N]]
