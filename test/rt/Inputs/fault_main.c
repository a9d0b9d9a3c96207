// Runs one operation of ops.c (named on the command line) on a PROT_NONE
// page, with no handler of its own: the runtime's fault reporter (or the
// default action) takes the fault. Also "sigbus" (a read past the end of a
// mapped file) and "sigill" (__builtin_trap). Prints the page's address
// first, so that the tests can check the reported faulting address.
#define _GNU_SOURCE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ops.h"

__attribute__((noinline)) static void do_sigbus(void) {
  FILE *f = tmpfile();
  if (!f)
    exit(2);
  void *p = mmap(0, 4096, PROT_READ, MAP_SHARED, fileno(f), 0);
  printf("page %p\n", p);
  fflush(stdout);
  // The file is empty: its first page is past the end.
  printf("%d\n", *(volatile int *)p);
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  if (!strcmp(argv[1], "sigbus")) {
    do_sigbus();
    return 0;
  }
  if (!strcmp(argv[1], "sigill")) {
    printf("trap\n");
    fflush(stdout);
#if defined(__aarch64__)
    __asm__ volatile("udf #0"); // __builtin_trap is BRK there: SIGTRAP
#else
    __builtin_trap();
#endif
  }
  void *page = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  for (int i = 0; i < rt_num_ops; ++i)
    if (!strcmp(rt_ops[i].name, argv[1])) {
      printf("page %p\n", page);
      fflush(stdout);
      rt_ops[i].fn(page);
      printf("no fault\n");
      return 0;
    }
  fprintf(stderr, "no operation %s\n", argv[1]);
  return 2;
}
