// handle_sigtrap: a hardware watchpoint (perf_event_open with sigtrap)
// traps after an atomic writes the watched word; the report describes the
// atomic that ends at the PC, and the program then dies of SIGTRAP, as it
// would without pcmap. Off by default.

// REQUIRES: perf-watchpoints
// qemu-user has no hardware watchpoints.
// UNSUPPORTED: target-aarch64
// RUN: %pcmap-clang -g -O1 -fsanitize-metadata=all %s -o %t
// RUN: env PCMAP_OPTIONS=handle_sigtrap=1 %python %S/Inputs/run.py %run %t | FileCheck %s
// CHECK:      watching [[ADDR:0x[0-9a-f]+]]
// CHECK-NEXT: pcmap: =={{[0-9]+}}== SIGTRAP (perf event: breakpoint or watchpoint) on address [[ADDR]] at pc [[PC:0x[0-9a-f]+]]
// CHECK-NEXT: pcmap:   module:   {{.*}}+0x{{[0-9a-f]+}}
// CHECK-NEXT: pcmap:   function: 0x{{[0-9a-f]+}}+0x{{[0-9a-f]+}} ({{[0-9]+}} bytes, 1 atomic)
// CHECK-NEXT: pcmap:   before pc: atomic at 0x{{[0-9a-f]+}}, rmw add, 4 bytes, seq_cst
// CHECK-NEXT: pcmap: stack:
// CHECK-NEXT: pcmap:   #0 [[PC]] in bump {{.*}}fault-sigtrap.c:[[#]]:[[#]]
// CHECK:      pcmap: =={{[0-9]+}}== the default action of SIGTRAP follows
// CHECK-NEXT: status: killed by SIGTRAP
// RUN: %python %S/Inputs/run.py %run %t | FileCheck %s --check-prefix=OFF
// OFF-NOT: pcmap:
// OFF: status: killed by SIGTRAP

#define _GNU_SOURCE 1
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

_Atomic int counter;

__attribute__((noinline)) void bump(void) { atomic_fetch_add(&counter, 1); }

int main(void) {
  struct perf_event_attr pe;
  memset(&pe, 0, sizeof pe);
  pe.type = PERF_TYPE_BREAKPOINT;
  pe.size = sizeof pe;
  pe.bp_type = HW_BREAKPOINT_W;
  pe.bp_addr = (unsigned long)&counter;
  pe.bp_len = HW_BREAKPOINT_LEN_4;
  pe.sample_period = 1;
  pe.sigtrap = 1;
  pe.remove_on_exec = 1;
  pe.exclude_kernel = 1;
  pe.exclude_hv = 1;
  if (syscall(SYS_perf_event_open, &pe, 0, -1, -1, PERF_FLAG_FD_CLOEXEC) < 0) {
    perror("perf_event_open");
    return 1;
  }
  printf("watching %p\n", (void *)&counter);
  fflush(stdout);
  bump();
  printf("not trapped\n");
  return 0;
}
