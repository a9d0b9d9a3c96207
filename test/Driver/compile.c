// The driver produces objects with the pcmap sections, for C and C++, in
// every code model, and only the sections asked for.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %pcmap-clang -fsanitize-metadata=all -O2 -c %s -o %t/all.o
// RUN: llvm-readelf -S %t/all.o | FileCheck %s --check-prefix=SMALL
// RUN: %pcmap-clang -fsanitize-metadata=all -O2 -mcmodel=medium -c %s -o %t/medium.o
// RUN: llvm-readelf -S %t/medium.o | FileCheck %s --check-prefix=PTR
// RUN: %pcmap-clang -fsanitize-metadata=all -O2 -mcmodel=large -c %s -o %t/large.o
// RUN: llvm-readelf -S %t/large.o | FileCheck %s --check-prefix=PTR
// RUN: %pcmap-clang -fsanitize-metadata=functions -O2 -c %s -o %t/funcs.o
// RUN: llvm-readelf -S %t/funcs.o | FileCheck %s --check-prefix=FUNCS
// RUN: %pcmap-clang++ -fsanitize-metadata=all -O2 -x c++ -c %s -o %t/cxx.o
// RUN: llvm-readelf -S %t/cxx.o | FileCheck %s --check-prefix=SMALL
// RUN: %pcmap-clang -O2 -c %s -o %t/plain.o
// RUN: llvm-readelf -S %t/plain.o | FileCheck %s --check-prefix=PLAIN
// The ignorelist reaches the plugin through clang.
// RUN: echo 'fun:counter_add' > %t/ignore.txt
// RUN: %pcmap-clang -fsanitize-metadata=all -fsanitize-metadata-ignorelist=%t/ignore.txt -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IGNORED

// SMALL-DAG: pcmap_atomics1 PROGBITS {{.*}} WAL
// SMALL-DAG: pcmap_functions1 PROGBITS {{.*}} WAL
// PTR-DAG: pcmap_atomics65537 PROGBITS {{.*}} WAL
// PTR-DAG: pcmap_functions65537 PROGBITS {{.*}} WAL
// FUNCS-NOT: pcmap_atomics
// FUNCS: pcmap_functions1
// FUNCS-NOT: pcmap_atomics
// PLAIN-NOT: pcmap
// IGNORED: define {{.*}}void @counter_add({{[^!]*}} {{{$}}
// IGNORED: define {{.*}}i32 @counter_get({{.*}} !pcsections

void counter_add(int *c) { __atomic_fetch_add(c, 1, __ATOMIC_RELAXED); }
int counter_get(int *c) { return __atomic_load_n(c, __ATOMIC_ACQUIRE); }
