// Start-up reads no file: a program built with pcmap (the executable and a
// shared library, both instrumented) makes no more file-reading system
// calls before main than the same program built by plain clang, and opens
// no file the plain one does not (not even libgcc_s.so.1: the runtime
// unwinds with a private copy of libgcc's unwinder). Work that needs a file waits for its
// first use: the first stack-map query opens the loaded objects then (to
// find their .llvm_stackmaps), not before. Nor does it resolve the
// executable's path through /proc/self/exe: the name it was started with
// will do.

// REQUIRES: strace
// UNSUPPORTED: emulator, sanitizer
// clang-format off
// RUN: rm -rf %t && mkdir -p %t/pcmap %t/plain
// RUN: %pcmap-clang -O1 -fsanitize-metadata=all -fPIC -shared -DLIBRARY %s -o %t/pcmap/libx.so
// RUN: %pcmap-clang -O1 -fsanitize-metadata=all -I%pcmap-include %s -L%t/pcmap -lx '-Wl,-rpath,$ORIGIN' -o %t/pcmap/prog
// RUN: %clang -O1 -fPIC -shared -DLIBRARY %s -o %t/plain/libx.so
// RUN: %clang -O1 -DPLAIN %s -L%t/plain -lx '-Wl,-rpath,$ORIGIN' -o %t/plain/prog
// RUN: %python %S/Inputs/startup_files.py %t/pcmap/prog %t/plain/prog | FileCheck %s
// RUN: %python %S/Inputs/startup_files.py %t/pcmap/prog %t/plain/prog stackmaps | FileCheck %s --check-prefix=QUERY
// clang-format on

// CHECK: start-up file reads: pcmap {{[0-9]+}}, plain {{[0-9]+}}, extra {{(-[0-9]+|0|1|2)}}{{$}}
// CHECK-NEXT: opened only by pcmap before main: none
// CHECK-NEXT: opened by pcmap after main: none
// CHECK-NEXT: links read only by pcmap before main: none

// QUERY: start-up file reads: pcmap {{[0-9]+}}, plain {{[0-9]+}}, extra {{(-[0-9]+|0|1|2)}}{{$}}
// QUERY-NEXT: opened only by pcmap before main: none
// QUERY-NEXT: opened by pcmap after main: {{.*}}/pcmap/prog {{.*}}/pcmap/libx.so
// QUERY-NEXT: links read only by pcmap before main: none

#ifdef LIBRARY
int Counter;
int bump(void) { return __atomic_add_fetch(&Counter, 1, __ATOMIC_SEQ_CST); }
#else
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifndef PLAIN
#include "pcmap/pcmap.h"
#endif

int bump(void);

int main(int argc, char **argv) {
  if (write(1, "main\n", 5) != 5)
    return 1;
#ifndef PLAIN
  if (argc > 1 && !strcmp(argv[1], "stackmaps")) {
    struct pcmap_stackmap_stats Stats;
    pcmap_get_stackmap_stats(&Stats);
  }
#endif
  return bump() == 1 ? 0 : 1;
}
#endif
