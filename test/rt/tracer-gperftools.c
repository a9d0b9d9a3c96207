// A program profiled by gperftools' CPU profiler (CPUPROFILE: SIGPROF from
// setitimer(ITIMER_PROF), whose handler saves and restores its mask) with
// the tracer on: both profiles are complete and right. The kernel raises
// SIGPROF and the tracer's timer signal at the same tick; the tracer's
// handler blocks SIGPROF while it runs, so that gperftools samples the
// program's code, never the tracer's handler.
// Regression test: the tracer stopped after a few samples ("the program
// uses signal 64"), and gperftools charged 95% of the time to the
// tracer's handler.
// Not under TSan or qemu-user (tracer-unwind.c); the sanitizers'
// interceptors of the mask calls win over pcmap's.
// UNSUPPORTED: sanitizer, emulator
// REQUIRES: gperftools, pcmap-report

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -pthread -fsanitize-metadata=all %S/Inputs/unwind_prog.c -o %t/prog -lprofiler
// A sample that comes inside gperftools' handler, in libunwind under the
// comparator's 24 calls of the C library's merge sort, is over 32 frames
// deep: 64 keep it whole (at 32 it was cut short of _start, once in a CI
// run).
// RUN: env CPUPROFILE=%t/gperf.prof PCMAP_OPTIONS=trace_atomics=1:trace_stack_depth=64:report_format=json:report_path=%t/trace %run %t/prog 2> %t/err
// RUN: FileCheck %s --check-prefix=QUIET < %t/err
// QUIET-NOT: pcmap:
// RUN: %pcmap-report trace --format=folded %t/trace.* -o %t/folded
// RUN: %python %S/Inputs/check_unwind.py %t/folded | FileCheck %s --check-prefix=TRACER
// TRACER:      samples: many
// TRACER-NEXT: stacks from the thread's start: True
// TRACER:      take's callers share it: True

// gperftools' own profile: take() among its first functions (the two
// threads' 800 ms of the 1.2 s, less under load, where clock_gettime's
// system calls take more), and never the tracer's handler.
// RUN: google-pprof --text %t/prog %t/gperf.prof 2>/dev/null > %t/gperf.txt
// RUN: FileCheck %s --check-prefix=GPERF < %t/gperf.txt
// GPERF:     Total: {{[0-9]+}} samples
// GPERF-NOT: handleSample
// GPERF:     {{^ +[0-9]+ +[0-9.]+% +[0-9.]+% +[0-9]+ +[0-9.]+% }}take{{$}}
// GPERF-NOT: handleSample
