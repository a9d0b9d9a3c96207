// At link time the drivers add the runtime to executables, as
// -fsanitize=address adds ASan: static by default, whole-archive (the
// registration calls are weak references, which pull nothing out of an
// archive) with its interface exported to shared objects; -shared-libpcmap
// links the shared runtime. Shared objects, relocatable links and compile
// steps get no runtime.
// RUN: rm -rf %t && mkdir -p %t && touch %t/a.o
// RUN: %pcmap-clang -### -fsanitize-metadata=all %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: %pcmap-clang -### -fsanitize-metadata=all -static-libpcmap %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: %pcmap-clang -### -fsanitize-metadata=all -shared-libpcmap %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: %pcmap-clang -### -fexperimental-sanitize-metadata=atomics,covered %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: %pcmap-clang -### -fsanitize-metadata=all -shared %t/a.o -o %t/a.so 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %pcmap-clang -### -fsanitize-metadata=all -r %t/a.o -o %t/b.o 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %pcmap-clang -### -fsanitize-metadata=all -c %s -o %t/c.o 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %pcmap-clang -### %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %pcmap-clang -### -fsanitize-metadata=all -static %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=STATIC-EXE
// RUN: %pcmap-clang -### -fsanitize-metadata=all -static-pie %t/a.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=STATIC-EXE

// STATIC: "--whole-archive" "{{.*}}libclang_rt.pcmap.a" "--no-whole-archive" "--dynamic-list={{.*}}libpcmap_rt.syms"
// STATIC-EXE: "--whole-archive" "{{.*}}libclang_rt.pcmap.a" "--no-whole-archive" "--dynamic-list={{.*}}libpcmap_rt_static.syms"
// SHARED: "{{.*}}libpcmap_rt.so" "-rpath" "{{.*}}"
// NONE-NOT: libpcmap_rt

// And the result runs, with the metadata registered.
// RUN: %pcmap-clang -fsanitize-metadata=all -I%pcmap-include %s -o %t/run
// RUN: %t/run | FileCheck %s --check-prefix=OUT
// RUN: %pcmap-clang -fsanitize-metadata=all -shared-libpcmap -I%pcmap-include %s -o %t/run-shared
// RUN: %t/run-shared | FileCheck %s --check-prefix=OUT
// RUN: llvm-readelf -d %t/run-shared | FileCheck %s --check-prefix=NEEDED
// RUN: %clang -fexperimental-sanitize-metadata=atomics,covered -c -I%pcmap-include %s -o %t/up.o
// RUN: %pcmap-clang -fexperimental-sanitize-metadata=atomics,covered %t/up.o -o %t/run-upstream
// RUN: %t/run-upstream | FileCheck %s --check-prefix=OUT
// RUN: %pcmap-clang -fsanitize-metadata=all -static -I%pcmap-include %s -o %t/run-static
// RUN: %t/run-static | FileCheck %s --check-prefix=OUT

