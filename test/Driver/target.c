// The drivers link the runtime built for the command line's target: the
// native one by default and for the native target, lib/pcmap/<triple>/ for a
// target it was cross-built for (cmake/PCMapCrossRuntime.cmake), whatever
// the triple's spelling; and say so when a program needs one and there is
// none (a shared object gets no runtime). A copy of the driver
// in a tree of its own, whose lib/pcmap/aarch64-linux-gnu/ exists, shows it
// whether or not this build has the AArch64 runtime.
// RUN: rm -rf %t && mkdir -p %t/bin %t/lib/pcmap/aarch64-linux-gnu && touch %t/a.o
// RUN: cp %pcmap-obj-root/bin/pcmap-clang %t/bin/pcmap-clang
// RUN: cd %t/lib/pcmap && touch libclang_rt.pcmap.a libpcmap_rt.so libpcmap_rt.syms \
// RUN:   libclang_rt.pcmap_driver.a aarch64-linux-gnu/libclang_rt.pcmap.a \
// RUN:   aarch64-linux-gnu/libpcmap_rt.so aarch64-linux-gnu/libpcmap_rt.syms \
// RUN:   aarch64-linux-gnu/libclang_rt.pcmap_driver.a \
// RUN:   aarch64-linux-gnu/libclang_rt.pcmap_outline.a
// RUN: %t/bin/pcmap-clang -### -fsanitize-metadata=all --target=aarch64-linux-gnu %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=A64
// RUN: %t/bin/pcmap-clang -### -fsanitize-metadata=all -target aarch64-unknown-linux-gnu %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=A64
// RUN: %t/bin/pcmap-clang -### -fsanitize-metadata=all --target=arm64-linux-gnu -shared-libpcmap %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=A64-SHARED
// RUN: %t/bin/pcmap-clang -### -fsanitize-metadata=all --target=x86_64-linux-gnu %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=NATIVE
// RUN: not %t/bin/pcmap-clang -### -fsanitize-metadata=all --target=riscv64-linux-gnu %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %t/bin/pcmap-clang -### -fsanitize-metadata=all --target=aarch64-linux-gnu -shared %t/a.o -o %t/a.so 2>&1 | FileCheck %s --check-prefix=A64-DSO
// RUN: %t/bin/pcmap-clang -### -fsanitize-metadata=all --target=riscv64-linux-gnu -shared %t/a.o -o %t/a.so 2>&1 | FileCheck %s --check-prefix=LINK
// RUN: %t/bin/pcmap-clang -### --target=riscv64-linux-gnu %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=LINK

// Every AArch64 module gets the object that registers its outline-atomic
// helpers (docs/design/Runtime.md, "Outline atomics"); executables the runtime.
// A64: "--whole-archive" "{{[^"]*}}/lib/pcmap/aarch64-linux-gnu/libclang_rt.pcmap_outline.a" "--no-whole-archive"
// A64: "{{[^"]*}}/lib/pcmap/aarch64-linux-gnu/libclang_rt.pcmap_driver.a"
// A64: "--whole-archive" "{{[^"]*}}/lib/pcmap/aarch64-linux-gnu/libclang_rt.pcmap.a" "--no-whole-archive" "--dynamic-list={{[^"]*}}/lib/pcmap/aarch64-linux-gnu/libpcmap_rt.syms"
// A64-SHARED: "{{[^"]*}}/lib/pcmap/aarch64-linux-gnu/libpcmap_rt.so" "-rpath" "{{[^"]*}}/lib/pcmap/aarch64-linux-gnu"
// A64-DSO: "--whole-archive" "{{[^"]*}}/lib/pcmap/aarch64-linux-gnu/libclang_rt.pcmap_outline.a" "--no-whole-archive"
// A64-DSO-NOT: {{libpcmap_rt|libclang_rt.pcmap[._]}}
// NATIVE-NOT: outline
// NATIVE: "--whole-archive" "{{[^"]*}}/lib/pcmap/libclang_rt.pcmap.a"
// NONE: error: no pcmap runtime for target 'riscv64-linux-gnu' (looked in '{{.*}}/lib/pcmap/riscv64-linux-gnu'
// LINK-NOT: error
// LINK-NOT: libpcmap

int main(void) { return 0; }
