// Boehm GC in incremental mode (its dirty bits from mprotect and its own
// SIGSEGV handler, which chains to the action it found) and a stray write
// outside its heap: its handler prints "Unexpected bus error or
// segmentation fault" and calls abort().
#include <gc.h>
#include <stdio.h>

int main(void) {
  GC_set_manual_vdb_allowed(0);
  GC_enable_incremental();
  GC_INIT();
  void **List = 0;
  for (int I = 0; I < 100000; ++I) {
    void **P = GC_MALLOC(64);
    P[0] = List;
    List = P;
  }
  printf("incremental: %d\n", GC_is_incremental_mode());
  fflush(stdout);
  *(volatile int *)0x10 = 1;
  return 0;
}
