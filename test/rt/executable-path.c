// The executable's path in its module (pcmap_function.module_path, the
// path reports and the symbolizer use) is absolute however the program was
// started, without a readlink of /proc/self/exe at start-up: the name
// execve was given (AT_EXECFN), made absolute with the working directory.
// Where that name would name another file for whoever opens it later (the
// program was started through /proc/self/exe, or a /dev/fd/ descriptor),
// the runtime reads the link instead.

// UNSUPPORTED: emulator
// clang-format off
// RUN: rm -rf %t && mkdir -p %t/bin
// RUN: %pcmap-clang -O1 -fsanitize-metadata=all -I%pcmap-include %s -o %t/bin/prog
// RUN: sh -c 'cd %t/bin && exec ./prog' | FileCheck %s --check-prefix=REL -DDIR=%t
// RUN: %t/bin/./prog | FileCheck %s --check-prefix=REL -DDIR=%t
// RUN: sh -c 'cd %t && exec bin/../bin//prog' | FileCheck %s --check-prefix=DOTS -DDIR=%t
// RUN: %t/bin/prog | FileCheck %s --check-prefix=ABS -DDIR=%t
// RUN: %t/bin/prog again | FileCheck %s --check-prefix=PROC -DDIR=%t
// clang-format on

// REL: module: [[DIR]]/bin/prog{{$}}
// DOTS: module: [[DIR]]/bin/../bin/prog{{$}}
// ABS: module: [[DIR]]/bin/prog{{$}}
// PROC: module: [[DIR]]/bin/prog{{$}}

#include <pcmap/pcmap.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  // "again": run once more through /proc/self/exe, whose name would be
  // the reader's own executable if kept.
  if (argc > 1 && !strcmp(argv[1], "again")) {
    char *Args[] = {argv[0], NULL};
    execv("/proc/self/exe", Args);
    perror("execv");
    return 1;
  }
  struct pcmap_function F;
  if (!pcmap_lookup_function((uintptr_t)&main, &F) || !F.module_path) {
    printf("module: none\n");
    return 1;
  }
  printf("module: %s\n", F.module_path);
  return 0;
}
