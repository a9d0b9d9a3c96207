// Allocates 200 MB of 64-byte objects from Boehm GC, keeping one in 1024
// alive, and prints how often it collected and how large its heap grew:
// both depend on the roots it scans (the program's static data).
#include <gc.h>
#include <stdio.h>

int main(void) {
  GC_INIT();
  void **Kept = 0;
  for (long I = 0; I < 200L * 1024 * 1024 / 64; ++I) {
    void **P = GC_MALLOC(64);
    if ((I & 1023) == 0) {
      P[0] = Kept;
      Kept = P;
    }
  }
  printf("collections: %lu, heap: %lu KiB\n", (unsigned long)GC_get_gc_no(),
         (unsigned long)GC_get_heap_size() >> 10);
  return 0;
}
