// The tracer's stacks held to perf's on the same process: perf record
// --call-graph dwarf (which unwinds each sample's copied stack offline,
// with the same call frame information) and the tracer both sample the
// program built -O2 without frame pointers. Every call (caller -> callee)
// in 2% of either profile's samples is in the other's: no caller invented,
// none missed. For the ten functions with the largest cumulative share in
// perf's profile, the tracer's share differs by at most 8 points (the
// tracer's observations come at the kernel's tick, some 300 here: its
// standard error alone is about 3 points; bench/ compares longer runs
// within 3). Both sides are named the same way (llvm-symbolizer, from the
// files' symbols).
// UNSUPPORTED: sanitizer, emulator
// REQUIRES: perf

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -g -O2 -pthread -fsanitize-metadata=all %S/Inputs/unwind_prog.c -o %t/prog
// RUN: env COMPARE_LIMIT=8 %python %S/Inputs/compare_perf.py %t/prog | FileCheck %s
// CHECK:      samples: perf many, tracer many
// CHECK-NEXT: largest difference
// CHECK-NEXT: calls perf has and the tracer not: none
// CHECK-NEXT: calls the tracer has and perf not: none
// CHECK-NEXT: within 8 points: True
