// Plugins load as without pcmap: a library whose DT_RUNPATH (or DT_RPATH)
// is $ORIGIN/plugins dlopens "libplug.so", with the static runtime (the
// default) and the shared one. Regression test: the runtime's dlopen
// interceptor made itself the caller, so the loader searched the runtime's
// path instead of the library's ("cannot open shared object file").
// Not with a sanitizer: its own dlopen interceptor, which the program calls
// first, has the same defect (docs/design/Runtime.md, "Discovery").
// UNSUPPORTED: sanitizer

// RUN: rm -rf %t && mkdir -p %t/lib/plugins %t/bin
// RUN: %clang -fPIC -shared -DPLUGIN %S/Inputs/runpath.c -o %t/lib/plugins/libplug.so
// RUN: %clang -fPIC -shared -DLOADER %S/Inputs/runpath.c -Wl,--enable-new-dtags,-rpath,'$ORIGIN/plugins' -o %t/lib/libloader.so
// RUN: llvm-readelf -d %t/lib/libloader.so | FileCheck %s --check-prefix=RUNPATH
// RUNPATH: (RUNPATH) {{.*}}$ORIGIN/plugins
// RUN: %pcmap-clang -fsanitize-metadata=all %S/Inputs/runpath.c -L%t/lib -lloader -Wl,-rpath,%t/lib -o %t/bin/static
// RUN: %pcmap-clang -fsanitize-metadata=all -shared-libpcmap %S/Inputs/runpath.c -L%t/lib -lloader -Wl,-rpath,%t/lib -o %t/bin/shared
// RUN: %clang %S/Inputs/runpath.c -L%t/lib -lloader -Wl,-rpath,%t/lib -o %t/bin/plain
// RUN: %run %t/bin/plain | FileCheck %s
// RUN: %run %t/bin/static | FileCheck %s
// RUN: %run %t/bin/shared | FileCheck %s

// DT_RPATH (old tags), the same.
// RUN: %clang -fPIC -shared -DLOADER %S/Inputs/runpath.c -Wl,--disable-new-dtags,-rpath,'$ORIGIN/plugins' -o %t/lib/libloader.so
// RUN: llvm-readelf -d %t/lib/libloader.so | FileCheck %s --check-prefix=RPATH
// RPATH: (RPATH) {{.*}}$ORIGIN/plugins
// RUN: %run %t/bin/static | FileCheck %s
// RUN: %run %t/bin/shared | FileCheck %s

// A plugin found through LD_LIBRARY_PATH first, as the loader does for
// DT_RUNPATH.
// RUN: mkdir -p %t/other && %clang -fPIC -shared -DPLUGIN -Dplugin_value=other %S/Inputs/runpath.c -o %t/other/libplug.so
// RUN: %clang -fPIC -shared -DLOADER %S/Inputs/runpath.c -Wl,--enable-new-dtags,-rpath,'$ORIGIN/plugins' -o %t/lib/libloader.so
// RUN: env LD_LIBRARY_PATH=%t/other %run %t/bin/plain | FileCheck %s --check-prefix=LDPATH
// RUN: env LD_LIBRARY_PATH=%t/other %run %t/bin/static | FileCheck %s --check-prefix=LDPATH
// LDPATH: plugin says -1

// CHECK:      plugin says 42
// CHECK-NEXT: same handle: yes
