// A static executable built by the drivers (-static, -static-pie) starts
// threads and loads shared objects as without pcmap: a static link makes
// the runtime's pthread_create, dlopen and dlclose interceptors the
// program's, and dlsym finds no next definition; they pass on to the C
// library's own names in libc.a (the drivers pull its pthread_create from
// the archive). With the tracer on, the threads are sampled.
// Regression test: pthread_create failed with EAGAIN in every static
// executable the drivers linked, and dlopen with "RTLD_NEXT used in code
// not dynamically loaded".
// The sanitizers do not link statically.
// UNSUPPORTED: sanitizer

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O1 -static -pthread -fsanitize-metadata=all %S/Inputs/static_executable.c -o %t/static -ldl
// RUN: %run %t/static | FileCheck %s
// RUN: %pcmap-clang -O1 -static-pie -pthread -fsanitize-metadata=all %S/Inputs/static_executable.c -o %t/static-pie -ldl
// RUN: %run %t/static-pie | FileCheck %s
// RUN: env PCMAP_OPTIONS=trace_atomics=1:log_path=%t/log %run %t/static | FileCheck %s
// CHECK:      pthread_create: 0, joined: 0
// CHECK-NEXT: dlopen: loaded, dlclose: 0

// The tracer's figures in a static executable (not under qemu-user, whose
// CPU time includes its translation).
// RUN: %pcmap-clang -O1 -static -pthread -fsanitize-metadata=all %S/Inputs/idle_threads.c -o %t/idle
// RUN: %if !emulator %{ %python %S/Inputs/check_accuracy.py %t spin_on_atomic 0.9 %run %t/idle | FileCheck %s --check-prefix=TRACED %}
// TRACED:      interrupted sleeps: 0, spurious wake-ups: 0
// TRACED-NEXT: samples within 10% of CPU time x rate: True
// TRACED-NEXT: at least 90% in spin_on_atomic: True