// Links that clang makes silently make no warning with the runtime either:
// static and static-pie executables (the linker warned of dlopen, exported
// for shared objects: libtool then took -static for unusable), dynamic
// ones, shared objects; with every linker Debian has.
// Regression test: every static link warned "Using 'dlopen' in statically
// linked applications requires at runtime the shared libraries ...".
// RUN: %pcmap-clang -fsanitize-metadata=all -static -Wl,--fatal-warnings -I%pcmap-include %s -o %t/fatal-static
// RUN: %t/fatal-static | FileCheck %s --check-prefix=OUT
// RUN: %pcmap-clang -fsanitize-metadata=all -static-pie -Wl,--fatal-warnings -I%pcmap-include %s -o %t/fatal-static-pie
// RUN: %t/fatal-static-pie | FileCheck %s --check-prefix=OUT
// RUN: %pcmap-clang -fsanitize-metadata=all -Wl,--fatal-warnings -I%pcmap-include %s -o %t/fatal-dynamic
// RUN: %if lld %{ %pcmap-clang -fuse-ld=lld -fsanitize-metadata=all -static -Wl,--fatal-warnings -I%pcmap-include %s -o %t/fatal-lld-static %}
// RUN: %if lld %{ %pcmap-clang -fuse-ld=lld -fsanitize-metadata=all -Wl,--fatal-warnings -I%pcmap-include %s -o %t/fatal-lld %}
// RUN: %if lld %{ %pcmap-clang -fuse-ld=lld -fsanitize-metadata=all -static-pie -Wl,--fatal-warnings -I%pcmap-include %s -o %t/fatal-lld-static-pie %}
// RUN: %if lld %{ %t/fatal-lld-static-pie | FileCheck %s --check-prefix=OUT %}
// Regression test: gold warned 13 times on every executable, "Cannot export
// local symbol '__pcmap_sections1.module_ctor'" (and the runtime's hidden
// __pcmap_sigaction, ...): the list of exported symbols had patterns, which
// matched local symbols too. gold makes no static-pie (nor with clang).
// RUN: %if gold %{ %pcmap-clang -fuse-ld=gold -fsanitize-metadata=all -Wl,--fatal-warnings -I%pcmap-include %s -o %t/fatal-gold 2>&1 | count 0 %}
// RUN: %if gold %{ %t/fatal-gold | FileCheck %s --check-prefix=OUT %}
// RUN: %if gold %{ %pcmap-clang -fuse-ld=gold -fsanitize-metadata=all -static -Wl,--fatal-warnings -I%pcmap-include %s -o %t/fatal-gold-static 2>&1 | count 0 %}
// RUN: %if gold %{ %t/fatal-gold-static | FileCheck %s --check-prefix=OUT %}
// RUN: %if gold %{ %pcmap-clang -fuse-ld=gold -fsanitize-metadata=all -shared -fPIC -Wl,--fatal-warnings -I%pcmap-include %s -o %t/fatal-gold.so %}
// RUN: %if mold %{ %pcmap-clang -fuse-ld=mold -fsanitize-metadata=all -Wl,--fatal-warnings -I%pcmap-include %s -o %t/fatal-mold %}
// RUN: %if mold %{ %t/fatal-mold | FileCheck %s --check-prefix=OUT %}
// RUN: %if mold %{ %pcmap-clang -fuse-ld=mold -fsanitize-metadata=all -static -Wl,--fatal-warnings -I%pcmap-include %s -o %t/fatal-mold-static %}
// RUN: %if mold %{ %pcmap-clang -fuse-ld=mold -fsanitize-metadata=all -static-pie -Wl,--fatal-warnings -I%pcmap-include %s -o %t/fatal-mold-static-pie %}
// RUN: %if mold %{ %t/fatal-mold-static-pie | FileCheck %s --check-prefix=OUT %}
// The list names the runtime's interface, and only it.
// RUN: FileCheck %s --check-prefix=SYMS < %pcmap-lib/libpcmap_rt.syms
// RUN: FileCheck %s --check-prefix=SYMS-STATIC < %pcmap-lib/libpcmap_rt_static.syms
// SYMS: {
// SYMS-NOT: *
// SYMS: __pcmap_sections_add;
// SYMS: dlopen;
// SYMS: pcmap_lookup_function;
// SYMS: sigaction;
// SYMS-NOT: *
// SYMS: };
// SYMS-STATIC-NOT: dlopen
// SYMS-STATIC: __pcmap_sections_add;
// SYMS-STATIC-NOT: dlopen

// OUT: registered: yes
// NEEDED: (NEEDED) Shared library: [libpcmap_rt.so]

#include <pcmap/pcmap.h>
#include <stdio.h>

__attribute__((noinline)) int f(int *p) {
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

int main(void) {
  struct pcmap_function fn;
  int x = 0;
  printf("registered: %s\n",
         pcmap_lookup_function((uintptr_t)f, &fn) ? "yes" : "no");
  return f(&x);
}
