// The function report of a program linked with a sanitizer, whose runtime
// symbolizes the PCs (__sanitizer_symbolize_pc): a function is named by the
// function that holds it, not by a function inlined at its first PC
// (Cache::release() begins with the inlined std::atomic fetch_sub).
// UBSan provides the symbolizer and goes with every PCMAP_SANITIZE build.

// Debian has no compiler-rt sanitizers for cross targets.
// UNSUPPORTED: target-aarch64
// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang++ -g -O1 -fsanitize-metadata=all -c %S/Inputs/functions.cpp -o %t/functions.o
// RUN: %pcmap-clang++ -g -O1 -fsanitize=undefined -fsanitize-metadata=all %t/functions.o -o %t/prog
// RUN: llvm-nm %t/prog | FileCheck %s --check-prefix=SYMBOLIZER
// SYMBOLIZER: T __sanitizer_symbolize_pc
// RUN: env PCMAP_OPTIONS=report_functions=1:report_format=csv:report_path=%t/csv %run %t/prog
// RUN: %python %S/Inputs/check_functions.py %t/csv csv %t/prog %t/functions.o | FileCheck %s
// CHECK:      int shapes::exchangeAll<int>(std::atomic<int>&, int) size=ok
// CHECK-NEXT: long shapes::exchangeAll<long>(std::atomic<long>&, long) size=ok
// CHECK-NEXT: main size=ok
// CHECK-NEXT: shapes::Cache::release() size=ok
// CHECK-NEXT: shapes::Cache::retain() size=ok
// CHECK-NEXT: shapes::plain(int) size=ok
