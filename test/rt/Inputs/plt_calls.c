// A hot call through the PLT: main calls next_value(), defined in a shared
// library (-DLIBRARY), in a loop for the CPU time given, so that samples
// land in the PLT entry "next_value@plt".
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef LIBRARY
__attribute__((noinline)) long next_value(long v) { return v + 1; }
#else
long next_value(long v);

static long cpu_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int main(int argc, char **argv) {
  long until = cpu_ms() + (argc > 1 ? atol(argv[1]) : 500), v = 0;
  while (cpu_ms() < until)
    for (int i = 0; i < 100000; ++i)
      v = next_value(v);
  printf("%d\n", v > 0);
  return 0;
}
#endif
