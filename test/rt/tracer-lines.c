// The text report gives the PCs of one source line one row (an unrolled
// loop's eight copies of one atomic statement, those that have samples):
// their samples summed, the heaviest PC's place, and the others' function
// offsets; the JSON report keeps a row per PC. Regression test: the row of each copy took a line of
// the report, and the copies of one statement pushed other lines out of
// the top rows.
// UNSUPPORTED: sanitize-thread, emulator

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -fsanitize-metadata=all %S/Inputs/unrolled.c -o %t/prog
// RUN: env PCMAP_OPTIONS=trace_atomics=1:report_path=stdout:report_width=0 %t/prog | FileCheck %s
// CHECK:      pcmap: top 2 of {{[0-9]+}} atomic sites by samples:
// CHECK-NEXT: samples
// CHECK-NEXT: rmw add, 8 bytes, relaxed {{.*}} count_hits+{{[0-9]+}} {{.*}}unrolled.c:17:{{[0-9]+}} (prog+0x{{[0-9a-f]+}}); {{[3-7]}} more PCs on the line: +0x{{[0-9a-f]+}} +0x{{[0-9a-f]+}} +0x{{[0-9a-f]+}}{{( \+0x[0-9a-f]+)*$}}
// CHECK-NOT:  unrolled.c:17
// CHECK:      rmw add, 8 bytes, relaxed {{.*}} count_miss+{{[0-9]+}} {{.*}}unrolled.c:21:{{[0-9]+}}
// CHECK-NOT:  unrolled.c:17
// CHECK:      pcmap: top {{[0-9]+}} of {{[0-9]+}} covered functions
