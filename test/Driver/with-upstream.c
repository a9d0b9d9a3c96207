// Upstream's -fexperimental-sanitize-metadata runs after pcmap in clang's
// pipeline and replaces !pcsections; pcmap puts its metadata back, next to
// upstream's, so both tables are emitted (regression test).
// RUN: %pcmap-clang -fsanitize-metadata=all -fexperimental-sanitize-metadata=atomics,covered -O2 -c %s -o %t.o
// RUN: llvm-readelf -S %t.o | FileCheck %s
// RUN: %pcmap-clang -fsanitize-metadata=all -fexperimental-sanitize-metadata=atomics,covered -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR

// CHECK-DAG: sanmd_covered2
// CHECK-DAG: sanmd_atomics2
// CHECK-DAG: pcmap_functions1
// CHECK-DAG: pcmap_atomics1

// IR: load atomic i32, ptr %{{.*}} acquire, align 4, !pcsections ![[MD:[0-9]+]]
// IR: ![[MD]] = !{!"sanmd_atomics2!C", !"pcmap_atomics1!C", !{{[0-9]+}}}

int get(int *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
