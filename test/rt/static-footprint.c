// The runtime's static data is a few KiB, not its tables: everything larger
// is mapped when first needed (rt/core/mapped.h). A conservative garbage
// collector scans a program's .data and .bss as roots (Boehm GC: 2 MB of
// them made it collect 6.6 times less often, with a heap 6.6 times larger),
// and a process that never queries should carry none of the tables.
// Regression test: a hello world had 2.1 MB of the runtime's .bss (the
// module index, the tracer's tables and snapshot, the stack-map index).
// The whole runtime is linked (the static archive, whole): an upper bound
// for any program the drivers build.
// The sanitizers add their own globals and redzones.
// UNSUPPORTED: sanitizer

// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 %s -o %t/plain
// RUN: %pcmap-clang -O2 -fsanitize-metadata=all -c %s -o %t/hello.o
// RUN: %clang %t/hello.o %rt-static-lib -pthread -ldl -o %t/pcmap
// RUN: %python %S/Inputs/static_data.py %t/plain %t/pcmap 16384 | FileCheck %s
// RUN: %run %t/pcmap | FileCheck %s --check-prefix=EXEC
// CHECK: .data + .bss added: {{[0-9]+}} bytes, within 16384
// EXEC: hello

#include <stdio.h>

int main(void) {
  puts("hello");
  return 0;
}
