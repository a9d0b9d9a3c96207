// The drivers link the runtime built for the command line's target: the
// native one by default and for the native target, lib/pcmap/<triple>/ for a
// target it was cross-built for (cmake/PCMapCrossRuntime.cmake), whatever
// the triple's spelling; and say so when there is none.
// REQUIRES: runtime-aarch64-linux-gnu
// RUN: rm -rf %t && mkdir -p %t && touch %t/a.o
// RUN: %pcmap-clang -### -fsanitize-metadata=all --target=aarch64-linux-gnu %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=A64
// RUN: %pcmap-clang -### -fsanitize-metadata=all -target aarch64-unknown-linux-gnu %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=A64
// RUN: %pcmap-clang -### -fsanitize-metadata=all --target=arm64-linux-gnu -shared-libpcmap %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=A64-SHARED
// RUN: %pcmap-clang -### -fsanitize-metadata=all --target=x86_64-linux-gnu %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=NATIVE
// RUN: not %pcmap-clang -### -fsanitize-metadata=all --target=riscv64-linux-gnu %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %pcmap-clang -### -fsanitize-metadata=all --target=riscv64-linux-gnu -c %s -o %t/b.o 2>&1 | FileCheck %s --check-prefix=COMPILE

// A64: "{{[^"]*}}/lib/pcmap/aarch64-linux-gnu/libpcmap_rt_driver.a"
// A64: "--whole-archive" "{{[^"]*}}/lib/pcmap/aarch64-linux-gnu/libpcmap_rt.a" "--no-whole-archive" "--dynamic-list={{[^"]*}}/lib/pcmap/aarch64-linux-gnu/libpcmap_rt.syms"
// A64-SHARED: "{{[^"]*}}/lib/pcmap/aarch64-linux-gnu/libpcmap_rt.so" "-rpath" "{{[^"]*}}/lib/pcmap/aarch64-linux-gnu"
// NATIVE: "--whole-archive" "{{[^"]*}}/lib/pcmap/libpcmap_rt.a"
// NONE: error: no pcmap runtime for target 'riscv64-linux-gnu' (looked in '{{.*}}/lib/pcmap/riscv64-linux-gnu'
// COMPILE-NOT: error
// COMPILE: "-cc1"

int main(void) { return 0; }
