// The text report gives the PCs of one source line one row (an unrolled
// loop's eight copies of one atomic statement and its remainder loop's,
// those that have samples: LLVM 22's build had all nine once):
// their samples summed, the heaviest PC's place, and the others' function
// offsets; the JSON report keeps a row per PC. Regression test: the row of each copy took a line of
// the report, and the copies of one statement pushed other lines out of
// the top rows.
// pcmap-report trace does the same in its text (--per-pc: a row per PC).
// UNSUPPORTED: sanitize-thread, emulator
// REQUIRES: pcmap-report

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -fsanitize-metadata=all %S/Inputs/unrolled.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_path=stdout:report_width=0 %t/prog | FileCheck %s
// CHECK:      pcmap: top 2 of {{[0-9]+}} atomic sites by samples:
// CHECK-NEXT: samples
// CHECK-NEXT: rmw add, 8 bytes, relaxed {{.*}} count_hits+{{[0-9]+}} {{.*}}unrolled.c:17:{{[0-9]+}} (prog+0x{{[0-9a-f]+}}); {{[3-8]}} more PCs on the line: +0x{{[0-9a-f]+}} +0x{{[0-9a-f]+}} +0x{{[0-9a-f]+}}{{( \+0x[0-9a-f]+)*$}}
// CHECK-NOT:  unrolled.c:17
// CHECK:      rmw add, 8 bytes, relaxed {{.*}} count_miss+{{[0-9]+}} {{.*}}unrolled.c:21:{{[0-9]+}}
// CHECK-NOT:  unrolled.c:17
// CHECK:      pcmap: top {{[0-9]+}} of {{[0-9]+}} covered functions

// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_format=json:report_path=%t/trace %t/prog
// RUN: %pcmap-report trace --callers=1 %t/trace.* | FileCheck %s --check-prefix=REPORT
// REPORT:      atomic sites by samples:
// REPORT-NEXT: SAMPLES
// REPORT-NEXT: {{.*}} count_hits+0x{{[0-9a-f]+}} unrolled.c:17:{{[0-9]+}} (+{{[3-7]}} PCs of the line) prog+0x
// REPORT-NEXT: {{.*}} count_miss{{(\+0x0)?}} unrolled.c:21:{{[0-9]+}} prog+0x
// REPORT:      #1 count_hits+0x{{[0-9a-f]+}}: rmw add relaxed 8 bytes at unrolled.c:17:{{[0-9]+}} and +0x{{[0-9a-f]+}}, +0x
// RUN: %pcmap-report trace --per-pc %t/trace.* | FileCheck %s --check-prefix=PERPC
// PERPC:     atomic sites by samples:
// PERPC-NOT: PCs of the line
// PERPC:     unrolled.c:17
// PERPC:     unrolled.c:17
