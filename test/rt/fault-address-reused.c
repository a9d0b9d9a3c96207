// A fault at an address the program unmapped ends the program, as without
// pcmap, even when the report maps memory there: the kernel gives the hole
// the fault left to the next mapping, and the reporter maps its buffers
// while it writes. The default action is taken by queueing the fault again
// with the kernel's information, never by running the faulting instruction
// again.
// Regression test: examples/refcache.cpp --bug (a reference count dropped
// on an unmapped page) was reported, then ran on with the runtime's buffer
// under its pointer ("refcache: not reached", exit status 1).
// UNSUPPORTED: sanitizer, emulator
// (qemu-user asserts when it delivers a queued fault.)

// RUN: rm -rf %t && mkdir %t
// RUN: %pcmap-clang -O1 -g -fsanitize-metadata=all %s -o %t/prog
// RUN: %python %S/Inputs/run.py %run %t/prog 2>&1 | FileCheck %s
// CHECK: unmapped [[PAGE:0x[0-9a-f]+]]
// CHECK: pcmap: =={{[0-9]+}}== SIGSEGV (address not mapped) on address [[PAGE]]
// CHECK: pcmap:   atomic:   rmw sub, 4 bytes, acq_rel
// CHECK: the default action of SIGSEGV follows
// CHECK-NOT: not reached
// CHECK: status: killed by SIGSEGV

#include <stdio.h>
#include <sys/mman.h>

int main(void) {
  int *Page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Page == MAP_FAILED || munmap(Page, 4096) != 0)
    return 2;
  printf("unmapped %p\n", (void *)Page);
  fflush(stdout);
  __atomic_fetch_sub(Page, 1, __ATOMIC_ACQ_REL);
  printf("not reached: %d\n", *Page);
  return 1;
}
