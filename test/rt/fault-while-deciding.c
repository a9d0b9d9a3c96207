// A fault inside the fault reporter's handler while it decides whose fault
// it has (before any report) ends the process at once, said in one line: it
// is pcmap's own, and deciding again would fault again. Here the decision
// makes the process's first query (is the program's handler a sanitizer's,
// without pcmap tables?), which builds the tables from a section whose
// memory the program has since made unreadable.
// Regression test: the handler took its own fault, decided again, faulted
// again, until the alternate stack was exhausted.
// The test plays a sanitizer (it defines __sanitizer_symbolize_pc).
// UNSUPPORTED: sanitizer

// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%pcmap-include %s -o %t/prog %rt-static-lib
// RUN: env PCMAP_OPTIONS=handle_segv=1 %python %S/Inputs/run.py %run %t/prog | FileCheck %s
// CHECK:      registered and protected
// CHECK-NEXT: pcmap: =={{[0-9]+}}== SIGSEGV in the fault reporter's handler, before its report; the default action follows
// CHECK-NEXT: status: killed by SIGSEGV

#include "pcmap/pcmap.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// What a sanitizer's runtime defines: pcmap then takes a program's handler
// without pcmap tables for the sanitizer's, and asks.
void __sanitizer_symbolize_pc(void *PC, const char *Format, char *Out,
                              size_t Size) {
  (void)PC, (void)Format;
  if (Size)
    Out[0] = '\0';
}

static char Section[4096] __attribute__((aligned(4096)));

static void handler(int Signal) {
  (void)Signal;
  _exit(3); // not reached: the decision faults first
}

int main(void) {
  memset(Section, 0x55, 64);
  // Registered before any query: decoded by the first one.
  __pcmap_functions_add(1, Section, Section + 64);
  mprotect(Section, sizeof Section, PROT_NONE);
  printf("registered and protected\n");
  fflush(stdout);
  signal(SIGSEGV, handler);
  *(volatile int *)16 = 1;
  return 0;
}
